import QuarryModel

/// A store that keeps decimals as doubles (SQLite's REAL columns, Core Data's too:
/// `SQLDialect.keepsDecimalsAsDoubles`) holds only the decimals a double holds. One with
/// more digits would be rounded silently by the write and then answer predicates as
/// another number than the one the object showed, so every write path refuses it
/// before anything is written (save, updateall), naming where it is.
extension ObjectContext {
    /// Why `value` of `entity.attribute` cannot be written as it is, in a phrase that
    /// follows its place ("Item.price of Item/t3"); nil when the store keeps it exactly.
    package func inexactDecimal(_ value: Value, of attribute: AttributeDescription) -> String? {
        guard attribute.type == .decimal, case .decimal(let text) = value, sqlDialect.keepsDecimalsAsDoubles else { return nil }
        let double = DecimalText.double(text)
        // Compared as numbers: 195.10 reads back as 195.1, which is the same value.
        if let exact = DecimalText.value(text), let kept = ExactDecimal(double: double), kept == exact { return nil }
        let kept = ExactDecimal(double: double).map { "it would read back as \($0)" } ?? "it is past a double's range"
        return "is decimal \(text), more digits than the double this store keeps it as (\(kept))"
    }

    /// Refuses a write of `values` to `entity`'s row (`updateall`), in one line.
    package func refuseInexactDecimals(_ values: [(String, Value)], of entity: EntityDescription, operation: String) throws {
        for (name, value) in values {
            guard let attribute = entity.attribute(named: name), let why = inexactDecimal(value, of: attribute) else { continue }
            throw StoreError.validation(message: "\(operation): \(entity.name).\(name) \(why); nothing was written")
        }
    }
}
