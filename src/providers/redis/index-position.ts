import { hash } from 'node:crypto';
import { SLOT_COUNT } from './slots';

/**
 * Where an index walk stands: the slot whose index it is in (0 on one server, whose one index
 * stands for every slot), that index's ZSCAN cursor, and the members of the step at that cursor
 * already handed out (after the collection's key prefix, as the SCAN walk's positions keep them).
 * Plain data, so a page cursor carries it.
 *
 * A step at cursor 0 is special: a small index (a listpack, up to zset-max-listpack-entries
 * members) returns all its members in that one step, and the step's cursor stays 0. Should the
 * index outgrow the listpack before the walk resumes, ZSCAN 0 of the hash table returns only some
 * of them, and the rest come in later steps. So the members handed out from a step at cursor 0
 * are skipped in every step of that index until its cursor comes back to 0: `s` of a position at
 * cursor 0, and `k` (carried) of the later positions in the same index. Both are bounded by one
 * step's members; should they make the cursor too long (MAX_SKIP_BYTES), `k` is dropped and those
 * records may come again, as ZSCAN allows.
 *
 * `s` and `k` hold digests of the members (memberDigest), not the members: a step of 100 members
 * of 2.5 KB keys would make a cursor longer than MAX_CURSOR_LENGTH, which findPage then refuses
 * as CURSOR_INVALID. `h: 1` says so in a cursor; a cursor made before (no `h`) holds the members,
 * and resumes: they are digested when it is read.
 *
 * `o`: the run_id of the server process that issued `c` (cursor-origin.ts); resumed in another,
 * the index is walked again from cursor 0.
 */
export interface IndexPosition {
  readonly z: number;
  readonly c: string;
  readonly s: readonly string[];
  readonly k?: readonly string[];
  readonly h?: 1;
  readonly o?: string;
}

/**
 * A member's digest, as the walk's script computes it: the first 16 hex digits of the SHA-1 of
 * the member after the collection's key prefix (redis.sha1hex,
 * https://redis.io/docs/latest/develop/interact/programmability/lua-api/#redis.sha1hex). Two
 * members of one step share one with odds of about 2^-64: the second would be skipped as handed out.
 */
export function memberDigest(rest: string): string {
  // crypto.hash (Node.js 20.12+): the one-shot form, without a Hash object per member, a third
  // of createHash's cost (https://nodejs.org/api/crypto.html#cryptohashalgorithm-data-outputencoding).
  return hash('sha1', rest, 'hex').slice(0, 16);
}

const DIGEST = /^[0-9a-f]{16}$/;

function digested(z: number, c: string, s: readonly string[], k?: readonly string[]): IndexPosition {
  const base = k === undefined ? { z, c, s } : { z, c, s, k };
  return s.length > 0 || (k?.length ?? 0) > 0 ? { ...base, h: 1 } : base;
}

/**
 * The skipped members one position holds at most, in bytes of JSON: the cursor stays well within
 * MAX_CURSOR_LENGTH (runtime/cursor.ts), whose base64 costs a third more.
 */
export const MAX_SKIP_BYTES = 128 * 1024;

/** The members skipped in every step of the position's index until its cursor comes back to 0. */
export function carriedOf(at: IndexPosition): readonly string[] {
  return at.c === '0' ? at.s : (at.k ?? []);
}

/** A position in the index of `at` at a later cursor, carrying what `at` carries. */
export function laterIn(at: IndexPosition, c: string): IndexPosition {
  const k = carriedOf(at);
  return k.length === 0 ? { z: at.z, c, s: [] } : digested(at.z, c, [], k);
}

/**
 * `at` with `handed` (members of its step handed out since, after the collection's key prefix)
 * skipped too; the carried members are dropped when the position would be longer than
 * MAX_SKIP_BYTES (they may then come again).
 */
export function cutAt(at: IndexPosition, handed: readonly string[]): IndexPosition {
  const s = [...at.s, ...handed.map(memberDigest)];
  if (at.k === undefined) return sameOrigin(at, digested(at.z, at.c, s));
  const bytes = Buffer.byteLength(JSON.stringify(s)) + Buffer.byteLength(JSON.stringify(at.k));
  return sameOrigin(at, bytes > MAX_SKIP_BYTES ? digested(at.z, at.c, s) : digested(at.z, at.c, s, at.k));
}

export const INDEX_START: IndexPosition = { z: 0, c: '0', s: [] };

/** A position read back from a page cursor, or undefined when it is not one (ZSCAN cursors are unsigned 64-bit). */
export function indexPositionOf(raw: unknown): IndexPosition | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { z, c, s, k, h } = raw as { z?: unknown; c?: unknown; s?: unknown; k?: unknown; h?: unknown };
  const o = originOf((raw as { o?: unknown }).o);
  if (o === null) return undefined;
  if (typeof z !== 'number' || !Number.isInteger(z) || z < 0 || z >= SLOT_COUNT) return undefined;
  if (typeof c !== 'string' || !/^\d{1,20}$/.test(c) || BigInt(c) >= 2n ** 64n) return undefined;
  if (h !== undefined && h !== 1) return undefined;
  const strings = (list: unknown): list is string[] =>
    Array.isArray(list) && list.every((m) => typeof m === 'string' && (h === undefined || DIGEST.test(m)));
  if (!strings(s) || (k !== undefined && !strings(k))) return undefined;
  // A cursor made before the digests holds the members themselves.
  const own = (list: string[]) => (h === undefined ? list.map(memberDigest) : list);
  const at = digested(z, c, own(s), k === undefined ? undefined : own(k));
  return o === undefined ? at : { ...at, o };
}

/** A run_id as Redis writes it (40 hex digits; a few more or fewer allowed for other servers). */
const RUN_ID = /^[0-9a-fA-F]{1,64}$/;

/** `o` read back from a page cursor: undefined (none), the origin, or null when it is not one. */
export function originOf(raw: unknown): string | undefined | null {
  if (raw === undefined) return undefined;
  return typeof raw === 'string' && RUN_ID.test(raw) ? raw : null;
}

/** `to` with the origin of `from` (a position cut in the same step keeps the process that issued its cursor). */
export function sameOrigin(from: IndexPosition, to: IndexPosition): IndexPosition {
  return from.o === undefined || to.c === '0' ? to : { ...to, o: from.o };
}
