import QuarryLua

/// `quarry --demo`: an in-memory store with the sample data that `@FetchRequest` and
/// `@SectionedFetchRequest` are documented with, built by a deterministic Lua script.
enum Demo {
    static let banner = """
        Demo store: Quake (place, time, magnitude, day; 2,500 rows), Item (timestamp, categoryID, title, tags) and Tag.
        Try:
          fetch{ "Quake", predicate = "magnitude >= %@", args = { 6 }, sort = { "-magnitude" }, limit = 10 }
          fetch{ "Item", section = "categoryID", sort = { "categoryID", "-timestamp" } }
          observe(fetch("Quake", "magnitude > 7"), function(ev) print(#ev.inserted, "new big quakes") end)
        """

    static let script = #"""
        entity "Quake" { place = "string", time = "date", magnitude = "double", day = { "string", indexed = true }, code = { "string", unique = true } }
        entity "Tag" { name = "string" }
        entity "Item" { timestamp = "date", categoryID = { "int16", default = 0, indexed = true }, title = "string?",
                        tags = { many = "Tag", inverse = "items" } }
        -- A fixed generator, so every run shows the same data.
        local seed = 20240122
        local function draw()  -- 15 good bits: the high ones of this generator
          seed = (seed * 1103515245 + 12345) % 2147483648
          return seed // 65536
        end
        local function random(n)
          return math.floor((draw() * 32768 + draw()) / 1073741824 * n)
        end
        local places = { "Alaska", "California", "Chile", "Japan", "Indonesia", "Hawaii", "Nevada", "Peru",
                         "Turkey", "Greece", "Iceland", "New Zealand", "Mexico", "Italy", "Philippines" }
        local start = 1704067200  -- 2024-01-01
        for i = 1, 2500 do
          local t = start + random(90 * 86400)
          local magnitude = (random(600) + 250) / 100
          if random(40) == 0 then magnitude = magnitude + 1 end
          local d = date(t)
          Quake:new{ place = string.format("%d km %s of %s", random(200) + 1, ({ "N", "S", "E", "W" })[random(4) + 1], places[random(#places) + 1]),
                     time = d, magnitude = magnitude, day = tostring(d):sub(1, 10), code = string.format("q%05d", i) }
        end
        local tags = {}
        for i, name in ipairs{ "work", "home", "urgent", "later", "ideas" } do tags[i] = Tag:new{ name = name } end
        local words = { "Buy", "Call", "Write", "Fix", "Plan", "Read", "Send", "Book" }
        local things = { "milk", "report", "tickets", "the bike", "a letter", "notes", "the garden", "slides" }
        for i = 1, 60 do
          local item = Item:new{ timestamp = date(start + random(30 * 86400)), categoryID = random(4),
                                 title = words[random(#words) + 1] .. " " .. things[random(#things) + 1] }
          for _, tag in ipairs(tags) do if random(4) == 0 then item.tags:add(tag) end end
        end
        save{ author = "demo" }
        """#

    static func load(into runtime: QuarryRuntime) -> String? {
        runtime.run(script, chunkName: "=(demo)")?.message
    }
}
