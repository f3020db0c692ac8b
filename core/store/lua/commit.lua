-- One commit of a Shut the Box server, all or nothing: every check runs before the first write.
-- Redis 6.2 compatible (EVALSHA, cjson). Every key below lives in the server's hash slot.
--
-- KEYS: 1 req, 2 game, 3 bal, 4 journal, 5 deadlines, 6 daily, 7 lb:chips, 8 checkpoint,
-- 9 last (the request that ended the channel's last game, so its final view can still be
-- shown), 10 held (per player, JSON {channel: chips} that running staked games hold, and
-- {`tour:<id>`: fee} for a tournament's entry fee, ARGV `hk`), 11.. stats
-- KEYS after the stats keys: the rate-limit counter a click's count rides with (ARGV `rate`).
-- ARGV[1]: the commit as JSON (see core/store/redis_store.py `_payload`); absent fields mean "not given".
-- ARGV[2]: the game record (used when the JSON says hr), ARGV[3]: the result to keep.
-- Returns a JSON object: s (status), v (version), r (record), res (result), b (balances),
-- ra (retry_after), first (the server's earliest deadline, when this commit brought it
-- forward), d (the stats counters left as they were because they are not whole numbers, each
-- `<key> <field>`). Numbers travel as strings so large values never lose digits.
-- On BALANCES, b holds the balances the checks compared against (an account this commit would
-- create counts at the start balance, a missing one at 0) for every account the commit names.

local REQ, GAME, BAL, JOURNAL, DEADLINES, DAILY, LB_CHIPS = 1, 2, 3, 4, 5, 6, 7
local CHECKPOINT, LAST, HELD = 8, 9, 10
local c = cjson.decode(ARGV[1])
-- The record and the result come as ARGV[2] and ARGV[3], outside the JSON (see _arguments).
if c.hr then c.rec = ARGV[2] end
c.result = ARGV[3]

local function int(n)
  return string.format('%d', n)
end

local function is_player(account)
  return account ~= c.mint and string.sub(account, 1, 4) ~= 'pot:'
end

local function game_now()
  local found = redis.call('HMGET', KEYS[GAME], 'v', 'r', 'm')
  return found[1] or nil, found[2] or nil, found[3] or nil
end

local function reply(status, fields)
  fields.s = status
  return cjson.encode(fields)
end

-- A stored whole number as HINCRBY reads one (no `007`, no `-0`, no `٣`) and as
-- core/game/numbers.stored_int does: what fails this would make HINCRBY raise.
local function whole(text)
  if text == '0' then return true end
  local digits = string.match(text, '^%-?([1-9]%d*)$')
  return digits ~= nil and #digits <= 16
end

-- Balances as they are now, created accounts counted at the start balance.
-- A stored balance that is not an integer is named in `unreadable` and refuses the commit
-- before any write (HINCRBY would fail halfway through the moves).
local current, unreadable = {}, nil
local function balance(account)
  if current[account] == nil then
    local raw = redis.call('HGET', KEYS[BAL], account)
    if raw and not whole(raw) then unreadable = unreadable or account end
    current[account] = raw and tonumber(raw) or 0
  end
  return current[account]
end

local function balances_of(book, groups)
  local out = {}
  for _, accounts in ipairs(groups) do
    for _, account in ipairs(accounts) do
      out[account] = int(book[account] ~= nil and book[account] or balance(account))
    end
  end
  return out
end

local function named_accounts()
  local expected, moved = {}, {}
  for _, pair in ipairs(c.expect) do table.insert(expected, pair[1]) end
  for _, t in ipairs(c.tr) do
    table.insert(moved, t[1])
    table.insert(moved, t[2])
  end
  return {c.report, expected, moved}
end

-- a. idempotency: a retried request gets its first result back, never a second apply.
-- The key holds `<attempt>\n<result>` once applied, or `~void:<attempt>,...` for attempts whose
-- reply was lost and that were declared not applied (core/store/redis_store.py `resolve`): such an attempt
-- must never apply late, though a new attempt of the same request still may.
if c.req then
  local stored = redis.call('GET', KEYS[REQ])
  if stored then
    if string.sub(stored, 1, 6) ~= '~void:' then
      local v, r, m = game_now()
      return reply('duplicate', {res = stored, v = v, r = r, m = m})
    end
    if string.find(',' .. string.sub(stored, 7) .. ',', ',' .. c.att .. ',', 1, true) then
      return reply('void', {})
    end
  end
end

-- a'. a click's count against its member's rate limit (ARGV `rate`: key index, limit, window
-- ms), as core/store/admin_store.py counts it: past the limit, nothing else is done. The counter
-- gets its expiry in the step that creates it, so its time left is read only to refuse (a
-- counter found without one then gets it: it can never hold a member back for good).
if c.rate then
  local key, window = KEYS[c.rate[1]], c.rate[3]
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('PEXPIRE', key, window) end
  if n > c.rate[2] then
    local left = redis.call('PTTL', key)
    if left < 0 then
      redis.call('PEXPIRE', key, window)
      left = window
    end
    return reply('too_fast', {ra = int(left)})
  end
end

-- b. optimistic version (the message id read here is the one the reply gives back: a commit
-- never writes it)
local message_now = nil
if c.game then
  local v, r, m = game_now()
  message_now = m
  if v ~= c.ev then
    return reply('stale', {v = v, r = r, m = m})
  end
end

-- c. daily cooldown
if c.daily then
  local last = redis.call('HGET', KEYS[DAILY], c.daily[1])
  if last then
    local ready = tonumber(last) + c.daily[3]
    if ready > c.daily[2] then
      return reply('daily_wait', {ra = int(ready - c.daily[2])})
    end
  end
end

-- d. new accounts, funded from the mint
local created = {}
local function known(account)
  return current[account] ~= nil or redis.call('HEXISTS', KEYS[BAL], account) == 1
end

for _, account in ipairs(c.ensure) do
  if not known(account) then
    balance(c.mint)
    current[account] = c.start
    current[c.mint] = current[c.mint] - c.start
    table.insert(created, account)
  end
end

-- e. the balances the caller computed with
for _, pair in ipairs(c.expect) do
  if balance(pair[1]) ~= pair[2] then
    return reply('balances', {b = balances_of(current, named_accounts())})
  end
end

-- e'. a commit that settles stakes checked every seated staked player's balance (a cached 0
-- included): one left out fails closed, and the caller settles again on the balances returned
if c.stk then
  local checked = {}
  for _, pair in ipairs(c.expect) do checked[pair[1]] = true end
  for _, account in ipairs(c.stk) do
    if not checked[account] then
      return reply('balances', {b = balances_of(current, {c.stk, c.report})})
    end
  end
end

-- f. table stakes: no account but the mint goes below zero
local after = {}
for account, amount in pairs(current) do after[account] = amount end
for _, t in ipairs(c.tr) do
  local source, target, amount = t[1], t[2], t[3]
  after[source] = (after[source] or balance(source)) - amount
  after[target] = (after[target] or balance(target)) + amount
  if source ~= c.mint and after[source] < 0 then
    return reply('balances', {b = balances_of(current, named_accounts())})
  end
end

-- f*. chips a running staked game holds stay with their owner (a gift's giver): the pot's
-- next ante, or the whole balance in Canoga. A hold whose game is gone is ignored.
local function holds_of(account)
  local raw = redis.call('HGET', KEYS[HELD], account)
  return raw and cjson.decode(raw) or {}
end

-- A tournament's entry fee (held under `tour:<id>`) stays held until its start or cancel
-- releases it; a game's hold lives as long as its game.
local function hold_live(ch)
  if string.sub(ch, 1, 5) == 'tour:' then return true end
  return redis.call('EXISTS', KEYS[GAME] .. ch) == 1  -- KEYS[GAME] is `<tag>:game:` here
end

if c.keep then
  local need, whole, entered = 0, false, nil
  for ch, amount in pairs(holds_of(c.keep)) do
    if hold_live(ch) then
      if amount < 0 then whole = true else need = need + amount end
      if string.sub(ch, 1, 5) == 'tour:' then entered = '1' end
    end
  end
  if whole or (after[c.keep] or balance(c.keep)) < need then
    return reply('held', {hold = whole and '-1' or int(need), ht = entered,
                          b = balances_of(current, {{c.keep}})})
  end
end

-- f'. every stats op fits its key: a write error halfway would leave half a commit behind
local HASH_OPS = {hincrby = true, hmin = true, hset = true, heq = true}
local ZSET_OPS = {zincrby = true, zmin = true, zset = true}
local LIST_OPS = {audit = true, lcap = true}

-- A stats field as stored, read once: the checks and a lowering write read the same field, and
-- a write forgets what was read of its field.
local reads = {}
local function field_now(key, field)
  local id = key .. '\n' .. field
  if reads[id] == nil then reads[id] = redis.call('HGET', key, field) end
  return reads[id] or nil
end
local function wrote(key, field) reads[key .. '\n' .. field] = nil end

local function holds_integer(key, field)
  local now = field_now(key, field)
  return not now or whole(now)
end

-- A counter that is not a whole number (a hand edit, a damaged restore) is left as it is and
-- named in the reply's `d`: the rest of the commit applies, and `stats` shows `—` for it.
-- Nothing more is read: `fits` read the field already.
local damaged, skipped = {}, {}
local function counts_on(op)
  local kind, key, field = op[1], KEYS[op[2]], op[3]
  if (kind ~= 'hincrby' and kind ~= 'hmin') or holds_integer(key, field) then return true end
  local id = key .. '\n' .. field
  if not skipped[id] then damaged[#damaged + 1] = key .. ' ' .. field end
  skipped[id] = true
  return false
end

-- A key's type, read once however many ops name it.
local types = {}
local function type_of(key)
  if types[key] == nil then types[key] = redis.call('TYPE', key).ok end
  return types[key]
end

local function fits(op)
  local kind, key, field = op[1], KEYS[op[2]], op[3]
  if kind == 'expire' then return true end  -- any key may expire
  local key_type = type_of(key)
  if HASH_OPS[kind] then
    local is_hash = key_type == 'hash' or key_type == 'none'
    return key_type == 'hash' or key_type == 'none'
  end
  if LIST_OPS[kind] then return key_type == 'list' or key_type == 'none' end
  return ZSET_OPS[kind] ~= nil and (key_type == 'zset' or key_type == 'none')
end

local left = {}  -- the positions of the ops on a damaged counter: not applied
for i, op in ipairs(c.stats) do
  if not fits(op) then
    return redis.error_reply('ERR stats op does not fit its key: ' .. cjson.encode(op))
  end
  left[i] = not counts_on(op)
end

-- f''. values the caller computed with (a rating read before the match ended): any change
-- since makes the commit stale, and the caller plans again from what is stored now
for _, op in ipairs(c.stats) do
  if op[1] == 'heq' and (field_now(KEYS[op[2]], op[3]) or '') ~= op[4] then
    local v, r, m = game_now()
    return reply('stale', {v = v, r = r, m = m})
  end
end

-- f+. every balance the checks read is an integer
if unreadable then return reply('unreadable', {a = unreadable}) end

-- g. writes
local touched = {}

local function move(source, target, amount, why)
  redis.call('HINCRBY', KEYS[BAL], source, int(-amount))
  redis.call('HINCRBY', KEYS[BAL], target, int(amount))
  redis.call('XADD', KEYS[JOURNAL], '*',
    'src', source, 'dst', target, 'amt', int(amount), 'why', why, 'ch', c.jch)
  touched[source] = true
  touched[target] = true
end

for _, account in ipairs(created) do
  if c.start > 0 then
    move(c.mint, account, c.start, 'start')
  else
    redis.call('HSET', KEYS[BAL], account, int(c.start))
    touched[account] = true
  end
end
for _, t in ipairs(c.tr) do
  move(t[1], t[2], t[3], c.why)
end
-- The journal stays bounded: past c.jk entries, the oldest c.jf are folded into the checkpoint
-- (balances as of its last entry, `b:<account>`; `id` and `entries` say how far it reaches) and
-- trimmed, in this same script, so `verify_ledger` replays from the checkpoint on.
local function fold_journal()
  local oldest = redis.call('XRANGE', KEYS[JOURNAL], '-', '+', 'COUNT', c.jf + 1)
  for i = 1, #oldest - 1 do
    local f, t = {}, oldest[i][2]
    for j = 1, #t, 2 do f[t[j]] = t[j + 1] end
    redis.call('HINCRBY', KEYS[CHECKPOINT], 'b:' .. f.src, int(-tonumber(f.amt)))
    redis.call('HINCRBY', KEYS[CHECKPOINT], 'b:' .. f.dst, f.amt)
  end
  redis.call('HSET', KEYS[CHECKPOINT], 'id', oldest[#oldest - 1][1])
  redis.call('HINCRBY', KEYS[CHECKPOINT], 'entries', #oldest - 1)
  redis.call('XTRIM', KEYS[JOURNAL], 'MINID', oldest[#oldest][1])
end

if next(touched) ~= nil and c.jk and redis.call('XLEN', KEYS[JOURNAL]) > c.jk + c.jf then
  fold_journal()
end

for account in pairs(touched) do
  if is_player(account) then
    redis.call('ZADD', KEYS[LB_CHIPS], int(after[account]), account)
  end
end

-- The server's first deadline, to tell the caller when a commit brings it forward.
local function earliest_deadline()
  local first = redis.call('ZRANGE', KEYS[DEADLINES], 0, 0, 'WITHSCORES')
  return first[2] and tonumber(first[2]) or nil
end

-- Only this game's deadline moves, so the first one comes forward exactly when the new
-- deadline is earlier than the first before it (none, or a later one): one read, not two.
-- Removing a deadline never brings the first forward.
local forward = nil
if c.game then
  if c.rec then
    redis.call('HSET', KEYS[GAME], 'v', c.v, 'r', c.rec)
  else
    redis.call('DEL', KEYS[GAME])
    if c.req then redis.call('SET', KEYS[LAST], KEYS[REQ], 'EX', c.ttl) end
  end
  if c.rec and c.dl then
    local was_first = earliest_deadline()
    redis.call('ZADD', KEYS[DEADLINES], int(c.dl), c.ch)
    if not was_first or c.dl < was_first then
      forward = int(c.dl)  -- the caller must tell the due index (core/store/deadlines.py)
    end
  else
    redis.call('ZREM', KEYS[DEADLINES], c.ch)
  end
end

if c.daily then
  redis.call('HSET', KEYS[DAILY], c.daily[1], int(c.daily[2]))
end

for _, h in ipairs(c.hold or {}) do
  local holds = holds_of(h[1])
  holds[c.hk or c.ch] = h[2] ~= 0 and h[2] or nil
  if next(holds) == nil then
    redis.call('HDEL', KEYS[HELD], h[1])
  else
    redis.call('HSET', KEYS[HELD], h[1], cjson.encode(holds))
  end
end

local function lower_hash(key, field, n)
  local now = field_now(key, field)
  if not now or tonumber(now) > n then redis.call('HSET', key, field, int(n)) end
end

local function lower_zset(key, member, n)
  local now = redis.call('ZSCORE', key, member)
  if not now or tonumber(now) > n then redis.call('ZADD', key, int(n), member) end
end

for i, op in ipairs(c.stats) do
  local kind, key, field, value = op[1], KEYS[op[2]], op[3], op[4]
  if HASH_OPS[kind] and kind ~= 'hmin' and not left[i] then wrote(key, field) end
  if left[i] then  -- a damaged counter: left as it is
  elseif kind == 'hincrby' then redis.call('HINCRBY', key, field, int(value))
  elseif kind == 'hmin' then lower_hash(key, field, value); wrote(key, field)
  elseif kind == 'hset' then redis.call('HSET', key, field, value)
  elseif kind == 'zincrby' then redis.call('ZINCRBY', key, int(value), field)
  elseif kind == 'zmin' then lower_zset(key, field, value)
  elseif kind == 'zset' then redis.call('ZADD', key, int(value), field)
  elseif kind == 'audit' then  -- an admin action, newest first, at most `value` kept
    redis.call('LPUSH', key, field)
    redis.call('LTRIM', key, 0, value - 1)
  elseif kind == 'lcap' then  -- a list's newest `field` entries: `value` pushed at its head
    redis.call('LPUSH', key, value)
    redis.call('LTRIM', key, 0, tonumber(field) - 1)
  elseif kind == 'expire' then redis.call('EXPIRE', key, int(value)) end
end

if c.req then
  redis.call('SET', KEYS[REQ], c.att .. '\n' .. c.result, 'EX', c.ttl)
end

-- h. done
local version, message = nil, nil
if c.game and c.rec then
  version = c.v
  message = message_now
end
local out = {v = version, m = message, b = balances_of(after, {c.report}), first = forward}
if #damaged > 0 then out.d = damaged end
return reply('ok', out)
