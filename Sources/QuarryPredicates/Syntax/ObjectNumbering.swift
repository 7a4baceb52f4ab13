import Foundation
import QuarryModel
import QuarryStore

/// Objects by number, for a predicate or its captures coded for another process (the
/// Swift reader's): an object goes as its number and its entity's name, and a number
/// comes back as the object it was given for. The reading process, which has no store,
/// makes a stand-in object a number (`standsIn`), the same one each time, so that two
/// captures of one object are still one object there. Unchecked: one coder uses it at a
/// time, on one thread.
public final class ObjectNumbering: @unchecked Sendable {
    /// Where a coder's `userInfo` holds it.
    public static let userInfoKey: CodingUserInfoKey? = CodingUserInfoKey(rawValue: "quarry.objectNumbering")

    private var objects: [ObjectReference] = []
    private let standsIn: Bool

    /// `standsIn`: numbers not given here are read as new stand-in objects.
    public init(standsIn: Bool) { self.standsIn = standsIn }

    func number(of reference: ObjectReference) -> Int {
        if let index = objects.firstIndex(of: reference) { return index }
        objects.append(reference)
        return objects.count - 1
    }

    func object(numbered number: Int, entity: String) throws -> ObjectReference {
        if objects.indices.contains(number) { return objects[number] }
        guard standsIn, number == objects.count else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "object \(number) was never sent"))
        }
        objects.append(ObjectReference(ManagedObject(standingFor: EntityDescription(name: entity, attributes: []))))
        return objects[number]
    }

    static func of(_ userInfo: [CodingUserInfoKey: Any]) -> ObjectNumbering? {
        userInfoKey.flatMap { userInfo[$0] as? ObjectNumbering }
    }
}

/// An object as its number in the coder's `ObjectNumbering`, and its entity's name.
extension ObjectReference: Codable {
    public func encode(to encoder: any Encoder) throws {
        guard let numbering = ObjectNumbering.of(encoder.userInfo) else {
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath, debugDescription: "an object is coded by number only"))
        }
        var container = encoder.unkeyedContainer()
        try container.encode(numbering.number(of: self))
        try container.encode(object.entity.name)
    }

    public init(from decoder: any Decoder) throws {
        guard let numbering = ObjectNumbering.of(decoder.userInfo) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an object is coded by number only"))
        }
        var container = try decoder.unkeyedContainer()
        let number = try container.decode(Int.self)
        self = try numbering.object(numbered: number, entity: try container.decode(String.self))
    }
}
