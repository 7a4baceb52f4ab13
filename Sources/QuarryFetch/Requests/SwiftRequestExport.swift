import QuarryModel
import QuarryModelFiles
import QuarryPredicates
import QuarryStore

/// The Swift an app writes for a whole request (issue #27 part 1).
public enum SwiftRequestStyle: String, CaseIterable, Sendable {
    /// SwiftUI's `@FetchRequest` over Core Data.
    case fetchRequest = "fetchrequest"
    /// SwiftUI's `@SectionedFetchRequest` over Core Data.
    case sectioned
    /// SwiftData's `@Query`.
    case query
    /// SwiftData's `FetchDescriptor`, fetched with a `ModelContext`.
    case descriptor
    /// Core Data's `NSFetchRequest`, with an `NSFetchedResultsController` for sections.
    case nsFetchRequest = "nsfetchrequest"

    /// The style that fits the store: `@Query` for a SwiftData store (`default.store`) or
    /// Quarry's own (prototyping for SwiftData, as `Item:swift()`), `@FetchRequest` or
    /// `@SectionedFetchRequest` for a Core Data store; dictionaries only `NSFetchRequest` has.
    public static func fitting(_ context: ObjectContext, sectioned: Bool, dictionaries: Bool) -> SwiftRequestStyle {
        if dictionaries { return .nsFetchRequest }
        let capabilities = context.capabilities
        let swiftData = !capabilities.contains(.appModel) || capabilities.contains(.swiftData)
        if swiftData { return .query }
        return sectioned ? .sectioned : .fetchRequest
    }
}

/// Writes a request as Swift in one style. A part the style cannot say is named on a
/// `// not expressed:` line with the reason, never left out silently.
public struct SwiftRequestExport {
    let request: FetchRequest
    let dictionary: DictionaryRequest?
    let context: ObjectContext
    let entity: EntityDescription
    /// The Swift class of the entity (its class name in a Core Data model).
    let typeName: String
    let type: String
    /// The property names the generated classes give the model's keys.
    let names: SwiftNames

    /// Quarry's default batch size, which a request that sets none has.
    static let defaultBatchSize = 200

    public init(_ request: FetchRequest, dictionary: DictionaryRequest? = nil, in context: ObjectContext) throws {
        self.request = dictionary?.base ?? request
        self.dictionary = dictionary
        self.context = context
        entity = try context.entity(named: self.request.entityName)
        typeName = SwiftModelSource.typeName(of: entity.name, in: context.appModel)
        names = SwiftNames(model: CoreDataModel(of: context))
        type = names.type(of: entity.name)
    }

    public func code(style: SwiftRequestStyle? = nil) throws -> String {
        let style = style ?? .fitting(context, sectioned: request.sectionKey != nil, dictionaries: dictionary != nil)
        var out = Output()
        if let key = try request.subentityOnlyKeys(in: context).first {
            out.refuse("'\(key)'", "a key of \(entity.name)'s sub-entities only: Core Data refuses it (keypath not found in entity)")
            return out.text
        }
        if dictionary != nil, style != .nsFetchRequest {
            out.refuse(
                "dictionaries", "the \(style.rawValue) style fetches objects (the nsfetchrequest style has resultType = .dictionaryResultType)")
            return out.text
        }
        switch style {
        case .fetchRequest, .sectioned: try swiftUI(style, &out)
        case .query, .descriptor: try swiftData(style, &out)
        case .nsFetchRequest: try nsFetchRequest(&out)
        }
        return out.text
    }

    /// Lines of code and the lines naming what they leave out, which come first.
    struct Output {
        var notes: [String] = []
        var lines: [String] = []
        mutating func refuse(_ part: String, _ reason: String) { notes.append(swiftComment("not expressed: \(part): \(reason)")) }
        var text: String { (notes + lines).joined(separator: "\n") }
    }

    /// `quakes` for Quake: the name the results go by.
    private var resultsName: String {
        let base = typeName.prefix(1).lowercased() + typeName.dropFirst()
        let plural: String
        // A name already plural (`results`, as tables are often named) stays as it is,
        // as `ForeignNaming.plural` keeps it; `allResults` where it would be the type's own name.
        if base.lowercased().hasSuffix("s"), !["ss", "us", "is"].contains(where: base.lowercased().hasSuffix) {
            plural = base == typeName ? "all" + base.prefix(1).uppercased() + base.dropFirst() : base
        } else if base.hasSuffix("s") || base.hasSuffix("x") || base.hasSuffix("ch") || base.hasSuffix("sh") {
            plural = base + "es"
        } else if base.hasSuffix("y"), let before = base.dropLast().last, !"aeiou".contains(before) {
            plural = base.dropLast() + "ies"
        } else {
            plural = base + "s"
        }
        // A plain identifier, never a keyword in backticks: `_name` (the @Query's storage)
        // must be one too.
        let name = SwiftModelSource.identifier(plural)
        return name.hasPrefix("`") ? String(name.dropFirst().dropLast()) + "_" : name
    }

    /// The request's `NSPredicate(format:)`; nil, said in a note, for one that reads a
    /// date's part (`when.year == 2024`), which the app's NSPredicate would raise on, or
    /// counts a string's characters, which it cannot.
    private func nsPredicate(_ out: inout Output) throws -> String? {
        guard let predicate = try boundPredicate else { return nil }
        if let refusal = predicate.nsPredicateRefusal {
            out.refuse("predicate", refusal)
            return nil
        }
        return predicate.nsPredicateCode
    }

    private var boundPredicate: BoundPredicate? {
        get throws { try request.predicate.map { try BoundPredicate($0, entity: entity, context: context) } }
    }

    // MARK: Parts every style shares

    /// The sort, with the section key first when the results are sectioned (as Quarry
    /// sorts them: a sectioned fetch must sort by its section key first).
    private var sortKeys: [SortDescriptor] {
        var sort = request.sortDescriptors
        if let section = request.sectionKey, sort.first?.key != section {
            sort.insert(SortDescriptor(key: section), at: 0)
        }
        return sort
    }

    /// `\Quake.owner?.name` and the attribute it reaches, with whether it may be nil.
    private func keyPath(_ key: String) throws -> (text: String, attribute: AttributeDescription, optional: Bool) {
        let (steps, attribute) = try BoundPredicate.attributePath(key, in: entity, context: context)
        // Past the first to-one step the chain is optional: `\Car.owner?.name`.
        var text = "\\" + type
        var owner = entity.name
        for (i, step) in steps.enumerated() {
            text += (i == 0 ? "." : "?.") + names.property(step.relationship.name, of: owner)
            owner = step.destination.name
        }
        text += (steps.isEmpty ? "." : "?.") + names.property(attribute.name, of: owner)
        return (text, attribute, !steps.isEmpty || attribute.isOptional)
    }

    /// Whether the model declares the attribute `key` reaches as Float.
    private func reachesFloat(_ key: String) throws -> Bool {
        let (steps, attribute) = try BoundPredicate.attributePath(key, in: entity, context: context)
        return names.isFloat(attribute.name, of: steps.last?.destination.name ?? entity.name)
    }

    /// `SortDescriptor(\Quake.time, order: .reverse)`; nil (named in `out`) for what
    /// `SortDescriptor` cannot sort.
    private func sortDescriptor(_ sort: SortDescriptor, _ out: inout Output) throws -> String? {
        let (path, attribute, _) = try keyPath(sort.key)
        var arguments = [path]
        switch attribute.type {
        case .bool, .binary, .json:
            out.refuse(
                "sort by '\(sort.key)'",
                "SortDescriptor needs a Comparable value and \(attribute.type.rawValue) is not (the nsfetchrequest style sorts by it)")
            return nil
        case .string where attribute.enumeration != nil:
            // A server's enum sorts by its labels' order; Swift's String by its characters.
            let labels = attribute.enumeration?.shownLabels ?? ""
            out.refuse(
                "sort by '\(sort.key)'",
                "it is of enum \(attribute.enumeration?.name ?? ""), ordered \(labels): SortDescriptor would sort its String by characters")
            return nil
        case .string:
            switch sort.comparison {
            // SortDescriptor's default for strings is .localizedStandard; Quarry's binary order is .lexical.
            case .binary: arguments.append("comparator: .lexical")
            case .localized: arguments.append("comparator: .localized")
            case .localizedStandard: arguments.append("comparator: .localizedStandard")
            case .caseInsensitive:
                out.refuse(
                    "sort by '\(sort.key)' case-insensitively",
                    "SortDescriptor has no case-insensitive comparator (the nsfetchrequest style has caseInsensitiveCompare:)")
                return nil
            }
        default: break
        }
        if !sort.ascending { arguments.append("order: .reverse") }
        return "SortDescriptor(" + arguments.joined(separator: ", ") + ")"
    }

    private func sortDescriptors(_ out: inout Output) throws -> String {
        "[" + (try sortKeys.compactMap { try sortDescriptor($0, &out) }).joined(separator: ", ") + "]"
    }

    /// Options only NSFetchRequest takes, named for the styles without them.
    private func refuseRequestOptions(_ style: SwiftRequestStyle, _ out: inout Output, limits: Bool) {
        let name = "the \(style.rawValue) style"
        if limits {
            if let limit = request.limit, limit > 0 {
                out.refuse("limit \(limit)", "\(name) has no fetch limit (the query, descriptor and nsfetchrequest styles have)")
            }
            if request.offset > 0 {
                out.refuse("offset \(request.offset)", "\(name) has no fetch offset (the query, descriptor and nsfetchrequest styles have)")
            }
        }
        if request.batchSize != Self.defaultBatchSize {
            out.refuse("batch \(request.batchSize)", "\(name) has no batch size (the nsfetchrequest style has fetchBatchSize)")
        }
        if !request.includesSubentities {
            out.refuse("subentities = false", "\(name) always includes sub-entities (the nsfetchrequest style has includesSubentities)")
        }
    }

    // MARK: SwiftUI over Core Data

    private func swiftUI(_ style: SwiftRequestStyle, _ out: inout Output) throws {
        refuseRequestOptions(style, &out, limits: true)
        if !request.prefetch.isEmpty {
            out.refuse("prefetch", "the \(style.rawValue) style has no relationshipKeyPathsForPrefetching (the nsfetchrequest style has)")
        }
        if !request.includesPendingChanges {
            out.refuse("includesPendingChanges = false", "the \(style.rawValue) style always includes pending changes")
        }
        var arguments: [String] = []
        var wrapper = "@FetchRequest"
        var resultsType = "FetchedResults<\(type)>"
        if style == .sectioned {
            guard let section = request.sectionKey else {
                out.refuse("sections", "the results have no section key: the sectioned style needs one (section = \"key\")")
                return
            }
            let (path, attribute, optional) = try keyPath(section)
            // A Float attribute (kept as a double) is a `Float` property in the classes.
            let declared = try reachesFloat(section) && attribute.type == .double ? "Float" : SwiftModelSource.swiftType(of: attribute)
            guard let swiftType = declared, attribute.type != .binary else {
                out.refuse("section = '\(section)'", "a \(attribute.type.rawValue) is no section identifier")
                return
            }
            let sectionType = swiftType + (optional ? "?" : "")
            wrapper = "@SectionedFetchRequest<\(sectionType), \(type)>"
            resultsType = "SectionedFetchResults<\(sectionType), \(type)>"
            arguments.append("sectionIdentifier: \(path)")
        } else if let section = request.sectionKey {
            out.refuse("section = '\(section)'", "@FetchRequest has no sections (the sectioned style has)")
        }
        arguments.append("sortDescriptors: " + (try sortDescriptors(&out)))
        if let predicate = try nsPredicate(&out) { arguments.append("predicate: " + predicate) }
        arguments.append("animation: .default")
        out.lines.append("\(wrapper)(\(arguments.joined(separator: ", ")))")
        out.lines.append("private var \(resultsName): \(resultsType)")
    }

    // MARK: SwiftData

    private func swiftData(_ style: SwiftRequestStyle, _ out: inout Output) throws {
        // Both take a limit and an offset: @Query through a FetchDescriptor.
        refuseRequestOptions(style, &out, limits: false)
        if let section = request.sectionKey {
            out.refuse("section = '\(section)'", "SwiftData has no sections: group the sorted array by \(try keyPath(section).text)")
        }
        let name = resultsName
        var captures: [String] = []
        var filter: String?
        if let predicate = try boundPredicate {
            do {
                let macro = try predicate.swiftPredicateMacro(
                    typeName: typeName, reserved: [name, "predicate", "descriptor", "modelContext"], names: names)
                captures = macro.captures
                filter = macro.macro
            } catch let refusal as SwiftExportRefusal {
                out.refuse("predicate \(predicate.source.description)", "#Predicate: " + refusal.reason)
            }
        }
        let sort = try sortDescriptors(&out)
        // Outside the attribute form the macro gets a statement of its own: as an argument
        // of a generic initializer it can take the type checker longer than it allows.
        let statements = captures + (filter.map { ["let predicate = " + $0] } ?? [])
        var descriptorLines: [String] = []
        if style == .descriptor || request.limit.map({ $0 > 0 }) == true || request.offset > 0 || !request.prefetch.isEmpty
            || !request.includesPendingChanges
        {
            var arguments: [String] = []
            if filter != nil { arguments.append("predicate: predicate") }
            arguments.append("sortBy: " + sort)
            descriptorLines.append("var descriptor = FetchDescriptor<\(type)>(\(arguments.joined(separator: ", ")))")
            if let limit = request.limit, limit > 0 { descriptorLines.append("descriptor.fetchLimit = \(limit)") }
            if request.offset > 0 { descriptorLines.append("descriptor.fetchOffset = \(request.offset)") }
            if !request.includesPendingChanges { descriptorLines.append("descriptor.includePendingChanges = false") }
            if !request.prefetch.isEmpty {
                let paths = try request.prefetch.map { key -> String in
                    guard let relationship = entity.relationship(named: key) else {
                        throw FetchError.invalid("prefetch: '\(key)' is not a relationship of \(entity.name)")
                    }
                    return "\\\(type).\(names.property(relationship.name, of: entity.name))"
                }
                descriptorLines.append("descriptor.relationshipKeyPathsForPrefetching = [\(paths.joined(separator: ", "))]")
            }
            // Nothing set after it: a `let`, or Swift warns that the var is never mutated.
            if descriptorLines.count == 1 { descriptorLines[0] = "let" + descriptorLines[0].dropFirst(3) }
        }
        if style == .descriptor {
            out.lines += statements + descriptorLines + ["let \(name) = try modelContext.fetch(descriptor)"]
        } else if !descriptorLines.isEmpty {
            // @Query takes a descriptor (for the limit and the rest) in the view's init.
            out.lines += ["@Query private var \(name): [\(type)]", "", "init() {"]
            out.lines += (statements + descriptorLines + ["_\(name) = Query(descriptor, animation: .default)"]).map { "    " + $0 }
            out.lines.append("}")
        } else if !captures.isEmpty {
            // Captured values are made in the view's init: a property wrapper's arguments
            // cannot use the view's own lets.
            out.lines += ["@Query private var \(name): [\(type)]", "", "init() {"]
            out.lines += (statements + ["_\(name) = Query(filter: predicate, sort: \(sort), animation: .default)"]).map { "    " + $0 }
            out.lines.append("}")
        } else {
            let arguments = (filter.map { ["filter: " + $0] } ?? []) + ["sort: " + sort, "animation: .default"]
            out.lines += ["@Query(\(arguments.joined(separator: ", ")))", "private var \(name): [\(type)]"]
        }
    }

    // MARK: Core Data's NSFetchRequest

    private func nsFetchRequest(_ out: inout Output) throws {
        let name = resultsName
        let resultType = dictionary == nil ? type : "NSDictionary"
        out.lines.append("let request = NSFetchRequest<\(resultType)>(entityName: \(swiftStringLiteral(entity.name)))")
        if let predicate = try nsPredicate(&out) { out.lines.append("request.predicate = " + predicate) }
        if let dictionary {
            try dictionaryLines(dictionary, &out)
            if !dictionary.base.sortDescriptors.isEmpty {
                out.lines.append("request.sortDescriptors = [" + dictionary.base.sortDescriptors.map(nsSortDescriptor).joined(separator: ", ") + "]")
            }
        } else {
            out.lines.append("request.sortDescriptors = [" + sortKeys.map(nsSortDescriptor).joined(separator: ", ") + "]")
        }
        if let limit = request.limit, limit > 0 { out.lines.append("request.fetchLimit = \(limit)") }
        if request.offset > 0 { out.lines.append("request.fetchOffset = \(request.offset)") }
        if dictionary == nil { out.lines.append("request.fetchBatchSize = \(request.batchSize)") }
        if !request.includesPendingChanges { out.lines.append("request.includesPendingChanges = false") }
        if !request.includesSubentities { out.lines.append("request.includesSubentities = false") }
        if !request.prefetch.isEmpty {
            out.lines.append(
                "request.relationshipKeyPathsForPrefetching = [" + request.prefetch.map(swiftStringLiteral).joined(separator: ", ") + "]")
        }
        if let section = request.sectionKey, dictionary == nil {
            out.lines.append(
                "let controller = NSFetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: \(swiftStringLiteral(section)), cacheName: nil)"
            )
            out.lines.append("try controller.performFetch()")
        } else {
            out.lines.append("let \(name) = try context.fetch(request)")
        }
    }

    private func nsSortDescriptor(_ sort: SortDescriptor) -> String {
        var arguments = ["key: " + swiftStringLiteral(sort.key), "ascending: \(sort.ascending)"]
        switch sort.comparison {
        case .binary: break
        case .caseInsensitive: arguments.append("selector: #selector(NSString.caseInsensitiveCompare(_:))")
        case .localized: arguments.append("selector: #selector(NSString.localizedCompare(_:))")
        case .localizedStandard: arguments.append("selector: #selector(NSString.localizedStandardCompare(_:))")
        }
        return "NSSortDescriptor(" + arguments.joined(separator: ", ") + ")"
    }

    /// `resultType`, `propertiesToFetch` (aggregates as `NSExpressionDescription`s),
    /// `propertiesToGroupBy`, `havingPredicate`, `returnsDistinctResults`.
    private func dictionaryLines(_ dictionary: DictionaryRequest, _ out: inout Output) throws {
        out.lines.append("request.resultType = .dictionaryResultType")
        var compiled = try CompiledRequest(FetchRequest(entityName: entity.name), context: context)
        var properties: [String] = []
        var descriptions = 0
        for property in dictionary.properties {
            let column = try ResultColumn(property, entity: entity, context: context, joins: &compiled.joins)
            let (body, alias) = ResultColumn.split(property)
            guard let call = ResultColumn.aggregateCall(body) else {
                // A key written `#first` is Core Data's "first".
                let path = SortDescriptor.unescaped(body)
                if alias == nil, (try? BoundPredicate.attributePath(path, in: entity, context: context)) != nil {
                    properties.append(swiftStringLiteral(path))
                } else {
                    out.refuse("property '\(property)'", "propertiesToFetch takes key paths and aggregates of key paths here")
                }
                continue
            }
            var argument = SortDescriptor.unescaped(call.argument)
            if ResultColumn.afterDistinct(argument) != nil {
                out.refuse("property '\(property)'", "Core Data has no count of distinct values in propertiesToFetch")
                continue
            }
            let expression: String
            if argument == "*" {
                guard call.function == "count" else {
                    out.refuse("property '\(property)'", "only count takes *")
                    continue
                }
                argument = ""
                expression = "NSExpression(forFunction: \"count:\", arguments: [NSExpression.expressionForEvaluatedObject()])"
            } else if (try? BoundPredicate.attributePath(argument, in: entity, context: context)) != nil {
                expression =
                    "NSExpression(forFunction: \"\(call.function):\", arguments: [NSExpression(forKeyPath: \(swiftStringLiteral(argument)))])"
            } else {
                out.refuse("property '\(property)'", "an aggregate of an expression: NSExpression(forFunction:) here takes a key path")
                continue
            }
            descriptions += 1
            let variable = "property\(descriptions)"
            let key = alias ?? column.keys.last ?? body
            out.lines.append("let \(variable) = NSExpressionDescription()")
            out.lines.append("\(variable).name = \(swiftStringLiteral(key))")
            out.lines.append("\(variable).expression = \(expression)")
            out.lines.append("\(variable).expressionResultType = \(Self.attributeType(column.type))")
            properties.append(variable)
        }
        out.lines.append("request.propertiesToFetch = [" + properties.joined(separator: ", ") + "]")
        if !dictionary.group.isEmpty {
            out.lines.append(
                "request.propertiesToGroupBy = [" + dictionary.group.map { swiftStringLiteral(SortDescriptor.unescaped($0)) }.joined(separator: ", ")
                    + "]")
        }
        if let having = dictionary.having {
            out.lines.append("request.havingPredicate = NSPredicate(format: \(swiftRawStringLiteral(having.appleFormat)))")
        }
        if dictionary.distinct { out.lines.append("request.returnsDistinctResults = true") }
    }

    /// Core Data's `NSAttributeType` for a result column of `type`.
    static func attributeType(_ type: AttributeType) -> String {
        switch type {
        case .string, .json: return ".stringAttributeType"
        case .int16: return ".integer16AttributeType"
        case .int32: return ".integer32AttributeType"
        case .int64: return ".integer64AttributeType"
        case .double: return ".doubleAttributeType"
        case .decimal: return ".decimalAttributeType"
        case .bool: return ".booleanAttributeType"
        case .date: return ".dateAttributeType"
        case .uuid: return ".UUIDAttributeType"
        case .binary: return ".binaryDataAttributeType"
        }
    }
}
