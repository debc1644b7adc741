import { createHash } from 'node:crypto';
import type { CheckedTouch } from '../../runtime/touch';
import { call, operationFailed, type CallPlace, type RedisClientLike } from './gateway';
import { REINDEX_LUA } from './reindex-lua';

/**
 * A read that touches (issue 25), atomic on the server: GET, and when the key has less than the
 * threshold left, PEXPIRE … GT to now + touch (GT: never shortens; a key without expiry counts
 * as infinite, so it is left alone). KEYS[1], and KEYS[2] its collection index (brought in step
 * when the expiry moved); ARGV: touch ms, threshold ms. Returns the value or nil.
 */
const SOURCE = `#!lua
${REINDEX_LUA}
local v = redis.call('GET', KEYS[1])
if not v then return false end
local left = redis.call('PTTL', KEYS[1])
if left >= 0 and left < tonumber(ARGV[2]) and redis.call('PEXPIRE', KEYS[1], ARGV[1], 'GT') == 1 then
  lifespan_reindex(KEYS[1], KEYS[2])
end
return v
`;
const SHA = createHash('sha1').update(SOURCE).digest('hex');

/**
 * One script per key, sent together (node-redis pipelines them): the stored texts, null where
 * absent. `indexOf` names each key's collection index.
 */
export function readTouched(
  client: RedisClientLike,
  keys: readonly string[],
  indexOf: (key: string) => string,
  touch: CheckedTouch,
  place: CallPlace,
): Promise<Array<string | null>> {
  const args = [String(touch.seconds * 1000), String(Math.floor(touch.thresholdSeconds * 1000))];
  return Promise.all(keys.map((key) => touchOne(client, [key, indexOf(key)], args, place)));
}

async function touchOne(
  client: RedisClientLike,
  keys: readonly [string, string],
  args: string[],
  place: CallPlace,
): Promise<string | null> {
  const tail = ['2', ...keys, ...args];
  try {
    return (await client.sendCommand(['EVALSHA', SHA, ...tail])) as string | null;
  } catch (error) {
    if (!/^NOSCRIPT/.test(error instanceof Error ? error.message : '')) throw operationFailed(error, place);
    return call<string | null>(client, ['EVAL', SOURCE, ...tail], place);
  }
}
