import Foundation

/// The contract's way to apply an observer's event to a copy of the old contents (flat:
/// ids in order; sectioned: `{ id, rows }`), and a comparison of two such copies, as Lua
/// for the observer tests to check events with: `apply(copy, ev, sectioned)` and
/// `same(a, b, sectioned)`.
enum ObserverEventLua {
    static let applyAndCompare = #"""
        local function apply(copy, ev, sectioned)
          if not sectioned then
            local removals = {}
            for _, e in ipairs(ev.deleted) do removals[#removals + 1] = e.index end
            for _, e in ipairs(ev.moved) do removals[#removals + 1] = e.from end
            table.sort(removals, function(a, b) return a > b end)
            for _, i in ipairs(removals) do table.remove(copy, i) end
            local places = {}
            for _, e in ipairs(ev.inserted) do places[#places + 1] = { e.index, e.object:objectID() } end
            for _, e in ipairs(ev.moved) do places[#places + 1] = { e.to, e.object:objectID() } end
            table.sort(places, function(a, b) return a[1] < b[1] end)
            for _, p in ipairs(places) do table.insert(copy, p[1], p[2]) end
            return copy
          end
          local removals = {}
          for _, e in ipairs(ev.deleted) do removals[#removals + 1] = { e.section, e.row } end
          for _, e in ipairs(ev.moved) do removals[#removals + 1] = e.from end
          table.sort(removals, function(a, b) return a[1] > b[1] or (a[1] == b[1] and a[2] > b[2]) end)
          for _, p in ipairs(removals) do table.remove(copy[p[1]].rows, p[2]) end
          local dead = {}
          for _, s in ipairs(ev.sections.deleted) do dead[#dead + 1] = s.index end
          table.sort(dead, function(a, b) return a > b end)
          for _, i in ipairs(dead) do
            assert(#copy[i].rows == 0, "a deleted section still has rows")
            table.remove(copy, i)
          end
          local born = {}
          for _, s in ipairs(ev.sections.inserted) do born[#born + 1] = s end
          table.sort(born, function(a, b) return a.index < b.index end)
          for _, s in ipairs(born) do table.insert(copy, s.index, { id = s.id, rows = {} }) end
          local places = {}
          for _, e in ipairs(ev.inserted) do places[#places + 1] = { e.section, e.row, e.object:objectID() } end
          for _, e in ipairs(ev.moved) do places[#places + 1] = { e.to[1], e.to[2], e.object:objectID() } end
          table.sort(places, function(a, b) return a[1] < b[1] or (a[1] == b[1] and a[2] < b[2]) end)
          for _, p in ipairs(places) do table.insert(copy[p[1]].rows, p[2], p[3]) end
          return copy
        end

        local function same(a, b, sectioned)
          if #a ~= #b then return false end
          for i = 1, #a do
            if sectioned then
              if a[i].id ~= b[i].id or #a[i].rows ~= #b[i].rows then return false end
              for j = 1, #a[i].rows do if a[i].rows[j] ~= b[i].rows[j] then return false end end
            elseif a[i] ~= b[i] then return false end
          end
          return true
        end
        """#
}
