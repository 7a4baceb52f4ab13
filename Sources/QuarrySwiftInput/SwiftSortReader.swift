import QuarryPredicates
import QuarrySwiftReading
import SwiftParser
import SwiftSyntax

extension SwiftSortReader {
    /// Reads `source` as sort keys; a form it does not take is refused with its column.
    public static func read(_ source: String) throws -> [Key] {
        let columns = SourceColumns(source)
        do { try SwiftNestingScan.check(source, columns: columns) } catch let error as PredicateError { throw error.given(as: "sort") }
        var parser = Parser(source, maximumNestingLevel: PredicateParser.maximumDepth + 1)
        let parsed = ExprSyntax.parse(from: &parser)
        func refuse(_ message: String, _ node: some SyntaxProtocol) -> PredicateError {
            PredicateError(.unsupported, message, column: columns.column(of: node)).given(as: "sort")
        }
        do { try SwiftPredicateReader.throwFirstSyntaxError(parsed, columns: columns) } catch let error as PredicateError {
            throw error.given(as: "sort")
        }
        func keyPath(_ node: ExprSyntax) throws -> String {
            guard let path = node.as(KeyPathExprSyntax.self) else { throw refuse("expected a key path such as \\.name", node) }
            var names: [String] = []
            for component in path.components {
                switch component.component {
                case .property(let property): names.append(SwiftPredicateTranslator.unescaped(property.declName.baseName.text))
                case .optional: continue
                default: throw refuse("a sort key path names properties only", component)
                }
            }
            guard !names.isEmpty else { throw refuse("a sort key path names at least one property", path) }
            return names.joined(separator: ".")
        }
        func key(_ node: ExprSyntax) throws -> Key {
            if node.is(KeyPathExprSyntax.self) { return Key(key: try keyPath(node), ascending: true, comparator: nil) }
            guard let call = node.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription == "SortDescriptor",
                let first = call.arguments.first, first.label == nil
            else {
                throw refuse("expected \\.key or SortDescriptor(\\.key, order: .reverse)", node)
            }
            // Foundation's SortDescriptor of a String key path compares `.localizedStandard`
            // unless told otherwise; a bare key path (`\.name`) sorts as Comparable does.
            var result = Key(key: try keyPath(first.expression), ascending: true, comparator: Key.stringDefault)
            for argument in call.arguments.dropFirst() {
                let choice = argument.expression.as(MemberAccessExprSyntax.self).flatMap { $0.base == nil ? $0.declName.baseName.text : nil }
                switch (argument.label?.text, choice) {
                case ("order", "forward"?): result.ascending = true
                case ("order", "reverse"?): result.ascending = false
                case ("comparator", "localizedStandard"?): result.comparator = "localizedStandard"
                case ("comparator", "localized"?): result.comparator = "localized"
                case ("comparator", "lexical"?): result.comparator = nil
                default:
                    throw refuse(
                        "SortDescriptor's \(argument.label?.text ?? "argument") is read as order: .forward/.reverse or comparator: .localizedStandard/.lexical",
                        argument)
                }
            }
            return result
        }
        if let array = parsed.as(ArrayExprSyntax.self) { return try array.elements.map { try key($0.expression) } }
        return [try key(parsed)]
    }
}
