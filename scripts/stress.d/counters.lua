-- One writer of the concurrent-writers stress (scripts/stress, and the end-to-end test
-- ConcurrentCounterTests): quarry STORE counters.lua WRITER SECONDS.
-- For SECONDS it increments, one save() each, the counter private to WRITER (no other
-- process touches it, so no save of it may fail) and the counter all writers share.
-- A save of the shared counter that loses to another writer fails with the conflict
-- error: it is caught, the change rolled back, the store re-read, and the increment
-- tried again. Any other error, "database is locked" among them, ends the process.
-- Prints: writer N private P shared S conflicts C
local writer, seconds = tonumber(arg[1]), tonumber(arg[2])
assert(writer and seconds, "usage: quarry STORE counters.lua WRITER SECONDS")
local mine = Counter:first("name == %@", "writer" .. writer)
local shared = Counter:first("name == %@", "shared")
assert(mine and shared, "run the set-up first (see scripts/stress)")
local stop = now() + seconds
local private, successes, conflicts = 0, 0, 0
while now() < stop do
  mine.value = mine.value + 1
  save()
  private = private + 1
  while true do
    shared.value = shared.value + 1
    local ok, message = pcall(save)
    if ok then successes = successes + 1 break end
    if not tostring(message):find("save: conflict:", 1, true) then error(message, 0) end
    conflicts = conflicts + 1
    rollback()
    refresh()
  end
end
print(string.format("writer %d private %d shared %d conflicts %d", writer, private, successes, conflicts))
