/**
 * The Lua helper every record-writing script includes (see collection-index.ts).
 *
 * Lua: brings index `idx` in step with record `key` after a write (PEXPIRETIME: -2 no
 * key, -1 no expiry), drops members already past their expiry (Redis expires a key once its
 * instant has passed) and sets the index's own expiry to its latest member's.
 */
export const REINDEX_LUA = `
local function lifespan_reindex(key, idx)
  local at = redis.call('PEXPIRETIME', key)
  if at == -2 then
    redis.call('ZREM', idx, key)
  elseif at == -1 then
    redis.call('ZADD', idx, '+inf', key)
  else
    redis.call('ZADD', idx, at, key)
  end
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  redis.call('ZREMRANGEBYSCORE', idx, '-inf', '(' .. string.format('%d', now))
  local last = redis.call('ZRANGE', idx, -1, -1, 'WITHSCORES')
  if #last == 0 then return end
  if last[2] == 'inf' then redis.call('PERSIST', idx) else redis.call('PEXPIREAT', idx, last[2]) end
end
`;
