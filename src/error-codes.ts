/**
 * Every code lifespan raises, in one table: the error class that carries it (`family`), the CLI
 * exit code family it maps to (`exit`, read by src/cli/exit-codes.ts) and, as TSDoc, what it
 * means (docs/errors.md is generated from this file by scripts/docs/). `LifespanError.code` is
 * typed by this table, so a code that is not here does not compile. The rows live in
 * src/error-codes/, one file per area, spread here in the order docs/errors.md lists them.
 */

import { SHARED_CODES } from './error-codes/shared';
import { MODEL_CODES } from './error-codes/model';
import { DURATION_CODES } from './error-codes/durations';
import { CLI_CODES } from './error-codes/cli';
import { CASSANDRA_CODES } from './error-codes/cassandra';
import { COSMOS_CODES } from './error-codes/cosmos';
import { MONGODB_CODES } from './error-codes/mongodb';
import { REDIS_CODES } from './error-codes/redis';
import { RELATIONAL_CODES } from './error-codes/relational';
import type { ErrorCodeSpec, ErrorFamily } from './error-code-spec';

export type { ErrorCodeSpec, ErrorFamily, ExitFamily } from './error-code-spec';

export const ERROR_CODE_TABLE = {
  ...SHARED_CODES,
  ...MODEL_CODES,
  ...DURATION_CODES,
  ...CLI_CODES,
  ...CASSANDRA_CODES,
  ...COSMOS_CODES,
  ...MONGODB_CODES,
  ...REDIS_CODES,
  ...RELATIONAL_CODES,
} as const satisfies Record<string, ErrorCodeSpec>;

export type ErrorCode = keyof typeof ERROR_CODE_TABLE;

/** The codes a given error class may carry. */
export type CodeOf<F extends ErrorFamily> = {
  [C in ErrorCode]: (typeof ERROR_CODE_TABLE)[C]['family'] extends F ? C : never;
}[ErrorCode];

/** The table row of a code read at run time (an error from another copy of lifespan, a driver). */
export function errorCodeSpec(code: unknown): ErrorCodeSpec | undefined {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODE_TABLE, code)
    ? ERROR_CODE_TABLE[code as ErrorCode]
    : undefined;
}

/**
 * Error codes that mean the same thing in every provider, so a program can handle them once.
 * Store-specific conditions keep their own prefixed codes (e.g. CASSANDRA_TTL_PAST_CEILING).
 * Each one's meaning is its row in ERROR_CODE_TABLE.
 */
export const ErrorCodes = {
  UNKNOWN_ENTITY: 'UNKNOWN_ENTITY',
  UNKNOWN_MEMBER: 'UNKNOWN_MEMBER',
  BAD_ARGUMENT: 'BAD_ARGUMENT',
  VALUE_INVALID: 'VALUE_INVALID',
  KEY_INCOMPLETE: 'KEY_INCOMPLETE',
  STORE_DUPLICATE_KEY: 'STORE_DUPLICATE_KEY',
  UOW_ALREADY_COMMITTED: 'UOW_ALREADY_COMMITTED',
  PLAN_DESTRUCTIVE_NOT_ALLOWED: 'PLAN_DESTRUCTIVE_NOT_ALLOWED',
  PLAN_CONFLICT: 'PLAN_CONFLICT',
  ENSURE_NEEDS_REVIEW: 'ENSURE_NEEDS_REVIEW',
  PLAN_RETROACTIVE_NOT_ALLOWED: 'PLAN_RETROACTIVE_NOT_ALLOWED',
  PLAN_UNEXPIRY_NOT_ALLOWED: 'PLAN_UNEXPIRY_NOT_ALLOWED',
  STORE_UNREACHABLE: 'STORE_UNREACHABLE',
  STORE_AUTH_FAILED: 'STORE_AUTH_FAILED',
  STORE_DATABASE_MISSING: 'STORE_DATABASE_MISSING',
  STORE_SQLITE_FOLDER_MISSING: 'STORE_SQLITE_FOLDER_MISSING',
  STORE_DRIVER_MISSING: 'STORE_DRIVER_MISSING',
  PURGE_INTERRUPTED: 'PURGE_INTERRUPTED',
  STORE_VERSION_CONFLICT: 'STORE_VERSION_CONFLICT',
  VERSION_NOT_DECLARED: 'VERSION_NOT_DECLARED',
  PATCH_MEMBER_REFUSED: 'PATCH_MEMBER_REFUSED',
  STORE_BAD_OPTION: 'STORE_BAD_OPTION',
  STORE_BAD_URL: 'STORE_BAD_URL',
  STORE_CONNECT_FAILED: 'STORE_CONNECT_FAILED',
  STORE_OPERATION_FAILED: 'STORE_OPERATION_FAILED',
  CURSOR_INVALID: 'CURSOR_INVALID',
  STORE_WRITE_CONTENDED: 'STORE_WRITE_CONTENDED',
} as const satisfies Record<string, ErrorCode>;
