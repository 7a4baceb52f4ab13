import QuarryPredicates
import QuarryStore
import SwiftOperators
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax

/// A Swift `#Predicate` read into Quarry's predicate tree, the one an NSPredicate format
/// string parses into (`PredicateParser`), so binding, SQL, explain, observers and the
/// differential tests treat both alike. Swift's own parser (swift-syntax) reads the text;
/// this maps the forms swift-foundation's macro takes, the ones `p:swift()` writes among
/// them: comparisons, `&&`/`||`/`!`, key paths with `?.` and `!`, `flatMap { } ?? Bool`,
/// `contains(where:)`, `allSatisfy`, `filter { }.count`, `.count`, `.isEmpty`,
/// `contains(_:)`, `starts(with:)`, `localizedStandardContains`,
/// `caseInsensitiveCompare(_:) == .orderedSame`, `[...].contains(x)`, `(a...b).contains(x)`,
/// arithmetic but `/`. Names the closure does not bind are captured values, looked up by
/// name. Anything else is refused in one line with its column.
public enum SwiftPredicateReader {
    /// What a `#Predicate` was read into: the type named in `<...>` (nil when none) and
    /// the predicate.
    public struct Read: Equatable {
        public var typeName: String?
        public var predicate: Predicate
    }

    /// Whether `text` is a Swift `#Predicate` rather than a format string: it starts
    /// with `#Predicate` followed by `<` and a type and `>`, or by `{`; or with `let name`
    /// followed by `:` or `=` (the captured values `p:swift()` writes before its macro).
    /// No format string starts so: `#Predicate` there is a key, which no `{` or `< T > {`
    /// may follow, and no key follows the key `let`.
    public static func isSwift(_ text: String) -> Bool {
        var rest = Substring(text).drop(while: \.isWhitespace)
        if rest.hasPrefix("let"), rest.dropFirst(3).first?.isWhitespace == true {
            let afterName = rest.dropFirst(3).drop(while: \.isWhitespace).drop { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "`" }
            return afterName.drop(while: \.isWhitespace).first.map { $0 == ":" || $0 == "=" } ?? false
        }
        guard rest.hasPrefix("#Predicate") else { return false }
        rest = rest.dropFirst("#Predicate".count).drop(while: \.isWhitespace)
        if rest.hasPrefix("{") { return true }
        guard rest.hasPrefix("<"), let close = rest.firstIndex(of: ">") else { return false }
        let type = rest[rest.index(after: rest.startIndex)..<close].filter { !$0.isWhitespace }
        guard let first = type.first, first.isLetter || first == "_",
              type.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) else { return false }
        return rest[rest.index(after: close)...].drop(while: \.isWhitespace).hasPrefix("{")
    }

    /// Reads `source`: `#Predicate<T> { x in ... }`, optionally after `let`s of the values
    /// it captures (literals, `Date(timeIntervalSinceReferenceDate:)`, `UUID(uuid:)`,
    /// `Data([...])`, arrays), and optionally itself a `let`'s value; `captures` gives the
    /// values of other names it captures.
    public static func read(_ source: String, captures given: [String: PredicateArgument]) throws -> Read {
        let columns = SourceColumns(source)
        let parsed = Parser.parse(source: source)
        if let diagnostic = ParseDiagnosticsGenerator.diagnostics(for: parsed).first {
            throw PredicateError("Swift: \(diagnostic.message)", column: columns.column(of: diagnostic.position))
        }
        let file: SourceFileSyntax
        do {
            guard let folded = try OperatorTable.standardOperators.foldAll(parsed).as(SourceFileSyntax.self) else {
                throw PredicateError("Swift: not a #Predicate", column: 1)
            }
            file = folded
        } catch let error as OperatorError {
            throw PredicateError("Swift: \(error.message)", column: columns.column(of: error.asDiagnostic.position))
        }
        var translator = SwiftPredicateTranslator(columns: columns, captures: given)
        var macro: (any FreestandingMacroExpansionSyntax)?
        for item in file.statements {
            if macro != nil { throw PredicateError("nothing may follow the #Predicate", column: columns.column(of: item)) }
            if let declaration = item.item.as(VariableDeclSyntax.self) {
                guard declaration.bindingSpecifier.tokenKind == .keyword(.let), declaration.bindings.count == 1, let binding = declaration.bindings.first,
                      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value else {
                    throw PredicateError("before the #Predicate, only lets of the values it captures: let name = value", column: columns.column(of: declaration))
                }
                if let expansion = value.asProtocol(FreestandingMacroExpansionSyntax.self) { macro = expansion; continue }
                translator.capture(SwiftPredicateTranslator.unescaped(name), try translator.constant(value))
            } else if let expansion = item.item.asProtocol(FreestandingMacroExpansionSyntax.self) {
                macro = expansion
            } else if let expression = item.item.as(ExprSyntax.self), let expansion = expression.asProtocol(FreestandingMacroExpansionSyntax.self) {
                macro = expansion
            } else {
                throw PredicateError("expected #Predicate<Entity> { object in ... }", column: columns.column(of: item))
            }
        }
        guard let macro, macro.macroName.text == "Predicate" else {
            throw PredicateError("expected #Predicate<Entity> { object in ... }", column: columns.column(of: macro.map { Syntax($0) } ?? Syntax(file)))
        }
        var typeName: String?
        if let generic = macro.genericArgumentClause {
            guard generic.arguments.count == 1, let argument = generic.arguments.first else {
                throw PredicateError("#Predicate takes one type, the entity's", column: columns.column(of: generic))
            }
            typeName = argument.argument.trimmedDescription
        }
        guard macro.arguments.isEmpty, macro.additionalTrailingClosures.isEmpty, let closure = macro.trailingClosure else {
            throw PredicateError("#Predicate takes one closure, as #Predicate<Entity> { object in ... }", column: columns.column(of: macro))
        }
        let predicate = try translator.closureBody(closure, scope: .root, parameterCount: 1) { translator, body in
            try translator.predicate(body)
        }
        return Read(typeName: typeName, predicate: predicate)
    }
}

/// Columns as Quarry's predicate errors count them: characters from 1, over the whole
/// text (the REPL's caret reads the text as one line).
struct SourceColumns {
    let source: String
    init(_ source: String) { self.source = source }

    func column(of position: AbsolutePosition) -> Int {
        let utf8 = source.utf8
        let offset = min(max(0, position.utf8Offset), utf8.count)
        let index = utf8.index(utf8.startIndex, offsetBy: offset)
        return source.distance(from: source.startIndex, to: index) + 1
    }

    func column(of node: some SyntaxProtocol) -> Int { column(of: node.positionAfterSkippingLeadingTrivia) }
}
