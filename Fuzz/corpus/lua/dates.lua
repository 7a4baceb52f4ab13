local d = date("2024-01-22T16:26:12Z")
print(d + 60, d - date(0), d < now(), tostring(date(0.25)), typeof(d))
print(fetch("Item", "when > %@", d), Item:first("when < %@", d + 86400 * 3))
