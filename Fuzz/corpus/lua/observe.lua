local events = {}
local h = observe(items, function(ev) events[#events + 1] = ev end)
local e = observe("Item", function(ch) events[#events + 1] = ch end)
local b = bind(first, "title"); b:observe(function(new, old) events[#events + 1] = new end)
local s = state(3); s:observe(function(v) items.args = { v } end)
items.predicate = "n > %@"; items.args = { 2 }
first.title = "changed"; Item:new{ title = "z", n = 0 }; save()
s.value = 5; h:cancel(); e:cancel()
local ns = namespace(); observe(first, { "n" }, function() end, { namespace = ns }); ns:cancel()
