/**
 * The Lua helper of the read-only index scripts (index-reads.ts, index-scan.ts): the value of
 * `key`, or nil when it is gone or holds another type (a key of the prefix that is not a record is
 * skipped, as a GET of it by hand would fail). Any other error comes back second, for the caller
 * to return as the script's error reply.
 */
export const READ_VALUE_LUA = `
local function lifespan_read_value(key)
  local v = redis.pcall('GET', key)
  if type(v) == 'table' and v.err then
    if string.sub(v.err, 1, 9) ~= 'WRONGTYPE' then return nil, v.err end
    return nil
  end
  return v
end
`;
