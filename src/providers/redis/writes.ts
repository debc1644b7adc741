import type { ResolvedWriteTtl, WriteTtlKind } from '../../model/per-write-ttl';
import { checkFutureInstant, clientClock } from '../../runtime/write-instant';
import type { KeyspaceMapping } from './compile';
import { STORE } from './semantics';

/**
 * What one write does to the key's expiry, in Redis's terms: `ex` SET … EX n; `persist` SET
 * without options (clears the expiry); `keep` SET … KEEPTTL on a stored key, the default on a new
 * one; `extend` SET … KEEPTTL then EXPIRE … GT n on a stored key, EX n on a new one; `pxat`
 * SET … PXAT ms (the instant itself, kept by Redis as absolute Unix milliseconds).
 */
export interface RedisTtl {
  readonly mode: 'ex' | 'persist' | 'keep' | 'extend' | 'pxat';
  /** ex/extend: n; keep: the entity default for a new key (0: none); pxat: 0 (see atMs). */
  readonly seconds: number;
  /** pxat: the expiry instant in Unix milliseconds. */
  readonly atMs?: number;
}

type Resolver = (ttl: ResolvedWriteTtl, defaultSeconds: number | null) => RedisTtl;

const DEFAULT_OR_PERSIST = (defaultSeconds: number | null): RedisTtl =>
  defaultSeconds === null ? { mode: 'persist', seconds: 0 } : { mode: 'ex', seconds: defaultSeconds };

const BY_KIND: Readonly<Record<WriteTtlKind, Resolver>> = {
  duration: (ttl) => ({ mode: 'ex', seconds: secondsOf(ttl) }),
  default: (_ttl, d) => DEFAULT_OR_PERSIST(d),
  never: () => ({ mode: 'persist', seconds: 0 }),
  keep: (_ttl, d) => ({ mode: 'keep', seconds: d ?? 0 }),
  extend: (ttl) => ({ mode: 'extend', seconds: secondsOf(ttl) }),
  at: (ttl) => ({ mode: 'pxat', seconds: 0, atMs: 'at' in ttl ? ttl.at.getTime() : 0 }),
};

function secondsOf(ttl: ResolvedWriteTtl): number {
  return 'seconds' in ttl ? ttl.seconds : 0;
}

export function redisTtl(mapping: KeyspaceMapping, ttl: ResolvedWriteTtl): RedisTtl {
  // PXAT with a past instant would store the value and expire it at once: refused before anything is sent.
  if (ttl.kind === 'at') checkFutureInstant(ttl, clientClock(), { entity: mapping.entity, store: STORE });
  return BY_KIND[ttl.kind](ttl, mapping.defaultSeconds);
}

/** The SET options of an expiry that needs no decision on the server ([] for none). */
function setOptions(ttl: RedisTtl): string[] {
  if (ttl.mode === 'pxat') return ['PXAT', String(ttl.atMs)];
  return ['EX', String(ttl.seconds)];
}

/** The number a script receives for the mode: the instant's milliseconds for pxat, else the seconds. */
export function amountOf(ttl: RedisTtl): string {
  return ttl.mode === 'pxat' ? String(ttl.atMs) : String(ttl.seconds);
}

/**
 * An insert finds no live key, so 'keep' and { extend: n } there are the default and EX n: one
 * `SET … NX [EX n]` does the whole write (null reply: the key is live, a duplicate).
 */
export function insertCommand(key: string, value: string, ttl: RedisTtl): string[] {
  const onNewKey: RedisTtl =
    ttl.mode === 'keep'
      ? ttl.seconds > 0
        ? { mode: 'ex', seconds: ttl.seconds }
        : { mode: 'persist', seconds: 0 }
      : ttl;
  return onNewKey.mode === 'persist' ? ['SET', key, value, 'NX'] : ['SET', key, value, 'NX', ...setOptions(onNewKey)];
}

/** An upsert that needs no decision on the server (no keep/extend, no @CreatedAt to keep): one SET. */
export function plainUpsertCommand(key: string, value: string, ttl: RedisTtl): string[] | null {
  if (ttl.mode === 'ex' || ttl.mode === 'pxat') return ['SET', key, value, ...setOptions(ttl)];
  if (ttl.mode === 'persist') return ['SET', key, value];
  return null;
}

/** The script arguments of one write: op, mode, seconds (pxat: the instant's ms), value, the @CreatedAt pattern ('' for none). */
export function scriptArgs(
  op: 'insert' | 'upsert' | 'delete',
  ttl: RedisTtl,
  value: string,
  createdAtPattern: string,
): string[] {
  return [op, ttl.mode, amountOf(ttl), value, createdAtPattern];
}

/** Lua pattern of the stored @CreatedAt member (the first one of the JSON), '' when there is none. */
export function createdAtPattern(mapping: KeyspaceMapping): string {
  const member = mapping.entity.createdAt;
  const field = mapping.fields[0];
  if (member === null || field?.member !== member) return '';
  const name = JSON.stringify(field.storedName).replace(/[\^$()%.[\]*+\-?]/g, '%$&');
  return `^{${name}:"[^"]*"`;
}
