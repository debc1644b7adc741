import { type CodeOf, ErrorCodes } from '../error-codes';
import { LifespanError, StoreError } from '../errors';
import type { ConnectionErrorPatterns, DriverFailure, FailurePattern } from './connection-patterns';

/** Node's own network failures, whatever the driver: the host is not there or does not answer. */
const UNREACHABLE_CODES = new Set<unknown>([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** The error and everything it wraps: `cause`, AggregateError's `errors`, cassandra-driver's `innerErrors`. */
function* chain(error: unknown, depth = 0): Generator<DriverFailure> {
  if (typeof error !== 'object' || error === null || depth > 5) return;
  const e = error as DriverFailure;
  yield e;
  yield* chain(e.cause, depth + 1);
  if (Array.isArray(e.errors)) for (const inner of e.errors) yield* chain(inner, depth + 1);
  if (typeof e.innerErrors === 'object' && e.innerErrors !== null) {
    for (const inner of Object.values(e.innerErrors)) yield* chain(inner, depth + 1);
  }
}

function text(e: DriverFailure): string {
  return typeof e.message === 'string' ? (e.message.split('\n').find((l) => l.trim() !== '') ?? '') : '';
}

/** The package a "Cannot find module 'pkg'" failure names (the package, not a file inside it). */
export function missingPackage(error: unknown): string | undefined {
  for (const e of chain(error)) {
    const named = /Cannot find module '([^']+)'/.exec(typeof e.message === 'string' ? e.message : '')?.[1];
    if (!named || named.startsWith('.') || named.startsWith('/')) continue;
    const parts = named.split('/');
    return named.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  }
  return undefined;
}

/**
 * A driver's connection failure as a typed StoreError with a stable code and a hint that says
 * what to check; undefined when the error is something else (then the caller keeps its own wrapping).
 * `patterns`: the stores' own (their descriptors' connectionErrors) the error is matched against.
 */
export function connectionError(
  error: unknown,
  store: string,
  target: string,
  patterns: readonly ConnectionErrorPatterns[],
): StoreError | undefined {
  const pkg = missingPackage(error);
  if (pkg) {
    return new StoreError(ErrorCodes.STORE_DRIVER_MISSING, `the driver package '${pkg}' is not installed`, {
      store,
      hint: `npm install ${pkg}`,
      cause: error,
    });
  }
  // Category by category over the whole chain, most specific first: cassandra-driver wraps an
  // AuthenticationError in a NoHostAvailableError, which alone would read as "unreachable".
  const errors = [...chain(error)];
  for (const category of categoriesOf(patterns)) {
    const e = errors.find((failure) => category.matches(failure));
    if (e) {
      return new StoreError(category.code, category.message(target, text(e) || String(e.code)), {
        store,
        hint: category.hint(e),
        cause: error,
      });
    }
  }
  return undefined;
}

interface Category {
  readonly code: CodeOf<'StoreError'>;
  matches(e: DriverFailure): boolean;
  message(target: string, detail: string): string;
  hint(e: DriverFailure): string;
}

function matchesPattern(e: DriverFailure, pattern: FailurePattern | undefined): boolean {
  if (!pattern) return false;
  const line = text(e);
  return (
    (pattern.codes ?? []).some((code) => code === e.code) ||
    (pattern.errnos ?? []).some((errno) => errno === e.errno) ||
    (pattern.names ?? []).some((name) => name === e.name) ||
    (pattern.messages ?? []).some((message) => message.test(line))
  );
}

/**
 * The categories, most specific first: a refused login, a missing database, the stores' own
 * failures, and last an unreachable server (the most generic reading of a chain).
 */
function categoriesOf(patterns: readonly ConnectionErrorPatterns[]): Category[] {
  const matching = (pick: (p: ConnectionErrorPatterns) => FailurePattern | undefined) => (e: DriverFailure) =>
    patterns.some((p) => matchesPattern(e, pick(p)));
  return [
    {
      code: ErrorCodes.STORE_AUTH_FAILED,
      matches: matching((p) => p.authFailed),
      message: (target, detail) => `${target} refused the credentials: ${detail}`,
      hint: () =>
        'check the user name and password (or key) of the connection, and that the user may log in from this host',
    },
    {
      code: ErrorCodes.STORE_DATABASE_MISSING,
      matches: matching((p) => p.databaseMissing),
      message: (target, detail) => `the database of ${target} does not exist: ${detail}`,
      hint: (e) =>
        patterns.find((p) => matchesPattern(e, p.databaseMissing))?.databaseMissing?.hint ??
        'create the database first, or check its name in the connection URL',
    },
    ...patterns.flatMap((p) =>
      (p.own ?? []).map((own) => ({
        code: own.code,
        matches: (e: DriverFailure) => matchesPattern(e, own),
        message: own.message,
        hint: () => own.hint,
      })),
    ),
    {
      code: ErrorCodes.STORE_UNREACHABLE,
      matches: (e) => UNREACHABLE_CODES.has(e.code) || patterns.some((p) => matchesPattern(e, p.unreachable)),
      message: (target, detail) => `cannot reach ${target}: ${detail}`,
      hint: () => 'check the host and port, that the server is running, and that no firewall is in the way',
    },
  ];
}

/**
 * A failure to connect, typed whatever the driver threw: its category when it has one, else
 * STORE_CONNECT_FAILED with the store and the driver's first line (a CLI run never ends in a raw
 * driver error, exit 70, because a driver failed in a way no category names).
 */
export function connectFailure(
  error: unknown,
  store: string,
  target: string,
  hint: string,
  patterns: readonly ConnectionErrorPatterns[],
): LifespanError {
  if (error instanceof LifespanError) return error;
  return (
    connectionError(error, store, target, patterns) ??
    new StoreError(
      ErrorCodes.STORE_CONNECT_FAILED,
      `cannot connect to ${target}: ${text(error as DriverFailure) || String(error)}`,
      {
        store,
        hint,
        cause: error,
      },
    )
  );
}

/** Runs a call that talks to the store, turning a connection failure into its typed StoreError. */
export async function mappingConnectionErrors<T>(
  store: string,
  target: string,
  call: () => Promise<T>,
  patterns: readonly ConnectionErrorPatterns[],
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof LifespanError && !(error.cause !== undefined && error instanceof StoreError)) throw error;
    throw connectionError(error, store, target, patterns) ?? error;
  }
}
