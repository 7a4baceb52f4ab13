import QuarryModel
import QuarryStore

/// The way forward for a key path that names a column where a relationship was meant:
/// `habit.name` where the column `habit` keeps the relationship `habit_rel` (a column
/// named as its target is not named as its relationship too), and `dashboard.title`
/// where `dashboard_id` names a table's rows but the file declares no foreign key, so
/// there is no relationship until `relate()` makes one. Each refusal names the form that
/// works, ready to paste, rather than the column it resembles.
extension Binder {
    /// `'habit' in 'habit.name' is an attribute of rep, not a relationship`, with the
    /// relationship kept in that column (`habit_rel.name`), the `relate()` that would
    /// make one, or the `format()` that makes a text column of ISO times a date whose
    /// part (`created.year`) was asked for.
    func attributeNotRelationship(_ name: String, _ entity: EntityDescription, path: KeyPath) -> PredicateError {
        // What follows the attribute in the path, and it as a date part (`created.year`).
        let rest = path.components.drop(while: { $0 != name }).dropFirst()
        let datePart = rest.first.flatMap { DatePart(rawValue: $0) != nil ? $0 : nil }
        if let part = datePart, let example = context?.timeOfDayExample(entity, name) {
            return timeOfDayText(name, part: part, example: example, entity, path: path)
        }
        var message = "'\(name)' in '\(path.string)' is an attribute of \(entity.name), not a relationship"
        var remedy: String?
        if rest.elementsEqual(["rawValue"]) {
            // A Swift enum's `.rawValue`: the attribute already holds it.
            message += "; an enum kept by its raw value is the attribute itself here: compare '\(name)' without .rawValue"
        } else if let through = entity.toOneRelationships.first(where: { $0.linkColumns == [name] }) {
            message += "; the relationship kept in it is '\(through.name)': \(([through.name] + rest).joined(separator: "."))"
        } else if let relate = relateCall(column: name, of: entity) {
            message += "; the file declares no relationship through it: \(relate) makes one"
        } else if datePart != nil, entity.attribute(named: name)?.type == .string, let hint = context?.isoTextHint(entity, name) {
            // `created.year` on another program's text of ISO times: a date part, once
            // `format()` makes the column a date (as comparing it with a date says).
            remedy = hint
        } else if let part = datePart, entity.attribute(named: name)?.type == .string {
            // A date part of text no format reads (an import kept `"2005-05-25 11:30:37.000"`
            // as text): what the column is, not the relationship it is not (trial 32).
            message = "'\(path.string)': \(name) is text, not a date, so it has no \(part)"
            if context?.mapped(entity).layout != .foreignTable {
                remedy = "an import reads a column of dates as dates with types = { \(name) = \"date\" }"
            }
        } else if datePart != nil, let attribute = entity.attribute(named: name), [.int16, .int32, .int64, .double].contains(attribute.type),
            context?.likelyTimeLayout(entity, name) != nil || context?.holdsDigitDays(entity, name) == true
        {
            // `ts.month` on a number column whose values read as times near today in some
            // unit: the `format()` that makes it a date with parts.
            message += timeUnitHint(attribute, entity)
        }
        var error = PredicateError(.invalidUse, message, column: path.column)
        error.remedy = remedy
        return error
    }

    /// `arrival_time.hour` on text holding times of day (GTFS's "08:15:00", "25:10:00"):
    /// what the column holds, and what reads it: SQL's CAST reads the hours before the
    /// first colon (one digit or three included), and its text compares and sorts as it is.
    private func timeOfDayText(_ name: String, part: String, example: String, _ entity: EntityDescription, path: KeyPath) -> PredicateError {
        var message = "'\(path.string)': \(name) is text holding times of day ('\(example)'), not a date, so it has no \(part); "
        if part == DatePart.hour.rawValue, let table = context.map({ $0.mapped(entity).nameInSQL }) {
            message += "read the hour in sql() (SELECT CAST(\(name) AS INTEGER) AS hour FROM \(table)), or "
        }
        message += "compare or sort by the text as it is (\(name) >= '\(example)')"
        return PredicateError(.invalidUse, message, column: path.column)
    }

    /// `dashboard` on `dashboard_version`: the `relate()` that makes it, when a column of
    /// the entity is `name` and a key suffix (`dashboard_id`, `itemTypeID`) and no
    /// relationship keeps its link there.
    func relateSuggestion(for name: String, on entity: EntityDescription) -> String? {
        let suffixes = ["_id", "_ID", "Id", "ID", "_Id"]
        for attribute in entity.attributes {
            guard let suffix = suffixes.first(where: { attribute.name.hasSuffix($0) }), attribute.name.dropLast(suffix.count) == name[...]
            else { continue }
            if let relate = relateCall(column: attribute.name, of: entity) { return relate }
        }
        return sharedKeySuggestion(for: name, on: entity)
    }

    /// `category` on `dictionary`, whose `cat_key` is the key of `categories` by name
    /// (`categories.cat_key`): an entity `name` names, in the singular or the plural, whose
    /// key column the entity holds under the same name, as tables that share a key's name
    /// link by it. Not a column that is the entity's own key (`key` on `dictionary` and on
    /// `users`, `id` on most tables): that names no other row.
    private func sharedKeySuggestion(for name: String, on entity: EntityDescription) -> String? {
        guard let context else { return nil }
        let ownKey = context.mapped(entity).keyColumn.lowercased()
        for target in context.entities where target.name != entity.name && Self.names(target.name, name) {
            let key = context.mapped(target).keyColumn
            guard key.lowercased() != "id", key.lowercased() != ownKey, target.attribute(named: key) != nil, entity.attribute(named: key) != nil,
                !entity.toOneRelationships.contains(where: { $0.keepsLink(in: key) })
            else { continue }
            return "relate(\(Self.quoted(entity.name)), \(Self.quoted(key)), \(Self.quoted(target.name)), \(Self.quoted(key)))"
        }
        return roleSuggestion(for: name, on: entity)
    }

    /// `user` on `dictionary`, whose one column ending in `_user` (`last_user`) holds
    /// numbers as the key of `users` does: a link named by its role, the relate() through it.
    private func roleSuggestion(for name: String, on entity: EntityDescription) -> String? {
        guard let context else { return nil }
        let suffix = "_" + name.lowercased()
        let columns = entity.attributes.filter { $0.name.lowercased().hasSuffix(suffix) && $0.name.count > suffix.count }
        guard columns.count == 1, let column = columns.first, [.int16, .int32, .int64].contains(column.type),
            !entity.toOneRelationships.contains(where: { $0.keepsLink(in: column.name) })
        else { return nil }
        for target in context.entities where target.name != entity.name && Self.names(target.name, name) {
            let key = context.mapped(target).keyColumn
            guard [.int16, .int32, .int64].contains(target.attribute(named: key)?.type ?? .int64) else { continue }
            return "relate(\(Self.quoted(entity.name)), \(Self.quoted(column.name)), \(Self.quoted(target.name)), \(Self.quoted(key)))"
        }
        return nil
    }

    /// Whether `word` is `entityName` in the singular or the plural (`category`,
    /// `categories`), in any case.
    private static func names(_ entityName: String, _ word: String) -> Bool {
        let stem = word.lowercased()
        let forms = [stem, stem + "s", stem + "es", stem.hasSuffix("y") ? String(stem.dropLast()) + "ies" : stem]
        return forms.contains(entityName.lowercased())
    }

    /// `streams` on `playlists`, where a table of links the file keeps with more than a
    /// pair of keys (NewPipe's `playlist_stream_join(playlist_id, stream_id, join_index)`,
    /// whose key holds the position, so one stream may stand twice) is an entity of its
    /// own, not a many-to-many: the path through it, in the words of the path written
    /// (`playlist_stream_joins.@count`, `ANY playlist_stream_joins.stream.title`).
    func joinSuggestion(for name: String, on entity: EntityDescription, path: KeyPath) -> String? {
        guard let (join, link, end) = joinPath(for: name, on: entity) else { return nil }
        let rest = Array(path.components.drop(while: { $0 != name }).dropFirst())
        let form: String
        if rest.first?.hasPrefix("@") == true {
            form = ([link.name] + rest).joined(separator: ".")
        } else if rest.isEmpty {
            form = "\(link.name).\(end.name)"
        } else {
            form = "ANY " + ([link.name, end.name] + rest).joined(separator: ".")
        }
        return "\(join.name) links \(entity.name) to \(end.destination) as an entity of its own: \(form)"
    }

    /// The join entity `name` stands for on `entity`, the to-many that reaches it and its
    /// to-one at the far end (`playlist_stream_join`, `playlist_stream_joins`, `stream`).
    func joinPath(for name: String, on entity: EntityDescription) -> (EntityDescription, RelationshipDescription, RelationshipDescription)? {
        guard let context else { return nil }
        let wanted = name.lowercased()
        for link in entity.relationships where link.isToMany {
            // Only a table of two links of another program's file: the shape a join table has.
            guard let join = try? context.entity(named: link.destination), context.mapped(join).isForeign, join.toOneRelationships.count == 2
            else { continue }
            for end in join.toOneRelationships where end.name != link.inverse {
                let names = [end.name, end.destination].flatMap { [$0, $0 + "s", $0 + "es"] }.map { $0.lowercased() }
                if names.contains(wanted) { return (join, link, end) }
            }
        }
        return nil
    }

    /// `relate("dashboard_version", "dashboard_id", "dashboard", "id")`: for a column that
    /// keeps no link, whose stem (the name without its key suffix) names an entity, in the
    /// singular or the plural, whose key is of the column's kind (numbers or text).
    private func relateCall(column: String, of entity: EntityDescription) -> String? {
        guard let context, let attribute = entity.attribute(named: column),
            !entity.toOneRelationships.contains(where: { $0.keepsLink(in: column) })
        else { return nil }
        var stem = column
        for suffix in ["_id", "_ID", "_Id", "Id", "ID"] where column.hasSuffix(suffix) && column.count > suffix.count {
            stem = String(column.dropLast(suffix.count))
            break
        }
        let wanted = Set([stem, stem + "s", stem + "es", stem.hasSuffix("y") ? String(stem.dropLast()) + "ies" : stem].map { $0.lowercased() })
        let numbers: Set<AttributeType> = [.int16, .int32, .int64]
        for target in context.entities where target.name != entity.name && wanted.contains(target.name.lowercased()) {
            var key = context.mapped(target).keyColumn
            // A table with no declared key is keyed by its rowid, which need not be the
            // column the rows are named by: `products.product_id` for `product_id`, when
            // the destination has a column of that name (relate() checks it names one row).
            if target.attribute(named: key) == nil, target.attribute(named: column) != nil { key = column }
            let keyType = target.attribute(named: key)?.type ?? .int64
            guard numbers.contains(keyType) == numbers.contains(attribute.type) else { continue }
            return "relate(\(Self.quoted(entity.name)), \(Self.quoted(column)), \(Self.quoted(target.name)), \(Self.quoted(key)))"
        }
        return nil
    }

    private static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `category == food` with no key `food`: a word where a string was meant, compared
    /// with a string attribute. The unknown key's refusal, in one line, says the quoted
    /// string, unless a key near the word was suggested or another way forward given.
    func quotedWordMeant(_ error: PredicateError, _ expression: Expression, against other: BoundPredicate.Operand?) -> PredicateError {
        guard error.kind == .unknownKey, error.suggestion == nil, !error.message.contains(";"), case .keyPath(let path) = expression,
            path.components.count == 1, other?.typeAttribute?.type == .string
        else { return error }
        var meant = error
        meant.message += " (did you mean the string '\(path.string.replacingOccurrences(of: "'", with: "\\'"))'?)"
        return meant
    }
}
