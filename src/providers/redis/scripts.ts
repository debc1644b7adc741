import { createHash } from 'node:crypto';
import { call, operationFailed, type CallPlace, type RedisClientLike } from './gateway';
import { REINDEX_LUA } from './reindex-lua';

/**
 * Lua scripts lifespan runs where one write needs a decision on the server (KEEPTTL for a stored
 * key but the default for a new one, EXPIRE … GT after the SET) and for a unit of work. A script
 * runs atomically; the `#!lua` line makes Redis 7 refuse the whole script up front when it is over
 * maxmemory (deny-oom), so a script never stops half-way for lack of memory. Every value is
 * encoded and checked before the script is sent.
 */
export interface Script {
  readonly source: string;
  readonly sha: string;
}

export function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** Fields per operation in ARGV: op, ttl mode, seconds, value, createdAt pattern. */
export const OP_ARITY = 5;

/**
 * Writes a list of operations (KEYS[i], ARGV[i*5-4 … i*5]) in order, or nothing: first every
 * insert is checked against the keys as the earlier operations leave them, and the 1-based index
 * of the first insert of a live key is returned without writing; 0 when all was written.
 * The createdAt pattern (when given) keeps the stored @CreatedAt value of a key being overwritten:
 * it is the first member of the stored JSON. KEYS[n + i] is the collection index of KEYS[i]
 * (collection-index.ts), brought in step after each write.
 */
export const WRITE_SCRIPT = script(`#!lua
${REINDEX_LUA}
local n = #KEYS / 2
local live = {}
for i = 1, n do
  local key = KEYS[i]
  local op = ARGV[i * ${OP_ARITY} - 4]
  local present = live[key]
  if present == nil then present = redis.call('EXISTS', key) == 1 end
  if op == 'insert' and present then return i end
  live[key] = op ~= 'delete'
end
for i = 1, n do
  local key = KEYS[i]
  local base = i * ${OP_ARITY} - 4
  local op, mode, seconds, value, keep = ARGV[base], ARGV[base + 1], ARGV[base + 2], ARGV[base + 3], ARGV[base + 4]
  if op == 'delete' then
    redis.call('DEL', key)
  else
    local exists = redis.call('EXISTS', key) == 1
    if keep ~= '' and exists then
      local old = redis.pcall('GET', key)
      local stored = type(old) == 'string' and string.match(old, keep) or nil
      local given = string.match(value, keep)
      if stored and given then value = stored .. string.sub(value, #given + 1) end
    end
    if mode == 'ex' then
      redis.call('SET', key, value, 'EX', seconds)
    elseif mode == 'pxat' then
      redis.call('SET', key, value, 'PXAT', seconds)
    elseif mode == 'persist' then
      redis.call('SET', key, value)
    elseif exists then
      redis.call('SET', key, value, 'KEEPTTL')
      if mode == 'extend' then redis.call('EXPIRE', key, seconds, 'GT') end
    elseif seconds ~= '0' then
      redis.call('SET', key, value, 'EX', seconds)
    else
      redis.call('SET', key, value)
    end
  end
  lifespan_reindex(key, KEYS[n + i])
end
return 0
`);

/**
 * setTtl: 0 (and nothing done) when the key does not exist, else 1 after EXPIRE / PEXPIREAT /
 * PERSIST / EXPIRE … GT; KEYS[2] is the record's collection index.
 */
export const SET_TTL_SCRIPT = script(`#!lua
${REINDEX_LUA}
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local mode, seconds = ARGV[1], ARGV[2]
if mode == 'ex' then
  redis.call('EXPIRE', KEYS[1], seconds)
elseif mode == 'pxat' then
  redis.call('PEXPIREAT', KEYS[1], seconds)
elseif mode == 'persist' then
  redis.call('PERSIST', KEYS[1])
elseif mode == 'extend' then
  redis.call('EXPIRE', KEYS[1], seconds, 'GT')
end
lifespan_reindex(KEYS[1], KEYS[2])
return 1
`);

/** EVALSHA, and EVAL once when the server does not hold the script yet (a restart, SCRIPT FLUSH). */
export async function runScript(
  client: RedisClientLike,
  s: Script,
  keys: readonly string[],
  args: readonly string[],
  place: CallPlace,
): Promise<number> {
  return Number(await runScriptFor<unknown>(client, s, keys, args, place));
}

/**
 * runScript() for a script whose reply is not a number (an array, a string): the reply as Redis
 * sent it. `readOnly` sends EVALSHA_RO / EVAL_RO (Redis 7.0+) for a `no-writes` script, so no
 * WAIT for replicas follows it.
 */
export async function runScriptFor<T>(
  client: RedisClientLike,
  s: Script,
  keys: readonly string[],
  args: readonly string[],
  place: CallPlace,
  readOnly = false,
): Promise<T> {
  // One array, filled in place: every write sends a script.
  const command = new Array<string>(3 + keys.length + args.length);
  command[0] = readOnly ? 'EVALSHA_RO' : 'EVALSHA';
  command[1] = s.sha;
  command[2] = String(keys.length);
  for (let i = 0; i < keys.length; i++) command[3 + i] = keys[i] as string;
  for (let i = 0; i < args.length; i++) command[3 + keys.length + i] = args[i] as string;
  try {
    return (await client.sendCommand(command)) as T;
  } catch (error) {
    if (!/^NOSCRIPT/.test(error instanceof Error ? error.message : '')) throw operationFailed(error, place);
    return call<T>(client, [readOnly ? 'EVAL_RO' : 'EVAL', s.source, ...command.slice(2)], place);
  }
}
