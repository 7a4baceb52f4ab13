entity "Folder" { name = "string", notes = { many = "Note", inverse = "folder", delete = "cascade" } }
entity "Note" { text = "string", folder = { one = "Folder", inverse = "notes" } }
local f = Folder:new{ name = "f" }; local n = Note:new{ text = "t", folder = f }
save(); f:delete(); save(); print(Note:count())
print(ann.staff, #ann.items, bob.boss == ann, red.items:contains(first))
