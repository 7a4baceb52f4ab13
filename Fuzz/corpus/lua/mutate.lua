local o = Item:new{ title = "new", n = 10, when = now(), meta = "[1, 2]", uid = "123e4567-e89b-12d3-a456-426614174000" }
o.owner = ann; o.tags:add(red); first.n = 99; first:delete()
print(haschanges(), o:changes(), o:isInserted())
local ok, err = pcall(function() o.n = "x" end)
save(); print(o:objectID(), Item:get(1), Item:count("n > 1"))
rollback()
