local r = fetch{ "Item", predicate = "x >= %@", args = { 1 }, sort = { "-n", { "title", compare = "caseInsensitive" } }, section = "flag", limit = 4, offset = 1 }
for i = 1, #r do local s = r[i]; print(s.id, s.name, #s, s[1]) end
for o in r:objects() do print(o:objectID()) end
r.predicate = "n < 3"; r.sort = "title"; print(#r)
