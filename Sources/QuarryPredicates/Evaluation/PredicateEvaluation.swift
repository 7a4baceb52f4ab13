import QuarryModel
import QuarryStore

extension BoundPredicate {
    /// Whether `object` matches, computed in memory with SQLite's rules (three-valued
    /// logic, its ordering of numbers, text and blobs), so the answer is the one a fetch
    /// gives for the same row.
    public func matches(_ object: ManagedObject) -> Bool {
        evaluate(root, object) == true
    }

    /// `outer`: the object an ANY/ALL/NONE ranges from, while `object` is one of its
    /// members; `.outer` operands read it.
    private func evaluate(_ node: Node, _ object: ManagedObject, outer: ManagedObject? = nil) -> Bool? {
        switch node {
        case .constant(let b): return b
        case .entity(let names, _): return names.contains(object.entity.name)
        case .quantified(let quantifier, let path, let inner):
            // As the SQL's EXISTS: a member whose answer is unknown counts for nothing.
            let answers = members(path, of: object).map { evaluate(inner, $0, outer: object) }
            switch quantifier {
            case .all: return !answers.contains(false)
            case .none: return !answers.contains(true)
            default: return answers.contains(true)
            }
        case .not(let n): return evaluate(n, object, outer: outer).map { !$0 }
        case .holds(let n): return evaluate(n, object, outer: outer) == true
        case .and(let ns):
            var result: Bool? = true
            for n in ns {
                switch evaluate(n, object, outer: outer) {
                case false?: return false
                case nil: result = nil
                default: break
                }
            }
            return result
        case .or(let ns):
            var result: Bool? = false
            for n in ns {
                switch evaluate(n, object, outer: outer) {
                case true?: return true
                case nil: result = nil
                default: break
                }
            }
            return result
        case .comparison(let lhs, let op, let rhs, let options):
            if op.isStringOperator {
                // A number is matched as its text, as SQLite's LIKE and Quarry's function
                // read it (a SQLite file's number column may hold text: `NumericAffinity`).
                // Text that is not UTF-8 is matched repaired (U+FFFD for each bad sequence),
                // as SQLite hands it to the same Swift (`TextFunctionsInstaller.string`);
                // it matched nothing here (issue 81).
                let asText = { (v: Value) -> String? in
                    if case .text(let s) = v { return s }
                    if case .textBytes(let bytes) = v { return String(decoding: bytes, as: UTF8.self) }
                    return NumericAffinity.text(of: v)
                }
                guard let text = asText(value(lhs, object, [], outer)), let pattern = asText(value(rhs, object, [], outer)) else {
                    return nil
                }
                return StringMatching.matches(op, text, pattern, options)
            }
            // `date == nil` tests what is stored, as its SQL does (`EntityStorage.nilTestable`):
            // text that reads as no date is a value, though no date comparison takes it.
            if op == .equal || op == .notEqual, let a = PredicateSQLWriter.nilTested(lhs, rhs) ?? PredicateSQLWriter.nilTested(rhs, lhs),
                a.type == .date
            {
                let held = (try? object.value(forKey: a.name)) ?? .null
                let present: Bool
                switch held {
                case .text, .textBytes: present = true
                default: present = !stored(held, a).isNull
                }
                return op == .equal ? !present : present
            }
            var l = value(lhs, object, options, outer)
            // An enum is ordered by its labels' places, as its SQL casts to the type.
            let enumeration = op.isOrdering ? lhs.enumeration ?? rhs.enumeration : nil
            if let enumeration { l = enumeration.orderValue(l) }
            // A column's collation (NOCASE, RTRIM), the left one's first, as SQLite picks it:
            // a left column of none compares in BINARY whatever the right one has (`s ==
            // nc`); an option ([c], [d]) reads the column through a function, which has none.
            let collation =
                options.isEmpty ? (Self.isColumn(lhs) ? self.collation(lhs, object, outer) : self.collation(rhs, object, outer)) : nil
            if let collation { l = SQLiteCollation.collated(l, collation) }
            let placed = { (v: Value) in collation.map { SQLiteCollation.collated(v, $0) } ?? enumeration?.orderValue(v) ?? v }
            switch op {
            case .in:
                guard case .list(let values) = rhs else { return false }
                if values.isEmpty { return false } // SQLite: x IN () is false, even for NULL
                if l.isNull { return nil }
                var sawNull = false
                for element in values {
                    let e = collation.map { SQLiteCollation.collated(fold(element, options), $0) } ?? fold(element, options)
                    if e.isNull { sawNull = true } else if SQLOrdering.compare(l, e) == 0 { return true }
                }
                return sawNull ? nil : false
            case .between:
                guard case .list(let bounds) = rhs, bounds.count == 2 else { return false }
                let low = SQLOrdering.compare(l, placed(fold(bounds[0], options))).map { $0 >= 0 }
                let high = SQLOrdering.compare(l, placed(fold(bounds[1], options))).map { $0 <= 0 }
                if low == false || high == false { return false }
                return (low == nil || high == nil) ? nil : true
            default:
                break
            }
            return Self.compare(l, op, placed(value(rhs, object, options, outer)))
        }
    }

    /// Whether SQLite reads `operand` as a column, whose collation (BINARY when it
    /// declares none) then decides a comparison it stands left in.
    private static func isColumn(_ operand: Operand) -> Bool {
        switch operand {
        case .attribute, .path: return true
        case .outer(let o): return isColumn(o)
        default: return false
        }
    }

    /// The collation SQLite compares `operand` with when it reads a column that has one
    /// of its own (`EntityStorage.columnCollations`); nil otherwise.
    private func collation(_ operand: Operand, _ object: ManagedObject, _ outer: ManagedObject?) -> String? {
        switch operand {
        case .attribute(let a): return StoreMapping.storage(of: object.entity, in: object.managedObjectContext).columnCollations[a.name]
        case .path(let steps, let a): return steps.last?.destinationStorage.columnCollations[a.name]
        case .outer(let o): return outer.flatMap { collation(o, $0, nil) }
        default: return nil
        }
    }

    /// `l op r` for an equality or an order, as SQLite compares (nil equals nil; an
    /// order with nil is unknown): the evaluator's answer, and the SQL compiler's for two
    /// constants.
    static func compare(_ l: Value, _ op: ComparisonOperator, _ r: Value) -> Bool? {
        switch op {
        case .equal: return SQLOrdering.compare(l, r) == 0 || (l.isNull && r.isNull)
        case .notEqual: return !(SQLOrdering.compare(l, r) == 0 || (l.isNull && r.isNull))
        default:
            guard let order = SQLOrdering.compare(l, r) else { return nil }
            switch op {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            default: return nil
            }
        }
    }

    /// The object at the end of a to-one path, or nil where a link is missing.
    private func follow(_ steps: [PathStep], from object: ManagedObject) -> ManagedObject? {
        var current: ManagedObject? = object
        for step in steps {
            guard let here = current, let context = here.managedObjectContext else { return nil }
            current = try? context.relatedObject(step.relationship.name, of: here)
        }
        return current
    }

    /// The members of the to-many relationship at the end of `path`.
    private func members(_ path: [PathStep], of object: ManagedObject) -> [ManagedObject] {
        guard let last = path.last, let owner = follow(Array(path.dropLast()), from: object),
            let context = owner.managedObjectContext
        else { return [] }
        return (try? context.relatedObjects(last.relationship.name, of: owner)) ?? []
    }

    /// An attribute's value as the row holds it: an unsaved decimal, on a store that keeps
    /// decimals as doubles, is the double its save writes (a save refuses one no double
    /// holds), so its comparisons and arithmetic are SQLite's.
    ///
    /// Text in a date attribute that reads as no date (a word among a file's Unix counts)
    /// is nil, as SQL compares it (`EntityStorage.comparable`: `julianday` of such text is
    /// NULL); it compared later than every date here (issue 81). So is a BLOB, which no
    /// date reading takes either.
    private func stored(_ v: Value, _ attribute: AttributeDescription?) -> Value {
        switch v {
        case .text where attribute?.type == .date, .textBytes where attribute?.type == .date,
            .blob where attribute?.type == .date:
            return .null
        case .decimal(let text) where decimalsAsDoubles: return .real(DecimalText.double(text))
        default: return v
        }
    }

    /// `v` as `quarry_fold` reads it under `options`: text that is not UTF-8 repaired
    /// first, as SQLite hands it over (`TextFunctionsInstaller.string`).
    private func fold(_ v: Value, _ options: ComparisonOptions) -> Value {
        guard !options.isEmpty else { return v }
        switch v {
        case .text(let s): return .text(PredicateFunctions.fold(s, options))
        case .textBytes(let bytes): return .text(PredicateFunctions.fold(String(decoding: bytes, as: UTF8.self), options))
        default: return v
        }
    }

    private func value(_ operand: Operand, _ object: ManagedObject, _ options: ComparisonOptions, _ outer: ManagedObject? = nil) -> Value {
        let v: Value
        switch operand {
        case .outer(let o):
            return value(o, outer ?? object, options)
        case .attribute(let a) where a.name == storage.keyColumn && object.entity.attribute(named: a.name) == nil:
            v = .integer(object.identityKey) // SELF
        case .attribute(let a): v = stored((try? object.value(forKey: a.name)) ?? .null, a)
        case .value(let value): v = value
        case .list: v = .null
        case .arithmetic(let op, let lhs, let rhs):
            let (l, r) = (value(lhs, object, [], outer), value(rhs, object, [], outer))
            // Where the store computes decimals exactly, what its SQL refuses is noted for
            // `checkedMatches` (`DecimalBounds`).
            if !decimalsAsDoubles, let log = EvaluationLog.current, log.refusal == nil, let refusal = DecimalBounds.refusal(op, l, r) {
                log.refusal = refusal
            }
            v = ExpressionValues.arithmetic(op, l, r)
        case .function(let function, let argument):
            let a = value(argument, object, [], outer)
            if !decimalsAsDoubles, let log = EvaluationLog.current, log.refusal == nil, let refusal = DecimalBounds.refusal(function, a) {
                log.refusal = refusal
            }
            v = ExpressionValues.apply(function, a)
        case .datePart(let part, let date):
            v = part.value(of: value(date, object, [], outer))
        case .path(let steps, let a):
            let target = follow(steps, from: object)
            if a.name == steps.last?.destinationStorage.keyColumn {
                // Only compared with nil: any related object, saved or not, is "not nil".
                v = target.map { .integer($0.identityKey) } ?? .null
            } else {
                v = stored(target.flatMap { try? $0.value(forKey: a.name) } ?? .null, a)
            }
        case .collection(let function, let path, let a, let filter):
            let kept = members(path, of: object).filter { member in filter.map { evaluate($0, member) == true } ?? true }
            let values = kept.map { member in stored(a.flatMap { try? member.value(forKey: $0.name) } ?? .null, a) }
            // @min and @max of an enum by its labels' order, as the server's min and max.
            if let enumeration = operand.enumeration {
                v = enumeration.label(ExpressionValues.aggregate(function, values.map(enumeration.orderValue)))
            } else {
                v = ExpressionValues.aggregate(function, values)
            }
        }
        return fold(v, options)
    }
}

/// SQL's comparison of two values of any storage class, as SQLite makes it and the
/// in-memory evaluator must agree with: NULL is unknown, numbers
/// (integers, reals, booleans, dates) compare by value, then text by bytes, then blobs.
public enum SQLOrdering {
    private static let spaces = NumberSyntaxScanner.spaces

    /// `text` as SQLite's numeric affinity reads it when it is a whole integer (spaces
    /// around allowed), else nil.
    static func integerText(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var start = 0
        var end = bytes.count
        while start < end, spaces.contains(bytes[start]) { start += 1 }
        while end > start, spaces.contains(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        return Int64(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    /// The integer SQLite's arithmetic reads from `text` (`computeNumericType`): its numeric
    /// prefix when that has neither a point nor an exponent and fits 64 bits, 0 when
    /// there is no prefix (`'7x' + 0` is 7, `'x' + 0` is 0); nil when the prefix reads as
    /// a real (`'7.5x'`, `'1e3'`, or digits past 64 bits).
    static func integerPrefix(_ text: String) -> Int64? {
        var scan = NumberSyntaxScanner(text)
        scan.skipSpaces()
        let start = scan.i
        _ = scan.take(0x2B, or: 0x2D)
        let count = scan.digits()
        let end = scan.i
        if scan.take(0x2E, or: 0x2E) != nil, count + scan.digits() > 0 { return nil }
        guard count > 0 else { return 0 }
        scan.i = end
        if scan.take(0x65, or: 0x45) != nil {
            _ = scan.take(0x2B, or: 0x2D)
            if scan.digits() > 0 { return nil }
        }
        return Int64(scan.text(start..<end))
    }

    /// The number the longest numeric prefix of `text` spells, as SQLite converts text
    /// to a real (leading spaces skipped; 0 when there is none).
    static func numericPrefix(_ text: String) -> Double {
        var scan = NumberSyntaxScanner(text)
        scan.skipSpaces()
        let start = scan.i
        _ = scan.take(0x2B, or: 0x2D)
        var count = scan.digits()
        if scan.take(0x2E, or: 0x2E) != nil { count += scan.digits() }
        guard count > 0 else { return 0 }
        var end = scan.i
        if scan.take(0x65, or: 0x45) != nil {
            _ = scan.take(0x2B, or: 0x2D)
            if scan.digits() > 0 { end = scan.i }
        }
        var literal = scan.text(start..<end)
        if literal.hasSuffix(".") { literal += "0" }
        if literal.hasPrefix(".") || literal.hasPrefix("-.") || literal.hasPrefix("+.") {
            literal = literal.replacingOccurrences(of: ".", with: "0.")
        }
        return Double(literal) ?? 0
    }

    /// Negative, zero or positive; nil when either side is NULL.
    public static func compare(_ a: Value, _ b: Value) -> Int? {
        switch (rank(a), rank(b)) {
        case (nil, _), (_, nil): return nil
        case (let x?, let y?) where x != y: return x < y ? -1 : 1
        default: break
        }
        switch (a, b) {
        case (.text(let x), .text(let y)): return bytes(Array(x.utf8), Array(y.utf8))
        // Text that is not UTF-8 compares by its bytes with any text, as SQLite's BINARY
        // collation (memcmp) compares them.
        case (.text, .textBytes), (.textBytes, .text), (.textBytes, .textBytes): return bytes(a.bytesOfText ?? [], b.bytesOfText ?? [])
        case (.blob(let x), .blob(let y)): return bytes(x, y)
        // A decimal compares exactly, as PostgreSQL compares numeric with the text bound
        // for the other side (a double's shortest text: 0.1 is 0.1).
        case (.decimal, _), (_, .decimal):
            if let x = DecimalText.exact(a), let y = DecimalText.exact(b) { return x < y ? -1 : (x > y ? 1 : 0) }
            return numbers(a, b)
        default: return numbers(a, b)
        }
    }

    private static func rank(_ v: Value) -> Int? {
        switch v {
        case .null: return nil
        case .integer, .real, .bool, .date, .decimal: return 0
        case .text, .textBytes: return 1
        case .blob: return 2
        }
    }

    private enum Number { case int(Int64), real(Double) }
    private static func number(_ v: Value) -> Number {
        switch v {
        case .integer(let i): return .int(i)
        case .bool(let b): return .int(b ? 1 : 0)
        case .real(let d), .date(let d): return .real(d)
        case .decimal(let s): return .real(Double(s) ?? 0)
        default: return .int(0)
        }
    }

    private static func numbers(_ a: Value, _ b: Value) -> Int {
        switch (number(a), number(b)) {
        case (.int(let x), .int(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.real(let x), .real(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.int(let x), .real(let y)): return -intReal(y, x)
        case (.real(let x), .int(let y)): return intReal(x, y)
        }
    }

    /// Compares a real with an integer exactly, as SQLite does (no rounding of the integer).
    private static func intReal(_ r: Double, _ i: Int64) -> Int {
        if r.isNaN { return -1 }
        if r < -9223372036854775808.0 { return -1 }
        if r >= 9223372036854775808.0 { return 1 }
        let whole = Int64(r.rounded(.down))
        if whole != i { return whole < i ? -1 : 1 }
        let fraction = r - r.rounded(.down)
        return fraction > 0 ? 1 : 0
    }

    private static func bytes(_ x: [UInt8], _ y: [UInt8]) -> Int {
        for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    }
}
