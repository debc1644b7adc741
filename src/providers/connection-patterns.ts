/**
 * The words a store's connection-errors.ts describes its drivers' connection failures in (plain
 * data; the matching is src/providers/connection-errors.ts). A leaf: it imports no store.
 */
import type { CodeOf } from '../error-codes';

/** The fields drivers put on their errors, as connection-error matching reads them. */
export interface DriverFailure {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly errno?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
  readonly innerErrors?: unknown;
}

/** How a driver's error of one kind looks: it matches when any one listed field does. */
export interface FailurePattern {
  /** Values of the error's `code` (a SQLSTATE, a driver's code name, a server's number). */
  readonly codes?: readonly (string | number)[];
  /** Values of the error's numeric `errno` (mysql2). */
  readonly errnos?: readonly number[];
  /** Values of the error's `name` (its class). */
  readonly names?: readonly string[];
  /** Tested against the first non-empty line of the error's message. */
  readonly messages?: readonly RegExp[];
}

/** A connection failure only this store has, with a code of its own (SQLite's missing folder). */
export interface OwnConnectionFailure extends FailurePattern {
  readonly code: CodeOf<'StoreError'>;
  message(target: string, detail: string): string;
  readonly hint: string;
}

/**
 * How the store's drivers report a failure to connect, by kind (the store-neutral matching in
 * src/providers/connection-errors.ts turns a match into a typed StoreError).
 */
export interface ConnectionErrorPatterns {
  readonly authFailed?: FailurePattern;
  /** `hint` replaces the general one where the store names its database its own way. */
  readonly databaseMissing?: FailurePattern & { readonly hint?: string };
  readonly unreachable?: FailurePattern;
  /** Checked after the kinds above and before `unreachable`. */
  readonly own?: readonly OwnConnectionFailure[];
}
