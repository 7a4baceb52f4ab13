import QuarryModel

/// An entity handle as a line of its keys (`entity routes { airline: string?, ...,
/// airport: one airports }`), as `tostring` gives it. At the prompt a definition wider
/// than the terminal is broken after a key's comma, continued two spaces in, where the
/// terminal broke it in the middle of a name (`destination_airport_id` / `: string?`).
extension QuarryRuntime {
    /// The definition; `width` > 0 wraps it to that many columns.
    func entityDefinition(_ name: String, width: Int = 0) -> String {
        guard let entity = try? context.entity(named: name) else { return "entity \(name) (gone)" }
        let attributes = entity.attributes.map { "\($0.name): \($0.type.rawValue)\($0.isOptional ? "?" : "")" }
        let relationships = entity.relationships.map { "\($0.name): \($0.isToMany ? "many" : "one") \($0.destination)" }
        let keys = (attributes + relationships).map(ErrorRendering.escaped)
        let head = "entity \(ErrorRendering.escaped(name)) {"
        let line = head + " " + keys.joined(separator: ", ") + " }"
        guard width > 0, line.count > width else { return line }
        var lines: [String] = []
        var current = head
        for (i, key) in keys.enumerated() {
            let piece = key + (i == keys.count - 1 ? " }" : ",")
            if current.count + 1 + piece.count > width, current.count > 2 {
                lines.append(current)
                current = "  " + piece
            } else {
                current += " " + piece
            }
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }
}
