import { ErrorCodes } from '../../../error-codes';
import { LifespanError } from '../../../errors';
import { formatDuration, MAX_TTL_SECONDS, parseDuration } from '../../../model/duration';
import type { ResolvedWriteTtl } from '../../../model/per-write-ttl';
import { checkFutureInstant, memberInstant, type AtTtl } from '../../../runtime/write-instant';
import { unsupported, writeTtlFor } from '../../../runtime/write-ttl';
import { checkInstantRange } from './expiry-instant';
import type { PerWriteTtl } from '../../../model/per-write-ttl';
import type { EntityTable } from '../table/entity-table';
import { RELATIONAL_STORE } from '../options';
import type { ConflictRule, WriteExpiry } from './write-expiry';

/** setTtl on an anchored default: the stored anchor + seconds, computed by the UPDATE itself. */
export interface StoredAnchorExpiry {
  readonly source: 'anchorPlus';
  readonly rule: DefaultRule;
  readonly seconds: number;
  readonly member: string;
}

/**
 * Where an anchored default counts from: the member values being written, or (setTtl) the row as
 * stored. The one thing writes and setTtl resolve differently.
 */
export type AnchorOf<A> = (member: string, seconds: number, rule: DefaultRule) => WriteExpiry | A;

/** The rules a default expiry is written with ('extend' always counts from now). */
type DefaultRule = Exclude<ConflictRule, 'extend'>;

/** A write whose anchored expiry is not after now: refused, since no read would ever return the row. */
export const ALREADY_EXPIRED = 'RELATIONAL_TTL_ALREADY_EXPIRED';

/**
 * Resolves a per-write TTL for an entity: checks the declaration (without perWrite: only the
 * default, as on every store), and in 'ignore' mode refuses what would need an expiry the table does not keep.
 */
export function resolveTtl(t: EntityTable, requested: PerWriteTtl | undefined): ResolvedWriteTtl {
  if (requested === undefined) return DEFAULT_TTL;
  const ttl = writeTtlFor(t.entity, requested, RELATIONAL_STORE);
  if (!t.expiryColumn && (ttl.kind === 'duration' || ttl.kind === 'extend' || ttl.kind === 'at')) {
    throw unsupported(
      t.entity,
      RELATIONAL_STORE,
      ttl,
      `the store runs with ttl: '${t.mode}', so rows keep no expiry`,
      "create the RelationalStore with ttl: 'emulate' to give rows their own lifetime",
    );
  }
  return ttl;
}

const DEFAULT_TTL: ResolvedWriteTtl = Object.freeze({ kind: 'default' });

/**
 * The expiry of an insert or upsert of `values`, resolved once: the per-write TTL checked (the
 * declaration, the table's mode) and resolved against the table's default; null when the table
 * keeps no expiry. The one entry of the write path.
 */
export function expiryOfWrite(
  t: EntityTable,
  requested: PerWriteTtl | undefined,
  values: Record<string, unknown>,
): WriteExpiry | null {
  const seconds = perWriteSeconds(t, requested, values);
  if (seconds !== null) return fromNow(t, seconds, 'replace');
  const ttl = resolveTtl(t, requested);
  return t.expiryColumn ? writeExpiry(t, ttl, values) : null;
}

/**
 * Seconds as a number, the per-write TTL of most writes (now + n, rule 'replace'): checked as
 * resolveTtl and writeExpiry check it (the same checks, in the same order), without a resolved
 * object in between; null for any other TTL, which expiryOfWrite resolves.
 */
export function perWriteSeconds(
  t: EntityTable,
  requested: PerWriteTtl | undefined,
  values: Record<string, unknown>,
): number | null {
  if (typeof requested !== 'number' || !t.expiryColumn || !t.entity.ttl?.perWrite) return null;
  // A whole number of seconds in range is what parseDuration returns it as (no call for most
  // writes); anything else gets its typed refusal from there.
  const seconds =
    Number.isInteger(requested) && requested > 0 && requested <= MAX_TTL_SECONDS ? requested : parseDuration(requested);
  if (t.countsFrom !== null) checkAnchorPlaceholder(t, values);
  return seconds;
}

/**
 * The expiry a per-write TTL gives a row, for writes and setTtl alike: now + n, never, the later
 * of the stored expiry and now + n (rule 'extend'), the stored expiry (rule 'keep'), or the
 * entity default — counted from where `anchored` says for a default anchored on a member.
 */
export function resolveExpiry<A>(t: EntityTable, ttl: ResolvedWriteTtl, anchored: AnchorOf<A>): WriteExpiry | A {
  switch (ttl.kind) {
    case 'duration':
      return fromNow(t, ttl.seconds, 'replace');
    case 'never':
      return NEVER;
    case 'extend':
      return fromNow(t, ttl.seconds, 'extend');
    case 'keep':
      return byDefault(t, 'keep', anchored);
    case 'default':
      return byDefault(t, 'replace', anchored);
    case 'at':
      return atInstant(t, ttl);
  }
}

const NEVER: WriteExpiry = Object.freeze({ source: 'value', value: null, rule: 'replace' });

/** A write's expiry: `values` are the member values written (an anchored TTL reads its anchor member). */
export function writeExpiry(t: EntityTable, requested: ResolvedWriteTtl, values: Record<string, unknown>): WriteExpiry {
  checkAnchorPlaceholder(t, values);
  // @ExpiresAt: the default is the member's instant (expires_at = the member), or never for null.
  const ttl =
    requested.kind === 'default' ? (memberInstant(t.entity, RELATIONAL_STORE, values) ?? requested) : requested;
  return resolveExpiry(t, ttl, (member, seconds, rule) => fromWrittenAnchor(t, values, member, seconds, rule));
}

/** setTtl's expiry: an anchored default counts from the stored anchor. */
export function storedRowExpiry(t: EntityTable, ttl: ResolvedWriteTtl): WriteExpiry | StoredAnchorExpiry {
  return resolveExpiry(t, ttl, (member, seconds, rule): StoredAnchorExpiry => ({
    source: 'anchorPlus',
    seconds,
    member,
    rule,
  }));
}

function fromNow(t: EntityTable, seconds: number, rule: ConflictRule): WriteExpiry {
  if (t.nowMode === 'db') return { source: 'nowPlus', seconds, rule };
  return { source: 'value', value: t.encodeInstant(new Date(t.clockNow().getTime() + seconds * 1000)), rule };
}

/**
 * `{ at }`: expires_at is the instant itself, exact. Judged to be in the future by the clock anchored
 * expiries are judged with (the injected one, or this process's: reads judge by the database clock).
 */
function atInstant(t: EntityTable, at: AtTtl): WriteExpiry {
  const clock =
    t.nowMode === 'param'
      ? { nowMs: t.clockNow().getTime(), name: 'the injected clock' }
      : { nowMs: Date.now(), name: "this process's clock" };
  const place = { entity: t.entity, store: RELATIONAL_STORE };
  checkFutureInstant(at, clock, place);
  checkInstantRange(at.at, place);
  return { source: 'value', value: t.encodeInstant(at.at), rule: 'replace' };
}

/** The table's default: now + TTL, anchor member + TTL, or never (no default declared). */
function byDefault<A>(t: EntityTable, rule: DefaultRule, anchored: AnchorOf<A>): WriteExpiry | A {
  const declared = t.defaultTtl;
  if (declared === null) return rule === 'replace' ? NEVER : { source: 'value', value: null, rule };
  const { seconds, anchor } = declared;
  if (anchor.kind === 'member') return anchored(anchor.member, seconds, rule);
  // The common case, a plain write on the database clock, needs no new object.
  if (rule === 'replace' && t.nowMode === 'db') return plainExpiry(seconds);
  return fromNow(t, seconds, rule);
}

/** now + seconds on the database clock, one frozen object per TTL (a table's default is one TTL). */
const PLAIN = new Map<number, WriteExpiry>();
function plainExpiry(seconds: number): WriteExpiry {
  let expiry = PLAIN.get(seconds);
  if (!expiry) {
    expiry = Object.freeze({ source: 'nowPlus', seconds, rule: 'replace' });
    PLAIN.set(seconds, expiry);
  }
  return expiry;
}

function fromWrittenAnchor(
  t: EntityTable,
  values: Record<string, unknown>,
  member: string,
  seconds: number,
  rule: DefaultRule,
): WriteExpiry {
  const anchor = values[member];
  // A null anchor (only a nullable member gets here: the codec refused it otherwise) never expires.
  if (!(anchor instanceof Date)) return { source: 'value', value: null, rule };
  const expiry = new Date(anchor.getTime() + seconds * 1000);
  // Judged by the client clock (or the injected one): reads judge by the database clock, so a
  // row due within the clock skew still passes — documented as a limit.
  const now = t.nowMode === 'param' ? t.clockNow() : new Date();
  if (expiry.getTime() <= now.getTime()) throw alreadyExpired(t, member, anchor, seconds, now);
  return { source: 'value', value: t.encodeInstant(expiry), rule };
}

/**
 * `new Date(0)` in the member the TTL counts from is the unset initialiser of the class, not a
 * time: counted from, it would make the row expire at once (or, via setTtl('default'), later).
 */
function checkAnchorPlaceholder(t: EntityTable, values: Record<string, unknown>): void {
  const member = t.countsFrom;
  if (member === null) return;
  const value = values[member];
  if (!(value instanceof Date) || value.getTime() !== 0) return;
  throw new LifespanError(
    ErrorCodes.VALUE_INVALID,
    `${member} is new Date(0), the unset placeholder, and the TTL counts from it: the row would be expired at once`,
    {
      entity: t.entity.name,
      member,
      store: RELATIONAL_STORE,
      hint: `set ${member} (e.g. to new Date()) before writing`,
    },
  );
}

function alreadyExpired(t: EntityTable, member: string, anchor: Date, seconds: number, now: Date): LifespanError {
  const ttl = formatDuration(seconds);
  return new LifespanError(
    ALREADY_EXPIRED,
    `${member} (${anchor.toISOString()}) + ${ttl} is not after now (${now.toISOString()}): the row would be expired on arrival and no read would return it`,
    {
      entity: t.entity.name,
      member,
      store: RELATIONAL_STORE,
      hint: `write a more recent ${member}, or give the write its own TTL (e.g. { ttl: '${ttl}' } counts from now)`,
    },
  );
}
