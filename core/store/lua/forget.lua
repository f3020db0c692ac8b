-- Erase one member of a server, all or nothing (core/store/member_data.py).
-- Redis 6.2 compatible. Every key below lives in the server's hash slot.
--
-- KEYS: 1 bal, 2 journal, 3 checkpoint, 4 lb:chips, 5 audit, then every other key of the server
-- that holds something of the member (found by a scan just before).
-- ARGV: 1 the member's id, 2 their names as a JSON list, 3 the pseudonym, 4 the mint,
-- 5 the audit entry of this erasure, 6 the audit list's cap.
-- Returns {chips returned to the mint, journal entries rewritten, records removed}.
--
-- The chips go back to the mint under the pseudonym (one journal entry), every journal entry and
-- checkpoint line of the member names the pseudonym instead, and every other record that holds
-- the id or a name goes: a key named after the member, a hash field, a board entry, a text.
-- A name is looked for inside records (texts over 64 characters) only when it has 3 or more.

local BAL, JOURNAL, CHECKPOINT, LB_CHIPS, AUDIT = 1, 2, 3, 4, 5
local user, pseudonym, mint = ARGV[1], ARGV[3], ARGV[4]
local names = cjson.decode(ARGV[2])
local removed = 0
local LONG = 64

-- A short text (a display name, an id) holds the member only if it is one of theirs; a long one
-- (a record, a stored reply) if it mentions one, so another "Annabel" keeps her name.
local function holds(text)
  if text == nil then return false end
  if string.find(text, user, 1, true) then return true end
  for _, name in ipairs(names) do
    if text == name then return true end
    if #text > LONG and #name >= 3 and string.find(text, name, 1, true) then return true end
  end
  return false
end

-- A key, field or member whose name has the id as one of its `:` parts is the member's.
local function named_after(key)
  for segment in string.gmatch(key, '[^:]+') do
    if segment == user then return true end
  end
  return false
end

-- In a hash, a field goes when it is the member's, or its value names them: a hash's field
-- names (stats, rule sets, channels) never count as text, so "turns" the member keeps others'.
-- A season's stats hash keys its fields `<user>|<stat>`: those are the member's too.
local function field_holds(field, value)
  if named_after(field) or string.sub(field, 1, #user + 1) == user .. '|' then return true end
  if string.find(value, user, 1, true) then return true end
  for _, name in ipairs(names) do
    if value == name then return true end
  end
  return false
end

-- a. the chips go back to the mint, under the pseudonym
local chips = tonumber(redis.call('HGET', KEYS[BAL], user) or '0')
redis.call('HDEL', KEYS[BAL], user)
redis.call('ZREM', KEYS[LB_CHIPS], user)

-- b. the journal names the pseudonym (entries keep their ids, so the checkpoint still fits)
local function pseudonymized(fields)
  local out, changed = {}, false
  for i = 1, #fields, 2 do
    local value = fields[i + 1]
    if (fields[i] == 'src' or fields[i] == 'dst') and value == user then
      value, changed = pseudonym, true
    end
    table.insert(out, fields[i])
    table.insert(out, value)
  end
  return out, changed
end

local entries = redis.call('XRANGE', KEYS[JOURNAL], '-', '+')
local rewritten, renamed = {}, 0
for i, entry in ipairs(entries) do
  local fields, changed = pseudonymized(entry[2])
  rewritten[i] = fields
  if changed then renamed = renamed + 1 end
end
if renamed > 0 then
  redis.call('DEL', KEYS[JOURNAL])
  for i, entry in ipairs(entries) do
    redis.call('XADD', KEYS[JOURNAL], entry[1], unpack(rewritten[i]))
  end
end
if chips ~= 0 then
  redis.call('HINCRBY', KEYS[BAL], mint, string.format('%d', chips))
  redis.call('XADD', KEYS[JOURNAL], '*', 'src', pseudonym, 'dst', mint,
    'amt', string.format('%d', chips), 'why', 'erase', 'ch', '')
end
local folded = redis.call('HGET', KEYS[CHECKPOINT], 'b:' .. user)
if folded then
  redis.call('HDEL', KEYS[CHECKPOINT], 'b:' .. user)
  redis.call('HINCRBY', KEYS[CHECKPOINT], 'b:' .. pseudonym, folded)
end

-- c. the audit log keeps what admins did, with the member's id and names made the pseudonym
local function scrubbed(text)
  local ok, entry = pcall(cjson.decode, text)
  if not ok or type(entry) ~= 'table' then return cjson.encode({act = 'unreadable'}) end
  for field, value in pairs(entry) do
    if type(value) == 'string' and holds(value) then entry[field] = pseudonym end
  end
  if type(entry.d) == 'table' and holds(cjson.encode(entry.d)) then entry.d = {} end
  return cjson.encode(entry)
end

local audit = redis.call('LRANGE', KEYS[AUDIT], 0, -1)
for i, text in ipairs(audit) do
  if holds(text) then redis.call('LSET', KEYS[AUDIT], i - 1, scrubbed(text)) end
end
redis.call('LPUSH', KEYS[AUDIT], ARGV[5])
redis.call('LTRIM', KEYS[AUDIT], 0, tonumber(ARGV[6]) - 1)

-- d. every other record of the member goes
local function forget_in(key)
  local kind = redis.call('TYPE', key).ok
  if kind == 'hash' then
    local book = redis.call('HGETALL', key)
    for i = 1, #book, 2 do
      if field_holds(book[i], book[i + 1]) then
        redis.call('HDEL', key, book[i])
        removed = removed + 1
      end
    end
  elseif kind == 'zset' then  -- the member, or a member named after them (a challenge's deadline)
    for _, member in ipairs(redis.call('ZRANGE', key, 0, -1)) do
      if member == user or named_after(member) then
        removed = removed + redis.call('ZREM', key, member)
      end
    end
  elseif kind == 'set' then
    removed = removed + redis.call('SREM', key, user)
  elseif kind == 'string' and holds(redis.call('GET', key)) then
    removed = removed + redis.call('DEL', key)
  elseif kind == 'list' then  -- e.g. the match history: the matches they played go
    for _, text in ipairs(redis.call('LRANGE', key, 0, -1)) do
      if text == user or holds(text) then
        removed = removed + redis.call('LREM', key, 0, text)
      end
    end
  end
end

for i = AUDIT + 1, #KEYS do
  if named_after(KEYS[i]) then
    removed = removed + redis.call('DEL', KEYS[i])
  else
    forget_in(KEYS[i])
  end
end
return {string.format('%d', chips), renamed, removed}
