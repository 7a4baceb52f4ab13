local r = fetch("Item", "n > %@ AND title BEGINSWITH[c] %@", 2, "ITEM")
for i, o in ipairs(r) do print(i, o.title, o.owner and o.owner.name, #o.tags) end
print(#r, r:first(), r:ids()[1], count("Item", "flag == YES"))
