import { type CodeOf, ErrorCodes } from '../error-codes';
import { LifespanError, StoreError } from '../errors';

/** Fields the drivers put on their errors (pg, mysql2, better-sqlite3, cassandra-driver, mongodb, @azure/cosmos). */
interface DriverFailure {
  readonly name?: unknown;
  readonly code?: unknown;
  readonly errno?: unknown;
  readonly message?: unknown;
  readonly cause?: unknown;
  readonly errors?: unknown;
  readonly innerErrors?: unknown;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** pg 28P01/28000, mysql2 1045/1044, MongoDB 18, Cosmos DB HTTP 401. */
const AUTH_CODES = new Set<unknown>(['28P01', '28000', 'ER_ACCESS_DENIED_ERROR', 'ER_DBACCESS_DENIED_ERROR', 18, 401]);
/** pg 3D000 (database does not exist), mysql2 ER_BAD_DB_ERROR (1049). */
const MISSING_DATABASE_CODES = new Set<unknown>(['3D000', 'ER_BAD_DB_ERROR']);

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
 */
export function connectionError(error: unknown, store: string, target: string): StoreError | undefined {
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
  for (const category of CATEGORIES) {
    const e = errors.find(category.matches);
    if (e) {
      return new StoreError(category.code, category.message(target, text(e) || String(e.code)), {
        store,
        hint: category.hint,
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
  readonly hint: string;
}

const CATEGORIES: readonly Category[] = [
  {
    code: ErrorCodes.STORE_AUTH_FAILED,
    matches: (e) =>
      AUTH_CODES.has(e.code) ||
      e.errno === 1045 ||
      e.name === 'AuthenticationError' ||
      /authentication failed|^WRONGPASS|^NOAUTH/i.test(text(e)),
    message: (target, detail) => `${target} refused the credentials: ${detail}`,
    hint: 'check the user name and password (or key) of the connection, and that the user may log in from this host',
  },
  {
    code: ErrorCodes.STORE_DATABASE_MISSING,
    // Redis answers SELECT of a database past its `databases` setting with this error.
    matches: (e) =>
      MISSING_DATABASE_CODES.has(e.code) || e.errno === 1049 || /^ERR DB index is out of range/.test(text(e)),
    message: (target, detail) => `the database of ${target} does not exist: ${detail}`,
    hint: "create the database first, or check its name in the connection URL (Redis: a number below the server's `databases` setting)",
  },
  {
    code: ErrorCodes.STORE_SQLITE_FOLDER_MISSING,
    matches: (e) => /directory does not exist/i.test(text(e)) || e.code === 'SQLITE_CANTOPEN',
    message: (target, detail) => `cannot open the SQLite file of ${target}: ${detail}`,
    hint: 'create the folder first: SQLite creates the database file, but never its folder',
  },
  {
    code: ErrorCodes.STORE_UNREACHABLE,
    matches: (e) =>
      UNREACHABLE_CODES.has(e.code as string) ||
      e.name === 'NoHostAvailableError' ||
      e.name === 'MongoServerSelectionError' ||
      e.name === 'KnexTimeoutError',
    message: (target, detail) => `cannot reach ${target}: ${detail}`,
    hint: 'check the host and port, that the server is running, and that no firewall is in the way',
  },
];

/**
 * A failure to connect, typed whatever the driver threw: its category when it has one, else
 * STORE_CONNECT_FAILED with the store and the driver's first line (a CLI run never ends in a raw
 * driver error, exit 70, because a driver failed in a way no category names).
 */
export function connectFailure(error: unknown, store: string, target: string, hint: string): LifespanError {
  if (error instanceof LifespanError) return error;
  return (
    connectionError(error, store, target) ??
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
export async function mappingConnectionErrors<T>(store: string, target: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof LifespanError && !(error.cause !== undefined && error instanceof StoreError)) throw error;
    throw connectionError(error, store, target) ?? error;
  }
}
