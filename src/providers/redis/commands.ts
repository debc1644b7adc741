/**
 * What the gateway needs to know of a command it sends: the keys it touches (Redis Cluster routes
 * by them), whether its keys may be split into one command per slot, and whether it writes. Every
 * command lifespan sends names its first key right after the command name, except scripts (`EVAL
 * script numkeys key…`) and the server-wide commands listed here.
 */
export type CommandShape =
  /**
   * No key: a server-wide command, sent to one primary. On a cluster a SCAN sent so sees that
   * node's keys only: walks go through scanKeys (scan.ts), which visits every primary.
   */
  | { readonly kind: 'keyless' }
  /** One key (args[1]) and maybe more arguments. */
  | { readonly kind: 'keyed'; readonly keys: readonly string[] }
  /** Every argument after the name is a key; one command per slot, replies merged. */
  | { readonly kind: 'multi-key'; readonly keys: readonly string[]; readonly merge: 'list' | 'sum' }
  /** EVAL/EVALSHA/FCALL: numkeys keys after the script; every key must be in one slot. */
  | { readonly kind: 'script'; readonly keys: readonly string[] };

const KEYLESS = new Set(['INFO', 'PING', 'WAIT', 'SCRIPT', 'FUNCTION', 'CLUSTER', 'DBSIZE', 'TIME', 'SCAN', 'COMMAND']);
const SCRIPTS = new Set(['EVAL', 'EVALSHA', 'EVAL_RO', 'EVALSHA_RO', 'FCALL', 'FCALL_RO']);
const LIST_REPLY = new Set(['MGET']);
const SUM_REPLY = new Set(['DEL', 'UNLINK', 'EXISTS', 'TOUCH']);
/** Commands that never write: no WAIT after them. Anything else (scripts included) counts as a write. */
const READS = new Set([
  ...KEYLESS,
  'GET',
  'MGET',
  'EXISTS',
  'PTTL',
  'TTL',
  'EXPIRETIME',
  'PEXPIRETIME',
  'TYPE',
  'STRLEN',
  'HGET',
  'HMGET',
  'HGETALL',
  'HEXISTS',
  'ZSCAN',
  'ZSCORE',
  'ZCARD',
  'ZCOUNT',
  'ZRANGE',
  'ZRANK',
  'EVAL_RO',
  'EVALSHA_RO',
  'FCALL_RO',
]);

export function commandName(args: readonly string[]): string {
  return (args[0] ?? '').toUpperCase();
}

export function shapeOf(args: readonly string[]): CommandShape {
  const name = commandName(args);
  if (KEYLESS.has(name)) return { kind: 'keyless' };
  if (SCRIPTS.has(name)) {
    const count = Number(args[2] ?? 0);
    return { kind: 'script', keys: args.slice(3, 3 + count) };
  }
  if (LIST_REPLY.has(name)) return { kind: 'multi-key', keys: args.slice(1), merge: 'list' };
  if (SUM_REPLY.has(name)) return { kind: 'multi-key', keys: args.slice(1), merge: 'sum' };
  return { kind: 'keyed', keys: args.slice(1, 2) };
}

export function writes(args: readonly string[]): boolean {
  return !READS.has(commandName(args));
}
