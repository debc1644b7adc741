import { createHash } from 'node:crypto';
import { ErrorCodes } from '../error-codes';
import { LifespanError, type ErrorPlace } from '../errors';
import { showValue } from '../model/show-value';

/**
 * findPage()'s cursor, the same envelope on every store: base64url JSON naming the store, entity,
 * collection and a fingerprint of the filter, around the store's own position (a key, a paging
 * state, a continuation token, a SCAN cursor), followed by a digest of all of it. The digest
 * catches a changed or truncated cursor; it is not a secret: a crafted cursor can only move where
 * the walk resumes, because the filter always comes from the caller, never from the cursor.
 */

const PREFIX = 'lsc1.';
const DOMAIN = 'lifespan findPage cursor v1';

/**
 * The longest cursor decoded: well above any position a store hands out (a paging state after a
 * 64 KB key, a continuation token within its limit), so a longer string is no
 * cursor of a page and is refused before anything is hashed or parsed.
 */
export const MAX_CURSOR_LENGTH = 262_144;

/** What a cursor is checked against: the call that is handed it. */
export interface CursorScope {
  readonly store: string;
  readonly entity: string;
  readonly collection: string;
  readonly where: Readonly<Record<string, unknown>>;
}

interface Envelope {
  readonly s: string;
  readonly e: string;
  readonly c: string;
  readonly f: string;
  readonly p: unknown;
}

export function encodeCursor(scope: CursorScope, position: unknown): string {
  const envelope: Envelope = {
    s: scope.store,
    e: scope.entity,
    c: scope.collection,
    f: filterFingerprint(scope.where),
    p: toJsonValue(position),
  };
  const body = Buffer.from(JSON.stringify(envelope), 'utf8').toString('base64url');
  return `${PREFIX}${body}.${digest(body)}`;
}

/** The position inside a cursor made by findPage() for this same scope; anything else is CURSOR_INVALID. */
export function decodeCursor(cursor: unknown, scope: CursorScope): unknown {
  const place = { entity: scope.entity, store: scope.store };
  if (typeof cursor !== 'string') {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `findPage() got cursor ${showValue(cursor)}, not a string`, {
      ...place,
      hint: 'pass the cursor string the previous page returned, or leave cursor out for the first page',
    });
  }
  if (cursor.length > MAX_CURSOR_LENGTH) {
    throw invalidCursor(
      `is longer than ${MAX_CURSOR_LENGTH} characters: it is not a cursor returned by findPage()`,
      place,
    );
  }
  const envelope = parseEnvelope(cursor, place);
  // The envelope's names are shown as values: a crafted one may be long or hold control characters.
  const made = `${shown(envelope.s)} entity ${shown(envelope.e)} (${shown(envelope.c)})`;
  if (envelope.s !== scope.store || envelope.e !== scope.entity || envelope.c !== scope.collection) {
    throw invalidCursor(`was made by findPage() on ${made}, not ${scope.store} entity ${scope.entity}`, place);
  }
  if (envelope.f !== filterFingerprint(scope.where)) {
    throw invalidCursor('was made for another filter', place, 'pass the same filter on every page of one walk');
  }
  return fromJsonValue(envelope.p);
}

/** A name as the message shows it: a plain one as it is, anything else quoted and cut by showValue. */
function shown(name: string): string {
  return /^[\w.:-]{1,100}$/.test(name) ? name : showValue(name);
}

/** A position the store cannot resume from (the envelope was sound): the store says what it expected. */
export function invalidCursor(why: string, place: ErrorPlace, hint?: string): LifespanError {
  return new LifespanError(ErrorCodes.CURSOR_INVALID, `findPage() cursor ${why}`, {
    ...place,
    hint:
      hint ??
      'pass the cursor exactly as the previous page of this same call returned it, or leave it out to start over',
  });
}

function parseEnvelope(cursor: string, place: ErrorPlace): Envelope {
  const garbage = () => invalidCursor('is not a cursor returned by findPage()', place);
  if (!cursor.startsWith(PREFIX)) throw garbage();
  const rest = cursor.slice(PREFIX.length);
  const dot = rest.lastIndexOf('.');
  if (dot <= 0) throw garbage();
  const body = rest.slice(0, dot);
  if (!/^[A-Za-z0-9_-]+$/.test(body)) throw garbage();
  if (rest.slice(dot + 1) !== digest(body)) throw invalidCursor('was changed after findPage() returned it', place);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw garbage();
  }
  const e = parsed as Partial<Envelope> | null;
  if (
    typeof e !== 'object' ||
    e === null ||
    typeof e.s !== 'string' ||
    typeof e.e !== 'string' ||
    typeof e.c !== 'string' ||
    typeof e.f !== 'string' ||
    !('p' in e)
  ) {
    throw garbage();
  }
  return e as Envelope;
}

function digest(body: string): string {
  return createHash('sha256').update(DOMAIN).update('\u0000').update(body).digest('base64url').slice(0, 22);
}

/** The filter as the caller gave it (undefined members dropped, member order ignored), hashed. */
function filterFingerprint(where: Readonly<Record<string, unknown>>): string {
  const entries = Object.entries(where)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => [k, toJsonValue(v)]);
  return createHash('sha256').update(JSON.stringify(entries)).digest('base64url').slice(0, 16);
}

/**
 * Values a position or filter may hold, in JSON: bigint, Date and bytes tagged so they come back
 * as themselves (a key member of each type resumes exactly).
 */
export function toJsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return { $n: value.toString() };
  if (value instanceof Date) return { $d: value.getTime() };
  if (value instanceof Uint8Array) return { $b: Buffer.from(value).toString('base64') };
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (typeof value === 'object' && value !== null) {
    return { $o: Object.entries(value).map(([k, v]) => [k, toJsonValue(v)]) };
  }
  return value;
}

export function fromJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromJsonValue);
  if (typeof value !== 'object' || value === null) return value;
  const tagged = value as { $n?: unknown; $d?: unknown; $b?: unknown; $o?: unknown };
  if (typeof tagged.$n === 'string' && /^-?\d+$/.test(tagged.$n)) return BigInt(tagged.$n);
  if (typeof tagged.$d === 'number') return new Date(tagged.$d);
  if (typeof tagged.$b === 'string') return Buffer.from(tagged.$b, 'base64');
  if (Array.isArray(tagged.$o)) {
    const pairs = tagged.$o.filter((p): p is [string, unknown] => Array.isArray(p) && typeof p[0] === 'string');
    return Object.fromEntries(pairs.map(([k, v]) => [k, fromJsonValue(v)]));
  }
  // Not a shape this module writes: left for the store's own position check to refuse.
  return value;
}

/**
 * A read that resumes from a cursor's position: when the store refuses that position (`refused`
 * tells its refusal from any other failure), the caller gets CURSOR_INVALID, not a store failure.
 * A read from the start, or any other failure, passes through as it is.
 */
export async function resumeFrom<R>(
  resuming: boolean,
  read: () => Promise<R>,
  refused: (error: unknown) => boolean,
  what: string,
  place: ErrorPlace,
): Promise<R> {
  try {
    return await read();
  } catch (error) {
    if (resuming && refused(error)) throw invalidCursor(`holds ${what} the store refused`, place);
    throw error;
  }
}

/** The message of an error or of its cause (drivers' errors arrive wrapped in a StoreError). */
export function causeMessages(error: unknown): string {
  const texts: string[] = [];
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; depth++) {
    texts.push(e.message);
    e = (e as { cause?: unknown }).cause;
  }
  return texts.join('\n');
}
