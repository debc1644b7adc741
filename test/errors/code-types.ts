/**
 * Type-level checks of the code table, run by `npm run typecheck` (not by jest): a code that is
 * not in ERROR_CODE_TABLE, or a code of another family, does not compile.
 */
import type { ErrorCode } from '../../src/error-codes';
import { LifespanError, StoreError, TtlError, UnsupportedTtlError, type ModelProblem } from '../../src/errors';

export function typeChecks(): void {
  // @ts-expect-error a code that is not in the table
  new LifespanError('NOT_A_CODE', 'x');
  // @ts-expect-error a store error carries only store codes
  new StoreError('BAD_ARGUMENT', 'x');
  // @ts-expect-error a TtlError carries only TTL codes
  new TtlError('STORE_UNREACHABLE', 1, 'x');
  // @ts-expect-error an UnsupportedTtlError carries only its own codes
  new UnsupportedTtlError('VALUE_INVALID', 'x');
  // @ts-expect-error a problem of a ModelError names a code of the table too
  const problem: ModelProblem = { code: 'MADE_UP', message: 'x' };
  // A caught error's code narrows to the table's union, so a switch over it is checked.
  const code: ErrorCode = new LifespanError('BAD_ARGUMENT', 'x').code;
  // @ts-expect-error `code` is not any string
  const notACode: 'NOT_A_CODE' = new LifespanError('BAD_ARGUMENT', 'x').code;
  void [problem, code, notACode];
}
