/**
 * The Lua helper every record-writing script includes (see collection-index.ts).
 *
 * Lua: brings index `idx` in step with record `key` after a write (PEXPIRETIME: -2 no key, -1 no
 * expiry). Then a bounded prune: at most PRUNE_STEP members already past their score are each
 * checked against their key: dropped when it is gone, re-scored when it is live (its expiry was
 * changed outside lifespan: EXPIRE / PERSIST by hand, an older writer), so a write never costs more
 * than a few commands however many members fell due, and never drops a live record. The index
 * key's own expiry only moves when it must: PERSIST once a member is +inf, PEXPIREAT (rounded up
 * to the next minute, so the writes of that minute leave it alone) when a member outlives it.
 * A persistent index whose latest member is not +inf any more (deleted, re-scored) gets that
 * member's expiry back; a +inf member whose key is gone (deleted outside lifespan) is dropped
 * there, one per write (one server only, see below). The member '' at -inf marks an index built complete (index-marker.ts):
 * no record key is empty, and the prune starts above -inf.
 *
 * The prune's "now" costs no command when the caller passes `written_ms`, the relative expiry
 * (SET … EX, in ms) of a SET that just succeeded: the key's PEXPIRETIME less it is the server's
 * clock at the SET, at most the real now, so no member whose score is still ahead is taken as due
 * (and a due member whose key is live is re-scored, never dropped). Otherwise TIME is read once
 * per script run (a unit of work's script writes many records). A command inside a script costs
 * about 1.4 µs of the server's time even for TIME (INFO commandstats, docs/performance.md).
 *
 * A cluster's per-slot index (its hash tag is a slot tag `ix…`, one server's is `{lifespan}`; a
 * prefix holds no brace) gets no expiry, and one from an older version is PERSISTed at the next
 * write to it. Its expiry could only follow the scores, and a record whose expiry was extended by
 * hand (EXPIRE) keeps its old score until a write to the same slot re-scores it: with a cluster's
 * 16,384 slots that write may never come before the index expires, and then no read sees the
 * record. One server notices such a loss (the built member goes with the index, and the index is
 * built again); a slot's index holds no built member, so the loss would go unnoticed. Without an
 * expiry, the members of records that expired stay until a write to that slot or the next index
 * read prunes them (a read pays one GET / PEXPIRETIME for each, once: index-reads.ts), and an index whose last member is dropped is removed
 * by Redis itself, as every empty sorted set is ("Automatic creation and removal of keys",
 * https://redis.io/docs/latest/develop/data-types/lists/). Nor does a write to a slot's index look
 * at its latest member (lifespan_top): that only matters for an index expiry to give back, and a
 * +inf member whose key was deleted outside lifespan is dropped there by the next read as every
 * gone member is. The ZRANGE … WITHSCORES it cost was about a fifth of the write script's time
 * on a cluster node (bench/tools/redis-insert-cost.js).
 */
export const PRUNE_STEP = 16;

export const REINDEX_LUA = `
local function lifespan_rescore(idx, key)
  local at = redis.call('PEXPIRETIME', key)
  if at == -2 then
    redis.call('ZREM', idx, key)
    return nil
  end
  if at == -1 then
    redis.call('ZADD', idx, '+inf', key)
  else
    redis.call('ZADD', idx, at, key)
  end
  return at
end
local function lifespan_expire_index(idx, at)
  redis.call('PEXPIREAT', idx, string.format('%d', at - at % 60000 + 60000))
end
local function lifespan_top(idx)
  local top = redis.call('ZRANGE', idx, -1, -1, 'WITHSCORES')
  if #top == 0 or top[2] == '-inf' then return end
  if top[2] == 'inf' then
    if redis.call('EXISTS', top[1]) == 1 then return end
    redis.call('ZREM', idx, top[1])
    top = redis.call('ZRANGE', idx, -1, -1, 'WITHSCORES')
    if #top == 0 or top[2] == '-inf' or top[2] == 'inf' then return end
  end
  lifespan_expire_index(idx, tonumber(top[2]))
end
local lifespan_clock = nil
local function lifespan_now()
  if lifespan_clock == nil then
    local t = redis.call('TIME')
    lifespan_clock = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  return lifespan_clock
end
local function lifespan_reindex(key, idx, written_ms)
  local idx_at = redis.call('PEXPIRETIME', idx)
  local latest = lifespan_rescore(idx, key)
  local now
  if written_ms ~= nil and latest ~= nil and latest > 0 then now = latest - written_ms else now = lifespan_now() end
  local due = redis.call('ZRANGE', idx, '(-inf', '(' .. string.format('%d', now), 'BYSCORE', 'LIMIT', 0, ${PRUNE_STEP})
  for _, member in ipairs(due) do
    local at = lifespan_rescore(idx, member)
    if at == -1 or (at ~= nil and latest ~= -1 and (latest == nil or at > latest)) then latest = at end
  end
  -- A slot's index (cluster) keeps no expiry, nor does an index holding a +inf member.
  if latest == -1 or string.match(idx, '{([^}]*)}') ~= 'lifespan' then
    if idx_at >= 0 then redis.call('PERSIST', idx) end
  elseif idx_at == -1 then
    lifespan_top(idx)
  elseif latest ~= nil and latest > idx_at then
    lifespan_expire_index(idx, latest)
  end
end
`;
