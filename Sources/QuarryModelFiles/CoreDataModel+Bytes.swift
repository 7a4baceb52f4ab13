import QuarryModel
/// A Core Data model as compact bytes, for `DecodedModelCache`: what decoding a store's
/// `Z_MODELCACHE` produced (inflate, property list, archive walk: most of opening Photos.app's
/// store) kept so the next open reads it back in a fraction of the time. Integers are
/// LEB128, strings their length then UTF-8, flags packed into a byte. The bytes are read
/// back through `ModelBytes.Reader`, which checks every length and tag: a cache file is a
/// file like any other, and a damaged one is a miss, never a crash.

extension CoreDataModel {
    /// The model as bytes `init(bytes:)` reads back to an equal model.
    package func encodedBytes() -> [UInt8] {
        var w = ModelBytes.Writer()
        w.count(fetchRequests.count)
        for request in fetchRequests { w.fetchRequest(request) }
        w.count(entities.count)
        for entity in entities {
            w.string(entity.name)
            w.optional(entity.parent)
            w.optional(entity.className)
            w.optional(entity.renamingIdentifier)
            w.flags([entity.isAbstract])
            w.count(entity.attributes.count)
            for a in entity.attributes { w.attribute(a) }
            w.count(entity.relationships.count)
            for r in entity.relationships {
                w.string(r.name)
                w.string(r.destination)
                w.optional(r.inverse)
                w.optional(r.renamingIdentifier)
                w.flags([r.isToMany, r.isOrdered, r.isOptional, r.isTransient])
                w.integer(r.minCount)
                w.integer(r.maxCount)
                w.count(Self.deleteRules.firstIndex(of: r.deleteRule) ?? 0)
            }
            w.count(entity.uniquenessConstraints.count)
            for constraint in entity.uniquenessConstraints { w.strings(constraint) }
            w.count(entity.fetchIndexes.count)
            for index in entity.fetchIndexes {
                w.string(index.name)
                w.strings(index.properties)
            }
            w.count(entity.fetchedProperties.count)
            for property in entity.fetchedProperties { w.fetchRequest(property) }
        }
        return w.bytes
    }

    /// The model `encodedBytes()` wrote; throws `ModelBytes.Malformed` for any other bytes.
    /// An entity's arrays are filled after its `init`, so their order is exactly the encoded one.
    package init(bytes: [UInt8]) throws {
        var r = ModelBytes.Reader(bytes)
        var requests: [CoreDataFetchRequest] = []
        for _ in 0..<(try r.count()) { requests.append(try r.fetchRequest()) }
        var entities: [CoreDataEntity] = []
        for _ in 0..<(try r.count()) {
            var entity = CoreDataEntity(name: try r.string(), parent: try r.optional(), className: try r.optional())
            entity.renamingIdentifier = try r.optional()
            entity.isAbstract = try r.flags(1)[0]
            for _ in 0..<(try r.count()) { entity.attributes.append(try r.attribute(depth: 0)) }
            for _ in 0..<(try r.count()) {
                let name = try r.string()
                let destination = try r.string()
                let inverse: String? = try r.optional()
                let renamed: String? = try r.optional()
                let f = try r.flags(4)
                var relationship = CoreDataRelationship(
                    name: name, destination: destination, inverse: inverse, isToMany: f[0],
                    isOrdered: f[1], isOptional: f[2], isTransient: f[3])
                relationship.renamingIdentifier = renamed
                relationship.minCount = try r.integer()
                relationship.maxCount = try r.integer()
                let rule = try r.count()
                guard rule < Self.deleteRules.count else { throw ModelBytes.Malformed() }
                relationship.deleteRule = Self.deleteRules[rule]
                entity.relationships.append(relationship)
            }
            for _ in 0..<(try r.count()) { entity.uniquenessConstraints.append(try r.strings()) }
            for _ in 0..<(try r.count()) { entity.fetchIndexes.append(CoreDataFetchIndex(name: try r.string(), properties: try r.strings())) }
            for _ in 0..<(try r.count()) { entity.fetchedProperties.append(try r.fetchRequest()) }
            entities.append(entity)
        }
        guard r.isAtEnd else { throw ModelBytes.Malformed() }
        // Sorted by name again, which leaves them as they were: they were written sorted.
        self.init(entities: entities, fetchRequests: requests)
    }

    private static let deleteRules: [CoreDataDeleteRule] = [.noAction, .nullify, .cascade, .deny]
}

/// An attribute, a composite's elements after it (nested no deeper than the decoder allows).
extension ModelBytes.Writer {
    package mutating func attribute(_ a: CoreDataAttribute) {
        string(a.name)
        count(CoreDataAttributeType.allCases.firstIndex(of: a.type) ?? 0)
        flags([
            a.isOptional, a.isTransient, a.isDerived, a.isIndexed, a.allowsExternalBinaryDataStorage,
            a.preservesValueInHistoryOnDeletion, a.isEnum
        ])
        optional(a.derivationExpression)
        optional(a.defaultValue)
        optional(a.valueTransformerName)
        optional(a.renamingIdentifier)
        count(a.elements.count)
        for element in a.elements { attribute(element) }
    }
}

extension ModelBytes.Reader {
    package mutating func attribute(depth: Int) throws -> CoreDataAttribute {
        guard depth <= ArchivedModelDecoder.compositeDepthLimit else { throw ModelBytes.Malformed() }
        let name = try string()
        let types = CoreDataAttributeType.allCases
        let type = try count()
        guard type < types.count else { throw ModelBytes.Malformed() }
        let f = try flags(7)
        var result = CoreDataAttribute(
            name: name, type: types[types.index(types.startIndex, offsetBy: type)], isOptional: f[0], isTransient: f[1],
            isDerived: f[2], derivationExpression: try optional(), defaultValue: try optional(), isIndexed: f[3],
            allowsExternalBinaryDataStorage: f[4], valueTransformerName: try optional(), preservesValueInHistoryOnDeletion: f[5],
            isEnum: f[6])
        result.renamingIdentifier = try optional()
        for _ in 0..<(try count()) { result.elements.append(try attribute(depth: depth + 1)) }
        return result
    }
}

/// The primitives of `CoreDataModel`'s byte form.
enum ModelBytes {
    /// Bytes that are not a model's byte form (cut short, a length past the end, a tag out of range).
    package struct Malformed: Error {}

    struct Writer {
        package var bytes: [UInt8] = []

        package mutating func count(_ value: Int) { unsigned(UInt64(max(value, 0))) }

        /// Zigzag, so that -1 (`NSMaxCount` of a model built in code) stays one byte.
        package mutating func integer(_ value: Int) {
            let v = Int64(value)
            unsigned(UInt64(bitPattern: (v << 1) ^ (v >> 63)))
        }

        mutating func unsigned(_ value: UInt64) {
            var v = value
            while v >= 0x80 {
                bytes.append(UInt8(v & 0x7F) | 0x80)
                v >>= 7
            }
            bytes.append(UInt8(v))
        }

        package mutating func string(_ value: String) {
            count(value.utf8.count)
            bytes.append(contentsOf: value.utf8)
        }

        package mutating func optional(_ value: String?) {
            guard let value else { return bytes.append(0) }
            bytes.append(1)
            string(value)
        }

        package mutating func strings(_ values: [String]) {
            count(values.count)
            for value in values { string(value) }
        }

        package mutating func flags(_ values: [Bool]) {
            bytes.append(values.enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) })
        }

        package mutating func fetchRequest(_ request: CoreDataFetchRequest) {
            string(request.name)
            string(request.entity)
            switch request.predicate {
            case nil: bytes.append(0)
            case .format(let text):
                bytes.append(1)
                string(text)
            case .unsupported(let why):
                bytes.append(2)
                string(why)
            }
        }
    }

    package struct Reader {
        private let storage: [UInt8]
        private var at = 0

        package init(_ bytes: [UInt8]) { storage = bytes }

        package var isAtEnd: Bool { at == storage.count }
        package var remaining: Int { storage.count - at }

        /// The next `count` bytes (a count read by `count()`, so within the bytes).
        package mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> {
            guard count >= 0, count <= remaining else { throw Malformed() }
            defer { at += count }
            return storage[at..<at + count]
        }

        package mutating func byte() throws -> UInt8 {
            guard at < storage.count else { throw Malformed() }
            defer { at += 1 }
            return storage[at]
        }

        mutating func unsigned() throws -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let b = try byte()
                guard shift < 64 else { throw Malformed() }
                value |= UInt64(b & 0x7F) << shift
                if b < 0x80 { return value }
                shift += 7
            }
        }

        /// A count or a length: no more than the bytes left, so a damaged one cannot ask
        /// for a loop or an allocation larger than the file.
        package mutating func count() throws -> Int {
            let value = try unsigned()
            guard value <= UInt64(remaining) else { throw Malformed() }
            return Int(value)
        }

        package mutating func integer() throws -> Int {
            let v = try unsigned()
            return Int(truncatingIfNeeded: Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))))
        }

        package mutating func string() throws -> String {
            let length = try count()
            defer { at += length }
            return String(decoding: storage[at..<at + length], as: UTF8.self)
        }

        package mutating func optional() throws -> String? {
            switch try byte() {
            case 0: return nil
            case 1: return try string()
            default: throw Malformed()
            }
        }

        package mutating func strings() throws -> [String] {
            var values: [String] = []
            for _ in 0..<(try count()) { values.append(try string()) }
            return values
        }

        package mutating func flags(_ count: Int) throws -> [Bool] {
            let b = try byte()
            guard b >> count == 0 else { throw Malformed() }
            return (0..<count).map { b & (1 << $0) != 0 }
        }

        package mutating func fetchRequest() throws -> CoreDataFetchRequest {
            let name = try string()
            let entity = try string()
            switch try byte() {
            case 0: return CoreDataFetchRequest(name: name, entity: entity)
            case 1: return CoreDataFetchRequest(name: name, entity: entity, predicate: .format(try string()))
            case 2: return CoreDataFetchRequest(name: name, entity: entity, predicate: .unsupported(try string()))
            default: throw Malformed()
            }
        }
    }
}
