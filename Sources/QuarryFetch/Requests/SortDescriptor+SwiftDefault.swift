import QuarryModel
import QuarryPredicates
import QuarryStore

extension SortDescriptor {
    /// A Swift `SortDescriptor(\.key)` that names no comparator, as the app's Foundation
    /// sorts it: a String key path by `.localizedStandard`, any
    /// other value by its `Comparable` order (`.binary`). An enum's labels keep their own
    /// order; a key that does not resolve stays `.binary`, for the fetch to refuse by name.
    public static func swiftDefault(key: String, ascending: Bool, entity: EntityDescription, context: ObjectContext) -> SortDescriptor {
        var descriptor = SortDescriptor(key: key, ascending: ascending)
        var joins: ToOneJoins? = nil
        if let (_, attribute) = try? descriptor.column(for: entity, qualifier: entity.name, context: context, joins: &joins),
            attribute.type == .string, attribute.enumeration == nil
        {
            descriptor.comparison = .localizedStandard
        }
        return descriptor
    }
}
