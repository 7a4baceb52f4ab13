import Foundation

/// An entity as Quarry's own file keeps it in its model table (`quarry_model`): the
/// model's definition, plus the key column of its table, which the file has always
/// recorded (and which Quarry versions before the store mapping read).
struct StoredDefinition: Codable {
    var entity: EntityDescription

    private enum Keys: String, CodingKey { case primaryKey }

    init(_ entity: EntityDescription) { self.entity = entity }

    init(from decoder: Decoder) throws {
        entity = try EntityDescription(from: decoder)
        // Every table Quarry makes is keyed by `_pk`; a definition naming another key
        // column is not one Quarry wrote.
        let key = try decoder.container(keyedBy: Keys.self).decodeIfPresent(String.self, forKey: .primaryKey)
        if let key, key != EntityStorage.quarryKeyColumn {
            throw DecodingError.dataCorrupted(.init(codingPath: [Keys.primaryKey], debugDescription: "key column \(key)"))
        }
    }

    func encode(to encoder: Encoder) throws {
        try entity.encode(to: encoder)
        var keys = encoder.container(keyedBy: Keys.self)
        try keys.encode(EntityStorage.quarryKeyColumn, forKey: .primaryKey)
    }

    /// The definition as the model table's text.
    static func text(_ entity: EntityDescription) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(StoredDefinition(entity)), as: UTF8.self)
    }
}
