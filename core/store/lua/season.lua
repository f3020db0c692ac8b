-- End a server's season, all or nothing: archive its leaderboards and ratings as Season N,
-- optionally pay every player's chips back to the mint, and start Season N+1.
-- Redis 6.2 compatible. Every key below lives in the server's hash slot.
--
-- KEYS: 1 season (hash n, start), 2 req (this request's result), 3 bal, 4 journal,
-- 5 lb:chips, 6 rating, 7 the archived rating, then pairs (a board, its archived name), then
-- (when ARGV[9] is given) the audit list and the keys of archives past the retention to delete.
-- ARGV: 1 the season the caller saw, 2 now, 3 '1' to reset chips, 4 the mint, 5 request ttl,
-- 6 the seconds after a season end during which the new season is not ended again,
-- 7 the audit entry ('' for none), 8 the audit list's cap, 9 how many keys to delete.
-- Returns {'ok', N} (N the season ended), {'duplicate', N} for a request already applied,
-- {'stale', current} when the season changed since the caller read it, or
-- {'just-begun', current} when another end began the current season moments ago (two admins
-- sending `season end` at once end one season, however their reads and this script interleave).

local SEASON, REQ, BAL, JOURNAL, LB_CHIPS, RATING, OLD_RATING = 1, 2, 3, 4, 5, 6, 7
local seen, now, reset, mint, ttl = ARGV[1], ARGV[2], ARGV[3] == '1', ARGV[4], ARGV[5]

local done = redis.call('GET', KEYS[REQ])
if done then return {'duplicate', done} end
local current = redis.call('HGET', KEYS[SEASON], 'n') or '1'
if current ~= seen then return {'stale', current} end
local started = tonumber(redis.call('HGET', KEYS[SEASON], 'start') or '0')
if tonumber(current) > 1 and tonumber(now) - started < tonumber(ARGV[6]) then
  return {'just-begun', current}
end

local function archive(from, to)
  if redis.call('EXISTS', KEYS[from]) == 1 then redis.call('RENAME', KEYS[from], KEYS[to]) end
end
local expired = tonumber(ARGV[9] or '-1')
local pairs_end = #KEYS
if expired >= 0 then pairs_end = #KEYS - 1 - expired end
for i = OLD_RATING + 1, pairs_end, 2 do archive(i, i + 1) end
archive(RATING, OLD_RATING)
-- Archives older than the seasons kept go; the audit entry rides in this same step.
for i = pairs_end + 2, #KEYS do redis.call('DEL', KEYS[i]) end
if expired >= 0 and ARGV[7] ~= '' then
  redis.call('LPUSH', KEYS[pairs_end + 1], ARGV[7])
  redis.call('LTRIM', KEYS[pairs_end + 1], 0, tonumber(ARGV[8]) - 1)
end

-- Every player's chips go back to the mint, one journal entry each, and the account goes, so
-- the next use opens it again with the start chips. Pots (a running game's antes) stay.
if reset then
  local book = redis.call('HGETALL', KEYS[BAL])
  for i = 1, #book, 2 do
    local account, amount = book[i], book[i + 1]
    if account ~= mint and string.sub(account, 1, 4) ~= 'pot:' then
      if tonumber(amount) ~= 0 then
        redis.call('HINCRBY', KEYS[BAL], mint, amount)
        redis.call('XADD', KEYS[JOURNAL], '*',
          'src', account, 'dst', mint, 'amt', amount, 'why', 'season', 'ch', '')
      end
      redis.call('HDEL', KEYS[BAL], account)
      redis.call('ZREM', KEYS[LB_CHIPS], account)
    end
  end
end

redis.call('HSET', KEYS[SEASON], 'n', tostring(tonumber(current) + 1), 'start', now)
redis.call('SET', KEYS[REQ], current, 'EX', ttl)
return {'ok', current}
