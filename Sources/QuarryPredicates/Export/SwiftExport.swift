import QuarryModel
import QuarryModelFiles
import QuarryStore

extension BoundPredicate {
    /// Swift source for this predicate: `NSPredicate(format:)`, and a `#Predicate` (after
    /// the values it captures) where every part has a Swift form, otherwise a comment that
    /// says why not. A key Core Data would not find on the entity (a sub-entity's) gives
    /// only a comment saying so: code that raises in the app helps no one.
    public func swiftCode(typeName: String? = nil, names: SwiftNames? = nil) -> String {
        if let key = subentityOnlyKeys.first {
            return swiftComment(
                "Core Data refuses this predicate over \(entity.name): '\(key)' is a key of its sub-entities only (keypath not found in entity)")
        }
        // Apple's parser reads `start.year` as a key of NSDate, which has none, and
        // `from:subtract:` takes numbers: the app would raise.
        // A year compared with a number is a range of the date, which a `#Predicate` says
        // (`SwiftPredicateWriter.yearRange`): that, after the comment.
        if readsDateParts {
            guard let macro = try? swiftPredicateMacro(typeName: typeName, reserved: ["predicate", "query"], names: names) else {
                return swiftComment(Self.datePartsRefusal)
            }
            return ([swiftComment("NSPredicate: not expressible (\(Self.datePartsRefusal))")] + macro.captures + ["let query = " + macro.macro])
                .joined(separator: "\n")
        }
        var lines = [nsPredicateRefusal.map { swiftComment("NSPredicate: not expressible (\($0))") } ?? "let predicate = " + nsPredicateCode]
        do {
            let macro = try swiftPredicateMacro(typeName: typeName, reserved: ["predicate", "query"], names: names)
            lines += macro.captures
            lines.append("let query = " + macro.macro)
        } catch {
            lines.append(swiftComment("#Predicate: not expressible (\(error))"))
        }
        return lines.joined(separator: "\n")
    }

    /// Why no `NSPredicate(format:)` says this predicate, nil where one does: a date's part
    /// (`datePartsRefusal`), or a string's count in characters, which Apple's grammar has
    /// not (its `length` counts UTF-16 units).
    public var nsPredicateRefusal: String? {
        if readsDateParts { return Self.datePartsRefusal }
        if reads({ if case .function(.characters, _) = $0 { return true } else { return false } }) {
            return "Apple's grammar counts a string in UTF-16 units (length), not in characters as Swift's count"
        }
        if reads({ if case .arithmetic(.quotient, _, _) = $0 { return true } else { return false } }) {
            return "Apple's grammar divides as reals (divide:by:), where Swift's / between integers drops the fraction"
        }
        return nil
    }

    /// Whether a comparison reads a date's part or the seconds between two dates, which
    /// neither NSPredicate nor `#Predicate` can say (`datePartsRefusal`).
    public var readsDateParts: Bool {
        reads { o in
            if case .datePart = o { return true }
            if case .arithmetic(.subtract, let l, let r) = o { return l.isDate && r.isDate }
            return false
        }
    }

    /// Whether an operand anywhere in the predicate is one `test` picks.
    private func reads(_ test: (Operand) -> Bool) -> Bool {
        func reads(_ o: Operand) -> Bool {
            if test(o) { return true }
            switch o {
            case .arithmetic(_, let l, let r): return reads(l) || reads(r)
            case .function(_, let a), .outer(let a), .datePart(_, let a): return reads(a)
            case .collection(_, _, _, let filter): return filter.map(reads) ?? false
            default: return false
            }
        }
        func reads(_ node: Node) -> Bool {
            switch node {
            case .constant, .entity: return false
            case .not(let n), .quantified(_, _, let n), .holds(let n): return reads(n)
            case .and(let ns), .or(let ns): return ns.contains(where: reads)
            case .comparison(let l, _, let r, _): return reads(l) || reads(r)
            }
        }
        return reads(root)
    }

    /// Why a predicate that reads a date's part has no Swift line: Apple's parser reads
    /// `start.year` as a key of NSDate, which has none, and `from:subtract:` takes numbers,
    /// so the app would raise.
    public static let datePartsRefusal =
        "NSPredicate and #Predicate have no date parts (start.year) or date differences (end - start); compare the dates with a range, as start >= %@ AND start < %@"

    /// `NSPredicate(format:)` with the format Apple's parser takes; UUIDs go as `NSUUID`
    /// arguments, as an app must pass them (a UUID attribute never equals a string).
    public var nsPredicateCode: String {
        let uuids = SwiftPredicateWriter.uuidTexts(root)
        var arguments: [String] = []
        let format = sourceWithDates.appleFormat(
            placeholder: { value in
                // A date goes as an app passes one, a `%@` argument, its instant said in a
                // comment, rather than as CAST(378691200.0, "NSDate") in the format (trial 30).
                if case .date(let seconds) = value, seconds.isFinite {
                    let since = seconds - referenceDateOffset
                    let written = since == since.rounded() && abs(since) < 1e15 ? String(Int64(since)) : "\(since)"
                    arguments.append("Date(timeIntervalSinceReferenceDate: \(written)) /* \(Value.iso8601(seconds)) */ as NSDate")
                    return "%@"
                }
                guard case .text(let s) = value, uuids.contains(s.uppercased()), let uuid = SwiftPredicateWriter.uuidLiteral(s) else { return nil }
                arguments.append(uuid + " as NSUUID")
                return "%@"
            },
            object: { reference in
                // The app passes the object itself; the name stands for the app's own variable,
                // so pasted code that has none says so when it compiles.
                let entity = reference.object.entity.name
                let name = SwiftModelSource.identifier(entity.prefix(1).lowercased() + entity.dropFirst())
                arguments.append(name)
                return "%@"
            })
        return "NSPredicate(format: " + ([swiftRawStringLiteral(format)] + arguments).joined(separator: ", ") + ")"
    }
}
