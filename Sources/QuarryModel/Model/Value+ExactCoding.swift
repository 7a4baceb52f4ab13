import Foundation

/// A value as another process reads it back (the Swift reader's captures and constants):
/// one key naming its case. Reals and dates go as their bits, so every double comes back
/// exactly, NaN, infinities and -0 included, which JSON's numbers cannot carry. A coder
/// asks for this form with `exactCodingKey` in its `userInfo`; without it a value encodes
/// as a model file writes a default (`EntityDescription`), which is not read back here.
extension Value: Decodable {
    /// Present (any value) in a coder's `userInfo`: values are coded exactly.
    public static let exactCodingKey: CodingUserInfoKey? = CodingUserInfoKey(rawValue: "quarry.exactValues")

    private enum CodingKeys: String, CodingKey {
        case null, integer, real, text, textBytes, blob, bool, date, decimal
    }

    static func codesExactly(_ userInfo: [CodingUserInfoKey: Any]) -> Bool { exactCodingKey.map { userInfo[$0] != nil } ?? false }

    func encodeExactly(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .null: try container.encode(true, forKey: .null)
        case .integer(let value): try container.encode(value, forKey: .integer)
        case .real(let value): try container.encode(value.bitPattern, forKey: .real)
        case .text(let value): try container.encode(value, forKey: .text)
        case .textBytes(let bytes): try container.encode(bytes, forKey: .textBytes)
        case .blob(let bytes): try container.encode(bytes, forKey: .blob)
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .date(let seconds): try container.encode(seconds.bitPattern, forKey: .date)
        case .decimal(let text): try container.encode(text, forKey: .decimal)
        }
    }

    public init(from decoder: any Decoder) throws {
        guard Self.codesExactly(decoder.userInfo) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a value is read in its exact form only"))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a value names one kind"))
        }
        switch key {
        case .null: self = .null
        case .integer: self = .integer(try container.decode(Int64.self, forKey: key))
        case .real: self = .real(Double(bitPattern: try container.decode(UInt64.self, forKey: key)))
        case .text: self = .text(try container.decode(String.self, forKey: key))
        case .textBytes: self = .textBytes(try container.decode([UInt8].self, forKey: key))
        case .blob: self = .blob(try container.decode([UInt8].self, forKey: key))
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        case .date: self = .date(Double(bitPattern: try container.decode(UInt64.self, forKey: key)))
        case .decimal: self = .decimal(try container.decode(String.self, forKey: key))
        }
    }
}
