import { REINDEX_LUA } from './reindex-lua';
import { script } from './scripts';

/**
 * The scripts of update() / delete({ ifVersion }) and patch(): the check and the write in one
 * script, so no other command runs between them (Redis runs a script atomically). An expired key
 * is absent to GET inside a script as everywhere (version 0). KEYS[2] of each is the record's
 * collection index (collection-index.ts), brought in step with the write.
 */

/** A record stored before @Version has none (absent, or JSON null): it counts as version 0. */
const STORED_VERSION = `
local function stored_version(value)
  if type(value) == 'number' then return value end
  return 0
end
`;

/** The SET of a write whose key holds a record (mode as RedisTtl: ex, persist, keep, extend). */
const SET_OVER_STORED = `
local function set_over_stored(key, value, mode, seconds)
  if mode == 'ex' then
    redis.call('SET', key, value, 'EX', seconds)
  elseif mode == 'persist' then
    redis.call('SET', key, value)
  else
    redis.call('SET', key, value, 'KEEPTTL')
    if mode == 'extend' then redis.call('EXPIRE', key, seconds, 'GT') end
  end
end
`;

/**
 * update(): ARGV version field, expected version, new value, ttl mode, seconds, @CreatedAt
 * pattern. 1 when written; 0 (nothing written) when the key is absent or holds another version.
 */
export const VERSIONED_SET_SCRIPT = script(`#!lua
${REINDEX_LUA}
${STORED_VERSION}
${SET_OVER_STORED}
local old = redis.call('GET', KEYS[1])
if not old then return 0 end
local ok, doc = pcall(cjson.decode, old)
if not ok or type(doc) ~= 'table' or stored_version(doc[ARGV[1]]) ~= tonumber(ARGV[2]) then return 0 end
local value, keep = ARGV[3], ARGV[6]
if keep ~= '' then
  local stored = string.match(old, keep)
  local given = string.match(value, keep)
  if stored and given then value = stored .. string.sub(value, #given + 1) end
end
set_over_stored(KEYS[1], value, ARGV[4], ARGV[5])
lifespan_reindex(KEYS[1], KEYS[2])
return 1
`);

/** delete({ ifVersion }): ARGV version field, version. 1 deleted; 0 absent or another version. */
export const VERSIONED_DELETE_SCRIPT = script(`#!lua
${REINDEX_LUA}
${STORED_VERSION}
local old = redis.call('GET', KEYS[1])
if not old then return 0 end
local ok, doc = pcall(cjson.decode, old)
if not ok or type(doc) ~= 'table' or stored_version(doc[ARGV[1]]) ~= tonumber(ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1])
lifespan_reindex(KEYS[1], KEYS[2])
return 1
`);

/**
 * patch(): ARGV the value read, the patched value, ttl mode, seconds. 1 when written; 0 when the
 * key is gone; -1 when it changed since it was read (the caller reads again).
 */
export const COMPARE_AND_SET_SCRIPT = script(`#!lua
${REINDEX_LUA}
${SET_OVER_STORED}
local old = redis.call('GET', KEYS[1])
if not old then return 0 end
if old ~= ARGV[1] then return -1 end
set_over_stored(KEYS[1], ARGV[2], ARGV[3], ARGV[4])
lifespan_reindex(KEYS[1], KEYS[2])
return 1
`);
