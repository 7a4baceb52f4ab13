import QuarryPredicates
import QuarryStore
import QuarrySwiftReading
import SwiftParser
import SwiftSyntax

/// A Swift `#Predicate` read into Quarry's predicate tree, the one an NSPredicate format
/// string parses into (`PredicateParser`), so binding, SQL, explain, observers and the
/// differential tests treat both alike. Swift's own parser (swift-syntax) reads the text;
/// this maps the forms swift-foundation's macro takes, the ones `p:swift()` writes among
/// them: comparisons, `&&`/`||`/`!`, key paths with `?.` and `!`, `flatMap { } ?? Bool`,
/// `contains(where:)`, `allSatisfy`, `filter { }.count`, `.count`, `.isEmpty`,
/// `contains(_:)`, `starts(with:)`, `localizedStandardContains`,
/// `caseInsensitiveCompare(_:) == .orderedSame`, `[...].contains(x)`, ranges' `contains(x)`,
/// `c ? a : b`, `(x ?? d) == y`, arithmetic with `%` and `/` by a Double constant (docs/swift.md
/// lists them all). Names the closure does not bind are captured values, looked up by
/// name. Anything else is refused in one line naming it, with its column.
extension SwiftPredicateReader {
    /// Reads `source`: `#Predicate<T> { x in ... }`, optionally after `let`s of the values
    /// it captures (literals, `Date(timeIntervalSinceReferenceDate:)`, `UUID(uuid:)`,
    /// `Data([...])`, arrays), and optionally itself a `let`'s value; `captures` gives the
    /// values of other names it captures.
    public static func read(_ source: String, captures given: [String: PredicateArgument]) throws -> Read {
        let columns = SourceColumns(source)
        let file = try parse(source, columns: columns)
        var translator = SwiftPredicateTranslator(columns: columns, captures: given)
        var macro: (any FreestandingMacroExpansionSyntax)?
        var lets: [String: Int] = [:]
        /// The let's name as captured, once: a second let of one name is refused.
        func noteLet(_ name: String, _ pattern: PatternSyntax) throws -> String {
            let captured = SwiftPredicateTranslator.unescaped(name)
            if let first = lets[captured] {
                throw PredicateError(
                    .syntax, "'\(captured)' is bound twice (first at column \(first)): each captured value has one let",
                    column: columns.column(of: pattern))
            }
            lets[captured] = columns.column(of: pattern)
            return captured
        }
        // `let predicate = NSPredicate(format: "...", ...)`, as `p:swift()` prints it before the
        // macro; or why it could not be read, which matters only where no macro follows.
        var nsPredicate: Result<Read, PredicateError>?
        // The last statement that holds a macro is the #Predicate read; a `let` of one
        // before it defines a #Predicate it may evaluate (`a.evaluate($0)`).
        let statements = Array(file.statements)
        let last = statements.lastIndex { item in
            let value = item.item.as(VariableDeclSyntax.self)?.bindings.first?.initializer?.value
            return value?.asProtocol(FreestandingMacroExpansionSyntax.self) != nil
                || item.item.asProtocol(FreestandingMacroExpansionSyntax.self) != nil
                || item.item.as(ExprSyntax.self)?.asProtocol(FreestandingMacroExpansionSyntax.self) != nil
        }
        for (index, item) in statements.enumerated() {
            if macro != nil {
                let another = item.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .pound }
                throw PredicateError(
                    another ? .unsupported : .syntax,
                    another
                        ? "a second #Predicate after the one read: one it evaluates comes before it, in a let (let a = #Predicate<T> { ... })"
                        : "nothing may follow the #Predicate",
                    column: columns.column(of: item))
            }
            if let declaration = item.item.as(VariableDeclSyntax.self) {
                guard declaration.bindingSpecifier.tokenKind == .keyword(.let), declaration.bindings.count == 1,
                    let binding = declaration.bindings.first,
                    let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value
                else {
                    throw PredicateError(
                        .syntax, "before the #Predicate, only lets of the values it captures: let name = value",
                        column: columns.column(of: declaration))
                }
                if let expansion = value.asProtocol(FreestandingMacroExpansionSyntax.self) {
                    if let last, index < last {
                        let defined = try noteLet(name, binding.pattern)
                        try translator.define(predicate: defined, expansion)
                        continue
                    }
                    macro = expansion
                    continue
                }
                if let call = nsPredicateCall(value) {
                    nsPredicate = Result { try nsPredicateRead(call, columns: columns, translator: &translator, given: given) }
                        .mapError { $0 as? PredicateError ?? PredicateError(.syntax, "\($0)", column: columns.column(of: call)) }
                    continue
                }
                let captured = try noteLet(name, binding.pattern)
                if let range = try translator.range(value) {
                    translator.ranges[captured] = range
                } else if let order = translator.comparisonResult(value) {
                    translator.orderings[captured] = order
                } else if let fields = try translator.structFields(value) {
                    translator.structs[captured] = fields
                } else {
                    var constant = try translator.constant(value)
                    // `let south: Float = 22.1`: the Float the app holds, as `Float(22.1)` reads.
                    if binding.typeAnnotation?.type.trimmedDescription == "Float", case .value(let v) = constant {
                        switch v {
                        case .real(let d): constant = .value(.real(Double(Float(d))))
                        case .integer(let n): constant = .value(.real(Double(Float(n))))
                        default: break
                        }
                    }
                    translator.capture(captured, constant)
                }
            } else if let expansion = item.item.asProtocol(FreestandingMacroExpansionSyntax.self) {
                macro = expansion
            } else if let expression = item.item.as(ExprSyntax.self), let call = nsPredicateCall(expression) {
                // `NSPredicate(format: "...", ...)` as an app writes it in place, with no let.
                nsPredicate = Result { try nsPredicateRead(call, columns: columns, translator: &translator, given: given) }
                    .mapError { $0 as? PredicateError ?? PredicateError(.syntax, "\($0)", column: columns.column(of: call)) }
            } else if let expression = item.item.as(ExprSyntax.self), let expansion = expression.asProtocol(FreestandingMacroExpansionSyntax.self) {
                macro = expansion
            } else {
                throw PredicateError(.syntax, "expected #Predicate<Entity> { object in ... }", column: columns.column(of: item))
            }
        }
        // The NSPredicate line alone reads as its format; before a #Predicate, which says the same, the macro is read.
        if macro == nil, let nsPredicate { return try nsPredicate.get() }
        guard let macro, macro.macroName.text == "Predicate" else {
            throw PredicateError(
                .syntax, "expected #Predicate<Entity> { object in ... }", column: columns.column(of: macro.map { Syntax($0) } ?? Syntax(file)))
        }
        var typeName: String?
        var typeColumn: Int?
        if let generic = macro.genericArgumentClause {
            guard generic.arguments.count == 1, let argument = generic.arguments.first else {
                throw PredicateError(
                    .unsupported,
                    "#\(SwiftPredicateTranslator.oneLine(macro.macroName.text + generic.trimmedDescription)) takes \(generic.arguments.count) inputs: Quarry reads a #Predicate of one, the entity's object (#Predicate<\(generic.arguments.first.map { $0.argument.trimmedDescription } ?? "Entity")>)",
                    column: columns.column(of: generic))
            }
            typeName = String(argument.argument.trimmedDescription.filter { !$0.isWhitespace })
            typeColumn = columns.column(of: argument)
            if let typeName, Self.isValueType(typeName) {
                throw PredicateError(
                    .unsupported,
                    "#Predicate<\(typeName)> tests \(typeName) values: Quarry reads a #Predicate of an entity's objects (#Predicate<Item>)",
                    column: typeColumn)
            }
        }
        guard macro.arguments.isEmpty, macro.additionalTrailingClosures.isEmpty, let closure = macro.trailingClosure else {
            throw PredicateError(.syntax, "#Predicate takes one closure, as #Predicate<Entity> { object in ... }", column: columns.column(of: macro))
        }
        translator.rootType = typeName
        let predicate = try translator.closureBody(closure, scope: .root, parameterCount: 1) { translator, body in
            try translator.predicate(body)
        }
        try translator.checkDistantPast(predicate)
        return Read(typeName: typeName, predicate: predicate, typeColumn: typeColumn)
    }

    /// Whether `type` is one of Swift's own value types (`String`, `[Int]`, `Dictionary<K, V>`),
    /// which no entity is named.
    static func isValueType(_ type: String) -> Bool {
        let plain: Set<String> = ["String", "Int", "Int64", "Int32", "Int16", "Double", "Float", "Bool", "Date", "UUID", "Data", "URL", "Decimal"]
        return plain.contains(type) || type.hasPrefix("[") || ["Array<", "Dictionary<", "Set<", "Optional<"].contains { type.hasPrefix($0) }
    }

    /// `NSPredicate(format: ...)`, nil for any other value.
    private static func nsPredicateCall(_ value: ExprSyntax) -> FunctionCallExprSyntax? {
        guard let call = value.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription == "NSPredicate",
            call.arguments.first?.label?.text == "format"
        else { return nil }
        return call
    }

    /// `NSPredicate(format: "...", arguments...)` as its format reads with those arguments,
    /// as `p:swift()` prints it: values Quarry reads as captured ones (literals,
    /// `UUID(uuid: ...) as NSUUID`, `Date(...) as NSDate`) or names given as captures; an
    /// object the app passes (`item`) is refused by name, as only the app has it.
    /// `#keyPath(Person.name)` is the key's text ("name"), and its type is the reading's,
    /// checked against the entity fetched as a `#Predicate<T>`'s is.
    private static func nsPredicateRead(
        _ call: FunctionCallExprSyntax, columns: SourceColumns, translator: inout SwiftPredicateTranslator, given: [String: PredicateArgument]
    ) throws -> Read {
        guard let literal = call.arguments.first?.expression.as(StringLiteralExprSyntax.self), let format = literal.representedLiteralValue else {
            throw PredicateError(
                .unsupported, "NSPredicate(format:) is read with its format as one string literal", column: columns.column(of: call))
        }
        var arguments: [PredicateArgument] = []
        var root: (type: String, column: Int, written: String)?
        for argument in call.arguments.dropFirst() {
            var value = argument.expression
            // `x as NSUUID`: the value, which the cast only bridges.
            if let sequence = value.as(SequenceExprSyntax.self), sequence.elements.count == 3,
                sequence.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true, let first = sequence.elements.first
            {
                value = first
            }
            if let name = value.as(DeclReferenceExprSyntax.self)?.baseName.text {
                guard let captured = given[SwiftPredicateTranslator.unescaped(name)] else {
                    throw PredicateError(
                        .argument,
                        "'\(name)' in NSPredicate(format:, ...) is a value of the app's: give it to predicate(format, \(name)), or as a capture",
                        column: columns.column(of: value))
                }
                arguments.append(captured)
                continue
            }
            if let keyPath = value.as(MacroExpansionExprSyntax.self), keyPath.macroName.text == "keyPath" {
                let (key, type) = try keyPathText(keyPath, columns: columns)
                if root == nil, let type { root = (type, columns.column(of: keyPath), SwiftPredicateTranslator.oneLine(keyPath.trimmedDescription)) }
                arguments.append(.value(.text(key)))
                continue
            }
            do {
                arguments.append(try translator.constant(value))
            } catch var error as PredicateError where error.message.contains("#Predicate") {
                // The translator's refusals speak of the closure; this is an argument of a format.
                error.message =
                    "\(translator.describe(value)) is no NSPredicate(format:) argument Quarry reads (#keyPath(Entity.key), \(SwiftPredicateTranslator.capturedForms))"
                throw error
            }
        }
        let predicate = try PredicateParser.parse(format, arguments: PredicateArguments(arguments: arguments, variables: given))
        return Read(typeName: root?.type, predicate: predicate, typeColumn: root?.column, keyPath: root?.written)
    }

    /// `#keyPath(Person.address.city)` as the key path it spells ("address.city") and the
    /// type it starts from ("Person"); a first name that is not capitalized is a key
    /// (`#keyPath(firstName)`, written inside the type), with no type.
    private static func keyPathText(_ keyPath: MacroExpansionExprSyntax, columns: SourceColumns) throws -> (key: String, type: String?) {
        let names = keyPath.arguments.first.map { $0.expression.trimmedDescription.filter { !$0.isWhitespace } }?.split(
            separator: ".", omittingEmptySubsequences: false)
        guard keyPath.arguments.count == 1, keyPath.trailingClosure == nil, let names, !names.isEmpty,
            names.allSatisfy({ name in
                name.first.map { $0.isLetter || $0 == "_" } == true && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            })
        else {
            throw PredicateError(
                .unsupported, "#keyPath is read as #keyPath(Entity.key) or #keyPath(Entity.relationship.key)", column: columns.column(of: keyPath))
        }
        if names.count > 1, names[0].first?.isUppercase == true { return (names.dropFirst().joined(separator: "."), String(names[0])) }
        return (names.joined(separator: "."), nil)
    }

    /// Swift's parse of `source`, after the nesting check that keeps swift-syntax's
    /// recursion and backtracking bounded; a syntax error is refused with its column.
    /// Operator sequences are left unfolded (`SwiftTerm` folds them).
    static func parse(_ source: String, columns: SourceColumns) throws -> SourceFileSyntax {
        try SwiftNestingScan.check(source, columns: columns)
        try SwiftPredicateTranslator.stopIfAsked(column: nil)
        var parser = Parser(source, maximumNestingLevel: PredicateParser.maximumDepth + 1)
        let parsed = SourceFileSyntax.parse(from: &parser)
        try SwiftPredicateTranslator.stopIfAsked(column: nil)
        try throwFirstSyntaxError(parsed, columns: columns)
        return parsed
    }

    /// The first syntax error of `tree`, refused with its column: the first token Swift's
    /// parser found missing or could not place. Not swift-syntax's own diagnostics: they
    /// take time growing with the square of the number of errors (8,000 empty operands,
    /// 43 s), and trap on some input (a Fix-It with no change, found by fuzzing).
    static func throwFirstSyntaxError(_ tree: some SyntaxProtocol, columns: SourceColumns) throws {
        guard tree.hasError else { return }
        for token in tree.tokens(viewMode: .all) {
            if token.presence == .missing {
                let text = token.text
                let message = text.isEmpty || text.hasPrefix("<#") ? "expected an expression" : "expected '\(text)'"
                throw PredicateError(.syntax, "Swift: \(message)", column: columns.column(of: token.position))
            }
            if token.parent?.kind == .unexpectedNodes || token.tokenDiagnostic?.severity == .error {
                throw PredicateError(
                    .syntax, "Swift: unexpected \(describeToken(token))", column: columns.column(of: token.positionAfterSkippingLeadingTrivia))
            }
        }
        throw PredicateError(.syntax, "Swift: the text does not parse", column: 1)
    }

    /// A token as a refusal names it: its first 20 characters, quoted.
    private static func describeToken(_ token: TokenSyntax) -> String {
        let text = token.text
        return "'" + (text.count > 20 ? String(text.prefix(20)) + "…" : text) + "'"
    }
}

/// Columns as Quarry's predicate errors count them: characters from 1, over the whole
/// text (the REPL's caret reads the text as one line). Every value read takes a column,
/// so finding one is a binary search over the characters' starts, made once (none is
/// needed for ASCII text, where a byte is a character).
struct SourceColumns {
    let source: String
    private let utf8Count: Int
    /// The UTF-8 offset at which each character starts; empty for ASCII text without "\r\n".
    private let starts: [Int]

    init(_ source: String) {
        self.source = source
        utf8Count = source.utf8.count
        if source.utf8.allSatisfy({ $0 < 0x80 }), !source.utf8.contains(0x0D) {
            starts = []
        } else {
            var starts: [Int] = []
            var offset = 0
            starts.reserveCapacity(utf8Count)
            for character in source {
                starts.append(offset)
                offset += character.utf8.count
            }
            self.starts = starts
        }
    }

    func column(ofUTF8 offset: Int) -> Int {
        let offset = min(max(0, offset), utf8Count)
        if starts.isEmpty { return offset + 1 }
        // The number of characters that start at or before `offset`.
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return offset == utf8Count ? starts.count + 1 : max(low, 1)
    }

    func column(of position: AbsolutePosition) -> Int { column(ofUTF8: position.utf8Offset) }

    func column(of node: some SyntaxProtocol) -> Int { column(of: node.positionAfterSkippingLeadingTrivia) }
}
