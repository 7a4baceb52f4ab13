-- Workload 6 (Quarry against itself): what an observer adds to saving one changed object
-- of a result of about 100,000 flights, against a full re-fetch of that result.
-- arg[1] rounds (default 5), arg[2] saves per round and side (default 10), arg[3] saves
-- with the re-reading observer (default 10). It changes one flight's dep_delay, so run
-- it on a copy of the database (scripts/bench does).
--
-- Each round: saves without an observer; observe(r) (its first snapshot is built here,
-- once, and not counted); as many saves with the observer; cancel; one re-fetch of the
-- request (a new fetch, every id in order), which also checks that the observer's last
-- event placed the object where the re-fetch finds it. Then the same request with
-- `limit` (a window, so the observer re-reads after each save instead of updating in
-- memory). stdout: `BENCH_FIGURE name seconds` (medians) and `ok`, or what went wrong.
local rounds, per_round, reread_saves = tonumber(arg[1] or "5"), tonumber(arg[2] or "10"), tonumber(arg[3] or "10")
local PREDICATE, WINDOW = "month <= 4 AND day <= 28", 100000

local function request(extra)
  local t = { "Flight", predicate = PREDICATE, sort = { "dep_delay" } }
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end

local function median(list)
  local s = {}
  for i, v in ipairs(list) do s[i] = v end
  table.sort(s)
  local n = #s
  if n == 0 then return 0 end
  if n % 2 == 1 then return s[(n + 1) // 2] end
  return (s[n // 2] + s[n // 2 + 1]) / 2
end

local problems = {}
local function problem(text) problems[#problems + 1] = text end

local r = fetch(request())
local rows = #r
local o = r[rows // 2]                     -- a flight in the middle of the result
local id, original = o:objectID(), o.dep_delay

-- Each save moves the flight far through the sort (the result stays the same set, and
-- under the window's cut-off of the re-read case).
local values = { -20, 120, -5, 60, 0, 90, 10, 30 }
local step = 0
local function change_and_save()
  local v
  repeat step = step + 1; v = values[(step - 1) % #values + 1] until v ~= o.dep_delay
  local t0 = now()
  o.dep_delay = v
  save()
  return now() - t0
end

-- A callback that records where the flight went; `to` is its last new index.
local function watcher(seen)
  return function(ev)
    seen.events = seen.events + 1
    for _, m in ipairs(ev.moved) do
      if rawequal(m.object, o) then seen.hits = seen.hits + 1; seen.to = m.to end
    end
    for _, u in ipairs(ev.updated) do
      if rawequal(u.object, o) then seen.hits = seen.hits + 1; seen.to = u.index end
    end
    if #ev.inserted + #ev.deleted > 0 then seen.other = seen.other + #ev.inserted + #ev.deleted end
  end
end

local function check(what, seen, saves, ids)
  if seen.events ~= saves or seen.hits ~= saves then
    problem(string.format("%s: %d saves, %d events, %d naming the flight as moved/updated",
      what, saves, seen.events, seen.hits))
  end
  if seen.other > 0 then problem(string.format("%s: %d unexpected inserted/deleted entries", what, seen.other)) end
  if seen.to and ids[seen.to] ~= id then
    problem(string.format("%s: the event put %s at %d, a re-fetch has %s there", what, id, seen.to, tostring(ids[seen.to])))
  end
end

local plain, observed, setup, refetch = {}, {}, {}, {}
for _ = 1, rounds do
  for _ = 1, per_round do plain[#plain + 1] = change_and_save() end
  local seen = { events = 0, hits = 0, other = 0 }
  local t0 = now()
  local h = observe(r, watcher(seen))
  setup[#setup + 1] = now() - t0
  for _ = 1, per_round do observed[#observed + 1] = change_and_save() end
  h:cancel()
  t0 = now()
  local ids = fetch(request{ result = "ids" })
  refetch[#refetch + 1] = now() - t0
  if #ids ~= rows then problem(string.format("re-fetch: %d ids, expected %d", #ids, rows)) end
  check("in memory", seen, per_round, ids)
end

-- The same request with a window: the observer re-reads the results after each save.
local windowed = fetch(request{ limit = WINDOW })
local seen = { events = 0, hits = 0, other = 0 }
local t0 = now()
local h = observe(windowed, watcher(seen))
local reread_setup = now() - t0
local reread = {}
for _ = 1, reread_saves do reread[#reread + 1] = change_and_save() end
h:cancel()
check("re-read", seen, reread_saves, fetch(request{ limit = WINDOW, result = "ids" }))

o.dep_delay = original
save()

print(string.format("BENCH_FIGURE rows %d", rows))
print(string.format("BENCH_FIGURE refetch %.9f", median(refetch)))
print(string.format("BENCH_FIGURE save %.9f", median(plain)))
print(string.format("BENCH_FIGURE save_observed %.9f", median(observed)))
print(string.format("BENCH_FIGURE observe_setup %.9f", median(setup)))
print(string.format("BENCH_FIGURE save_reread %.9f", median(reread)))
print(string.format("BENCH_FIGURE reread_setup %.9f", reread_setup))
print(#problems == 0 and "ok" or table.concat(problems, "; "))
