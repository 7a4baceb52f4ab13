import QuarryModel
/// What a Core Data attribute keeps in its entity's table. A plain attribute keeps one
/// column; a composite (SwiftData's `Codable` struct or enum) keeps none of its own: each of
/// its elements is flattened into the table as a column named like an attribute
/// (`Cocktail.author`, a struct of `id`, `person`, `place`, `year`, is `ZID`, `ZPERSON`,
/// `ZPLACE`, `ZYEAR` of `ZCOCKTAIL`; see docs/core-data.md for how collisions are named).
/// Quarry shows each element as an attribute keyed by its path, `author.person`; the Lua
/// layer puts them back together as one table.
extension CoreDataAttribute {
    /// One stored piece of an attribute.
    public struct StoredElement: Equatable, Sendable {
        /// The key Quarry shows it under: the attribute's name, or a composite element's
        /// path (`author.person`, `outer.inner.leaf`).
        public var key: String
        /// The element (the attribute itself where it is not a composite).
        public var attribute: CoreDataAttribute
        /// The name its column is made from, before any suffix: the element's own name.
        public var columnName: String

        package init(key: String, attribute: CoreDataAttribute, columnName: String) {
            self.key = key
            self.attribute = attribute
            self.columnName = columnName
        }
    }

    /// The attribute's stored pieces, depth first in the order the composite declares its
    /// elements (the order Core Data flattens them in, as the columns of real stores show).
    /// A composite's elements are optional whenever the composite is (a nil composite is all
    /// its elements nil). An enum SwiftData keeps by its raw value, a composite of one
    /// element named like itself, is that one element under the attribute's own name, so
    /// `glasswareType` reads and compares as the raw value it holds.
    public var storedElements: [StoredElement] {
        guard type == .composite else { return [StoredElement(key: name, attribute: self, columnName: name)] }
        if isEnum, elements.count == 1, let only = elements.first, only.name == name, only.type != .composite {
            var leaf = only
            leaf.isOptional = isOptional
            return [StoredElement(key: name, attribute: leaf, columnName: only.name)]
        }
        var result: [StoredElement] = []
        for element in elements {
            for piece in element.storedElements {
                var leaf = piece.attribute
                leaf.isOptional = leaf.isOptional || isOptional
                result.append(StoredElement(key: name + "." + piece.key, attribute: leaf, columnName: piece.columnName))
            }
        }
        return result
    }
}
