import QuarryModel
import QuarryStore

/// Date attributes whose column keeps days alone: a server's `date`, or a file's ISO text
/// with no time of day (`2024-03-05`, the layout `format()` names by that example). They
/// read as midnight UTC, and a table shows them as their day: as an instant, `.dates local`
/// showed the evening before west of UTC (`2024-03-04T19:00:00-05:00`), a day that the
/// file never held. The values stay dates (Lua, comparisons, exports).
public struct DayAttributes {
    public let entity: EntityDescription

    public init(of entity: EntityDescription) { self.entity = entity }

    /// The names of `entity`'s date attributes that keep days alone, in `context`'s store.
    public func names(in context: ObjectContext) -> Set<String> {
        let storage = context.mapped(entity)
        var days = storage.dayColumns
        guard storage.isForeign else { return days }
        for attribute in entity.attributes where attribute.type == .date && !days.contains(attribute.name) {
            // Entities whose columns take no format (a Core Data store's) have none to read.
            guard let name = try? context.columnFormat(entity.name, attribute.name), case .isoText(let layout)? = ColumnFormat(name: name),
                layout.separator == nil
            else { continue }
            days.insert(attribute.name)
        }
        return days
    }
}

extension Value {
    /// The value as a table shows it when its attribute keeps days: a date at midnight UTC
    /// as its day; anything else (a time another program wrote there) as it is.
    public func shownAsDay() -> Value {
        guard case .date(let seconds) = self, let day = Value.dayText(seconds) else { return self }
        return .text(day)
    }
}
