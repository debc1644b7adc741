import type { ResolvedWriteTtl, WriteTtlKind } from '../../model/per-write-ttl';
import type { KeyspaceMapping } from './compile';

/**
 * What one write does to the key's expiry, in Redis's terms: `ex` SET … EX n; `persist` SET
 * without options (clears the expiry); `keep` SET … KEEPTTL on a stored key, the default on a new
 * one; `extend` SET … KEEPTTL then EXPIRE … GT n on a stored key, EX n on a new one.
 */
export interface RedisTtl {
  readonly mode: 'ex' | 'persist' | 'keep' | 'extend';
  /** ex/extend: n; keep: the entity default for a new key (0: none). */
  readonly seconds: number;
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
};

function secondsOf(ttl: ResolvedWriteTtl): number {
  return 'seconds' in ttl ? ttl.seconds : 0;
}

export function redisTtl(mapping: KeyspaceMapping, ttl: ResolvedWriteTtl): RedisTtl {
  return BY_KIND[ttl.kind](ttl, mapping.defaultSeconds);
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
  return onNewKey.mode === 'persist'
    ? ['SET', key, value, 'NX']
    : ['SET', key, value, 'NX', 'EX', String(onNewKey.seconds)];
}

/** An upsert that needs no decision on the server (no keep/extend, no @CreatedAt to keep): one SET. */
export function plainUpsertCommand(key: string, value: string, ttl: RedisTtl): string[] | null {
  if (ttl.mode === 'ex') return ['SET', key, value, 'EX', String(ttl.seconds)];
  if (ttl.mode === 'persist') return ['SET', key, value];
  return null;
}

/** The script arguments of one write: op, mode, seconds, value, the @CreatedAt pattern ('' for none). */
export function scriptArgs(
  op: 'insert' | 'upsert' | 'delete',
  ttl: RedisTtl,
  value: string,
  createdAtPattern: string,
): string[] {
  return [op, ttl.mode, String(ttl.seconds), value, createdAtPattern];
}

/** Lua pattern of the stored @CreatedAt member (the first one of the JSON), '' when there is none. */
export function createdAtPattern(mapping: KeyspaceMapping): string {
  const member = mapping.entity.createdAt;
  const field = mapping.fields[0];
  if (member === null || field?.member !== member) return '';
  const name = JSON.stringify(field.storedName).replace(/[\^$()%.[\]*+\-?]/g, '%$&');
  return `^{${name}:"[^"]*"`;
}
