local co = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(fetch("Item")) end end)
co(); co()
setmetatable({}, { __gc = function() haschanges() end })
pcall(fetch, { "Item", sort = { {} } }); pcall(entity, "X", { a = "nope" })
while true do end
