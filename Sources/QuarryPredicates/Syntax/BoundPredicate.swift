import QuarryModel
import QuarryStore

/// A predicate checked against one entity: key paths resolved to attributes (through
/// relationships when a context is given), constants converted to the type of what they
/// are compared with. SQL and in-memory evaluation both read this, so they see the same
/// values.
public struct BoundPredicate {
    public let entity: EntityDescription
    /// Where the entity's rows are (the store's mapping): the SQL reads its columns there.
    public let storage: EntityStorage
    public let root: Node
    /// The predicate as parsed, for formatting.
    public let source: Predicate
    /// Whether the store keeps decimals as doubles (SQLite's REAL columns,
    /// `SQLDialect.keepsDecimalsAsDoubles`): memory then reads a decimal attribute's value
    /// as that double, as the SQL reads the row, where PostgreSQL's numeric stays exact.
    public let decimalsAsDoubles: Bool

    public indirect enum Node {
        case constant(Bool)
        case comparison(lhs: Operand, op: ComparisonOperator, rhs: Operand, options: ComparisonOptions)
        case not(Node)
        case and([Node])
        case or([Node])
        /// `ANY`/`ALL`/`NONE` over a to-many relationship reached through `path` (its last
        /// step is the to-many one); `inner` is bound to the destination entity.
        case quantified(Quantifier, path: [PathStep], inner: Node)
        /// `entity.name IN {...}` over an entity with sub-entities: the object is one of
        /// `names` (its own entity, not an ancestor), whose rows the entity column marks
        /// with `tags` (`Binder+EntityName`).
        case entity(names: Set<String>, tags: [Value])
        /// The test holds, unknown counting as false: a TERNARY's test, as SQL's `CASE WHEN`
        /// and NSPredicate take the second branch where it is not true (`Binder+Conditionals`).
        case holds(Node)
    }

    public enum Operand {
        case attribute(AttributeDescription)
        /// An attribute reached through to-one relationships (`owner.name`).
        case path([PathStep], AttributeDescription)
        /// `tags.@count`, `items.@sum.price`: the last step of `path` is to-many; `filter`
        /// (SUBQUERY) keeps only the members that match it.
        case collection(CollectionFunction, path: [PathStep], AttributeDescription?, filter: BoundPredicate.Node? = nil)
        case value(Value)
        /// The right side of IN and BETWEEN.
        case list([Value])
        /// `a + b` and the rest, computed by `ExpressionValues` in SQL and in memory.
        indirect case arithmetic(ArithmeticOperator, Operand, Operand)
        /// `abs:(x)`, `lowercase:(s)` and the other one-argument functions.
        indirect case function(BuiltinFunction, Operand)
        /// An operand of the object the predicate tests, met inside ANY/ALL/NONE, whose
        /// comparison is otherwise read from each member: in `ANY reports.hireDate <
        /// hireDate` the right side is the object's own, as `NSComparisonPredicate`
        /// evaluates both of its expressions against the object and the quantifier applies
        /// to the collection on the left only.
        indirect case outer(Operand)
        /// A part of a date (`start.year`, `start.date`): of an attribute or a key path's
        /// (`DatePart`, in SQL `SQLDialect.datePart`).
        indirect case datePart(DatePart, Operand)

        /// The attribute whose type constants are converted to.
        var typeAttribute: AttributeDescription? {
            switch self {
            case .attribute(let a), .path(_, let a): return a
            case .collection(let f, _, let a, _):
                switch f {
                case .count: return AttributeDescription(name: "@count", type: .int64, isOptional: true)
                case .avg: return AttributeDescription(name: "@avg", type: .double, isOptional: true)
                default:
                    return a.map {
                        AttributeDescription(
                            name: "@\(f.rawValue).\($0.name)", type: $0.type == .int16 || $0.type == .int32 ? .int64 : $0.type, isOptional: true)
                    }
                }
            case .function(let f, _) where f.isString: return AttributeDescription(name: f.selector + "(...)", type: .string, isOptional: true)
            case .outer(let o): return o.typeAttribute
            case .datePart(let part, let date):
                return AttributeDescription(name: (date.typeAttribute?.name ?? "date") + "." + part.rawValue, type: part.type, isOptional: true)
            default: return nil
            }
        }

        /// True when its values are dates: a date attribute's, a date constant's, a date's day.
        var isDate: Bool {
            if case .value(let v) = self, case .date = v { return true }
            return typeAttribute?.type == .date
        }

        /// The enum whose labels its values are and whose order orders them: an enum
        /// attribute's, reached through to-ones too, and @min and @max of one (`EnumLabels`).
        public var enumeration: EnumLabels? {
            switch self {
            case .attribute(let a), .path(_, let a): return a.enumeration
            case .collection(let f, _, let a, _): return f == .min || f == .max ? a?.enumeration : nil
            case .outer(let o): return o.enumeration
            default: return nil
            }
        }

        /// True for arithmetic and numeric functions, whose answer is a number of no
        /// attribute's type.
        var isComputedNumber: Bool {
            switch self {
            case .arithmetic: return true
            case .function(let f, _): return !f.isString
            case .outer(let o): return o.isComputedNumber
            default: return false
            }
        }
    }

    public enum CollectionFunction: String { case count, sum, avg, min, max }

    /// A key path to an attribute, possibly through to-one relationships (for sort keys):
    /// the relationships crossed and the attribute at the end.
    public static func attributePath(_ path: String, in entity: EntityDescription, context: ObjectContext?) throws -> (
        [PathStep], AttributeDescription
    ) {
        let reached = try keyPathValue(path, in: entity, context: context)
        guard reached.part == nil else {
            throw PredicateError(.unsupported, "'\(path)' is a part of a date, which Swift's key paths do not name", column: nil)
        }
        return (reached.steps, reached.attribute)
    }

    /// A key path to an attribute, possibly through to-one relationships, or to a part of
    /// a date attribute (`time_hour.month`, `DatePart`): what sort and section keys name.
    /// `role` names the option the key was given as (`sort`, `section`) in an error.
    public static func keyPathValue(_ path: String, in entity: EntityDescription, context: ObjectContext?, role: String = "predicate") throws -> (
        steps: [PathStep], attribute: AttributeDescription, part: DatePart?
    ) {
        let components = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        do {
            switch try Binder(context: context).operand(.keyPath(KeyPath(components, column: 1)), entity) {
            case .attribute(let a): return ([], a, nil)
            case .path(let steps, let a): return (steps, a, nil)
            case .datePart(let part, .attribute(let a)): return ([], a, part)
            case .datePart(let part, .path(let steps, let a)): return (steps, a, part)
            default:
                // `orders.@count`: a value of each object, but computed over its to-many,
                // which a dictionary request computes and sorts by in SQL.
                // The request offered names each row too (its id, else a text): pasted, a
                // bare column of counts said which order had them no more.
                // `title.length` likewise: a value computed from an attribute, which a
                // predicate takes and properties compute; "does not name an attribute" sent
                // a person looking for a key they had spelled right (trial 22).
                let named = entity.attributes.first { $0.name.lowercased() == "id" } ?? entity.attributes.first { $0.type == .string }
                let shown = named.map { "\"\($0.name)\", " } ?? ""
                let from = path.contains("@") ? "over a to-many" : "from an attribute"
                let grouped = path.contains("@") ? " or in a grouped fetch" : ""
                throw PredicateError(
                    .unsupported,
                    "'\(path)' is computed \(from), not an attribute, so \(role) does not take it; compute it in properties "
                        + "(fetch{ \"\(entity.name)\", properties = { \(shown)\"\(path) AS n\" }, sort = \"-n\" })\(grouped)",
                    column: nil)
            }
        } catch let error as PredicateError {
            throw error.given(as: role)
        }
    }

    /// Resolves `predicate` against `entity`; unknown keys and values of the wrong type
    /// are errors that name the column. Key paths through relationships need `context`,
    /// which knows the other entities and where links are kept.
    public init(_ predicate: Predicate, entity: EntityDescription, context: ObjectContext? = nil) throws {
        self.entity = entity
        self.storage = StoreMapping.storage(of: entity, in: context)
        self.source = predicate
        self.decimalsAsDoubles = context?.sqlDialect.keepsDecimalsAsDoubles ?? false
        self.root = try Binder(context: context).bind(predicate, entity)
        // SQLite's parser has a small stack (100 entries): a predicate nested much deeper
        // than any written by hand would fail in SQL with "parser stack overflow" while
        // `matches` answers (found by fuzzing), so it is refused here for both.
        if Self.nesting(root) > Self.maximumNesting {
            throw PredicateError(
                .tooDeep,
                "the predicate nests NOT, AND, OR, ANY/ALL/NONE, SUBQUERY and relationships more than \(Self.maximumNesting) levels deep, more than SQLite takes",
                column: 1)
        }
    }

    static let maximumNesting = 16

    /// How deeply the SQL for `node` nests expressions and subqueries.
    static func nesting(_ node: Node) -> Int {
        func operand(_ o: Operand) -> Int {
            switch o {
            case .path(let steps, _): return steps.count
            case .collection(_, let path, _, let filter): return path.count + 1 + (filter.map(nesting) ?? 0)
            case .arithmetic(_, let l, let r): return 1 + max(operand(l), operand(r))
            case .function(_, let a): return 1 + operand(a)
            case .outer(let o): return operand(o)
            case .datePart(_, let date): return 1 + operand(date)
            default: return 0
            }
        }
        switch node {
        case .constant, .entity: return 0
        case .comparison(let lhs, _, let rhs, _): return max(operand(lhs), operand(rhs))
        case .not(let n), .holds(let n): return 1 + nesting(n)
        case .and(let ns), .or(let ns): return 1 + (ns.map(nesting).max() ?? 0)
        case .quantified(_, let path, let inner): return path.count + 1 + nesting(inner)
        }
    }
}

/// One relationship crossed by a key path.
public struct PathStep {
    public let relationship: RelationshipDescription
    public let storage: RelationshipStorage
    public let destination: EntityDescription
    /// Where the destination's rows are (the store's mapping).
    public let destinationStorage: EntityStorage
    /// True where SQLite's join on the link converts the destination's column before it
    /// compares (`ColumnAffinity.convertsInJoin`: an INTEGER link column to a TEXT one):
    /// then no declared uniqueness, nor the data's, makes the link match one row.
    public let convertsDestination: Bool
}

extension EntityStorage {
    /// The key column as an attribute, so `owner == nil` reads the related row's key.
    var keyAttribute: AttributeDescription { AttributeDescription(name: keyColumn, type: .int64, isOptional: true) }
}

extension BoundPredicate {
    /// True when the predicate reads only the entity's own columns: no key path through a
    /// relationship, no collection or subquery. Its answer for an object then changes only
    /// when that object changes.
    public var readsOnlyOwnAttributes: Bool {
        func own(_ node: Node) -> Bool {
            switch node {
            case .constant, .entity: return true
            case .not(let inner), .holds(let inner): return own(inner)
            case .and(let nodes), .or(let nodes): return nodes.allSatisfy(own)
            case .quantified: return false
            case .comparison(let lhs, _, let rhs, _): return own(lhs) && own(rhs)
            }
        }
        func own(_ operand: Operand) -> Bool {
            switch operand {
            case .attribute, .value, .list: return true
            case .path, .collection: return false
            case .arithmetic(_, let l, let r): return own(l) && own(r)
            case .function(_, let a), .datePart(_, let a): return own(a)
            case .outer: return false
            }
        }
        return own(root)
    }
}
