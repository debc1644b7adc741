/**
 * What a row of the code table says of its code (src/error-codes.ts spreads the sections of
 * src/error-codes/ into one table). Its own file, so the sections and the table import it without importing
 * each other.
 */

/** The LifespanError subclass that carries a code; `ModelError` means a problem of a ModelError. */
export type ErrorFamily = 'LifespanError' | 'ModelError' | 'TtlError' | 'UnsupportedTtlError' | 'StoreError';

/** What a CLI run that ends with the code tells a script (see EXIT_CODE_HELP); `internal`: a defect in lifespan. */
export type ExitFamily = 'usage' | 'model' | 'store' | 'user-code' | 'internal';

export interface ErrorCodeSpec {
  readonly family: ErrorFamily;
  readonly exit: ExitFamily;
}
