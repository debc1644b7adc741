import { mapBounded, sumBounded } from '../../runtime/bounded';
import { runDeleteMany, type DeleteManyRequest } from '../../runtime/delete-many';
import { indexKeyOf, indexLayout } from './collection-index';
import { keepMatch, placeOf, walkFrom, type Match, type Position, type RedisPages } from './pages';
import { REINDEX_LUA } from './reindex-lua';
import { runScript, runScriptFor, script } from './scripts';

/** A key's value and absolute expiry (PEXPIRETIME, Redis 7.0+) read together. */
const READ_BOTH = script(`#!lua flags=no-writes
return { redis.call('GET', KEYS[1]), redis.call('PEXPIRETIME', KEYS[1]) }`);

/**
 * Deletes the key only while it holds the value and expiry deleteMany selected: a rewrite survives.
 * KEYS[2]: its collection index, which loses the member in the same script.
 */
const DELETE_IF_SAME = script(`#!lua
${REINDEX_LUA}
if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('PEXPIRETIME', KEYS[1]) == tonumber(ARGV[2]) then
  local n = redis.call('DEL', KEYS[1])
  lifespan_reindex(KEYS[1], KEYS[2])
  return n
end
return 0`);

/**
 * Keys one deleteMany() remembers having handled (deleted, or spared as rewritten), so that the
 * walk (SCAN, ZSCAN) handing one out again later in the walk neither deletes a record re-created after its deletion
 * nor one spared as rewritten. Beyond this many the oldest are forgotten: memory stays bounded,
 * and a key SCAN repeats after that many others may be deleted as a fresh match.
 */
export const MAX_REMEMBERED_KEYS = 100_000;

/** A set of at most `max` keys that forgets the oldest first. */
function boundedKeys(max: number) {
  const keys = new Set<string>();
  return {
    has: (key: string) => keys.has(key),
    add(key: string) {
      keys.add(key);
      if (keys.size > max) keys.delete(keys.values().next().value as string);
    },
  };
}

/**
 * deleteMany(): the walk of findPage (the index walk reads each value and expiry in its script;
 * the SCAN walk with one script per key), each matching key deleted by a script that first checks
 * the value and expiry are still the ones selected, at most MAX_IN_FLIGHT keys at once. One
 * script per key: each call names a single key, so on a cluster it goes to that key's node.
 */
export function redisDeleteMany(p: RedisPages, req: DeleteManyRequest): Promise<number> {
  const place = placeOf(p, 'deleteMany');
  const readBoth = (keys: string[]) =>
    mapBounded(keys, async (key) => {
      const [text, at] = await runScriptFor<[string | null, number]>(p.client, READ_BOTH, [key], [], place);
      return text === null || text === undefined ? null : { key, text, expiresAt: String(at) };
    });
  const handled = boundedKeys(MAX_REMEMBERED_KEYS);
  const layout = indexLayout(p.client, p.prefix);
  return runDeleteMany<Match, Position>(
    {
      async select(after, size) {
        const { matched, next } = await walkFrom(p, req.where, after, size, 'both', readBoth, keepMatch);
        return { picked: matched.filter((m) => !handled.has(m.key)), next };
      },
      remove: (picked) =>
        sumBounded(picked, async (m) => {
          const done = await runScript(
            p.client,
            DELETE_IF_SAME,
            [m.key, indexKeyOf(layout, p.mapping, m.key)],
            [m.text, m.expiresAt ?? '-1'],
            place,
          );
          handled.add(m.key);
          return done;
        }),
    },
    req,
  );
}
