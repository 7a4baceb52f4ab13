print(Item:updateall("n > %@", { 2 }, { title = "big" }))
print(Item:deleteall("flag == NO", {}))
print(fetch{ "Item", result = "dictionaries", properties = { "flag", "count(*)", "avg(x)" }, group = { "flag" }, having = "count > 1" })
print(fetch{ "Item", result = "ids" }, history{ since = 0 }, historytoken())
entity "Item" { title = "string?", n = { "int64", default = 0 }, extra = "string?" }
