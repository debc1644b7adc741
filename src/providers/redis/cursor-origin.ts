import type { IndexPosition } from './index-position';

/**
 * Which server process issued an index position's ZSCAN cursor (`o` of IndexPosition): its
 * `run_id` (INFO server), random per process, as the hash seed a ZSCAN cursor depends on is. A
 * cursor is only meaningful in the process that issued it: SCAN's guarantees hold for cursors
 * returned by the previous call (https://redis.io/docs/latest/commands/scan/), and resumed in
 * another process (after a restart, a failover to a replica, a slot moved to another node) it can
 * miss members, not only repeat them ("SCAN, SSCAN, HSCAN, and ZSCAN are not stable across
 * failovers", redis/redis#12440). So the walk's script reads its own run_id (INFO is allowed in
 * scripts, and connect() needs it already: store.ts) and, when the position names another
 * process, starts that index again at cursor 0 with its skip lists cleared: records may come
 * again, none present for the whole walk is missed. In the script the check is atomic with the
 * ZSCAN it guards; the script-less walk (server-index-walk.ts) sends INFO with its first ZSCAN, so
 * a reconnection to another process in the middle of one call could still run a later step's
 * ZSCAN there (the next page then starts over). Either way it costs no round trip (about 10 µs of the server per script, measured on
 * Redis 7.0), and no cache on the client can be stale (a proxy or a Sentinel-managed address
 * may hide a restart from the connection).
 *
 * A position at cursor 0 names no process: ZSCAN 0 starts the index anywhere, and the members it
 * skips there were handed out already. A position without `o` (made before, or on a server whose
 * INFO names no run_id) resumes as it did, unchecked.
 */

/**
 * Lua: `lifespan_origin(issued)`: this process's run_id ('' when INFO does not answer one) and
 * whether `issued` (a position's `o`, '' for none) names another process (or cannot be checked).
 */
export const ORIGIN_LUA = `
local function lifespan_origin(issued)
  local info = redis.pcall('INFO', 'server')
  local own = type(info) == 'string' and string.match(info, 'run_id:(%x+)') or ''
  if #own > 64 then own = '' end
  return own, issued ~= '' and issued ~= own
end
`;

/**
 * The script's reply fields 5 and 6 (after now, position and cut): the run_id of the process that
 * ran it, and 1 when it started the first index again because `start` named another process.
 * Then the walk's steps began at cursor 0 of `start`'s index, nothing skipped.
 */
export function originReply(reply: readonly unknown[], start: IndexPosition): { origin: string; begun: IndexPosition } {
  const origin = typeof reply[4] === 'string' ? reply[4] : '';
  return { origin, begun: Number(reply[5]) === 1 ? { z: start.z, c: '0', s: [] } : start };
}

/** Positions read from one script's reply, each naming the process that ran it (past cursor 0). */
export function stamped<S extends { readonly at: IndexPosition }>(
  walked: { steps: S[]; next: IndexPosition | undefined },
  origin: string,
): { steps: S[]; next: IndexPosition | undefined } {
  const stamp = (at: IndexPosition): IndexPosition => {
    const { o: _issued, ...rest } = at;
    return origin === '' || at.c === '0' ? rest : { ...rest, o: origin };
  };
  return {
    steps: walked.steps.map((step) => ({ ...step, at: stamp(step.at) })),
    next: walked.next === undefined ? undefined : stamp(walked.next),
  };
}

/** This process's run_id from an `INFO server` reply, as ORIGIN_LUA reads it ('' when there is none). */
export function runIdOf(info: unknown): string {
  const own = typeof info === 'string' ? (/run_id:([0-9a-fA-F]+)/.exec(info)?.[1] ?? '') : '';
  return own.length > 64 ? '' : own;
}

/** Whether a position issued by `issued` (its `o`) must start its index again on the process `own`. */
export function issuedElsewhere(issued: string | undefined, own: string): boolean {
  return issued !== undefined && issued !== '' && issued !== own;
}
