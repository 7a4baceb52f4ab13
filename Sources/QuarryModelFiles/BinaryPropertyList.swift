import Foundation
/// A reader for binary property lists (`bplist00`) that gives typed values (`Plist`), with
/// `.uid` for a keyed archive's references.
///
/// Why not Foundation's `PropertyListSerialization` (which still reads XML property lists):
/// on Linux it builds `NSArray`/`NSDictionary` objects that every cast bridges again, and its
/// UIDs are an internal class whose number only reflection reaches. Opening Photos.app's
/// store (a 600 KB model archive) spent 55% of the whole process there, 40 ms; this reader
/// takes about 2 ms for the same bytes.
///
/// Run only after `BinaryPlistCheck` has passed the bytes: that check bounds the nesting
/// depth, refuses a container that contains itself, and limits how far shared objects
/// expand. Each object is built once (memoised by its index), so a shared object is one
/// value referred to many times, as the file has it.
import QuarryModel

package enum BinaryPropertyList {
    /// Whether `data` is a binary property list this reader takes.
    package static func isBinary(_ data: Data) -> Bool { data.starts(with: Array("bplist00".utf8)) }

    /// The top object of `data` (checked by `BinaryPlistCheck` first).
    package static func read(_ data: Data, path: String) throws -> Plist {
        try data.withUnsafeBytes { raw in
            var reader = try Reader(bytes: raw.bindMemory(to: UInt8.self), path: path)
            return try reader.object(reader.top)
        }
    }

    private struct Reader {
        package let bytes: UnsafeBufferPointer<UInt8>
        package let path: String
        package let offsetSize: Int
        package let refSize: Int
        let objectCount: Int
        package let top: Int
        package let table: Int
        /// Where each object built so far is in `values` (-1: not built). Not an array of
        /// optional values: making one of 11,000 nils copied each through its type's value
        /// witness, 2.7 million instructions of reading Photos.app's model.
        package var slots: [Int32]
        package var values: [Plist] = []
        /// Each object's `PlistDictionary.asciiTag` as a key, worked out when first used
        /// (`untagged` until then): an archive's keys are a few objects used thousands of times.
        var keyTags: [UInt64]
        static let untagged = UInt64.max - 1

        package init(bytes: UnsafeBufferPointer<UInt8>, path: String) throws {
            self.bytes = bytes
            self.path = path
            let count = bytes.count
            guard count >= 8 + 32 else { throw ModelFileError(.malformedPlist, path: path, "a binary property list of \(count) bytes is truncated") }
            let trailer = count - 32
            offsetSize = Int(bytes[trailer + 6])
            refSize = Int(bytes[trailer + 7])
            let big = { (at: Int) -> Int? in
                var n: UInt64 = 0
                for i in 0..<8 { n = n << 8 | UInt64(bytes[at + i]) }
                return n <= UInt64(Int.max) ? Int(n) : nil
            }
            guard (1...8).contains(offsetSize), (1...8).contains(refSize),
                let objects = big(trailer + 8), let top = big(trailer + 16), let table = big(trailer + 24),
                objects >= 1, objects <= count, top < objects, table >= 8, table <= trailer,
                (trailer - table) / offsetSize >= objects
            else {
                throw ModelFileError(.malformedPlist, path: path, "the binary property list's trailer is invalid")
            }
            objectCount = objects
            self.top = top
            self.table = table
            guard objects < Int(Int32.max) else { throw ModelFileError(.malformedPlist, path: path, "the binary property list has too many objects") }
            slots = Array(repeating: -1, count: objects)
            values.reserveCapacity(objects)
            keyTags = Array(repeating: Self.untagged, count: objects)
        }

        package func fail(_ object: Int, _ detail: String) -> ModelFileError {
            ModelFileError(.malformedPlist, path: path, "object \(object) of the binary property list \(detail)")
        }

        /// A big-endian unsigned integer of `width` bytes at `at`, or nil past the end.
        func uint(at: Int, width: Int) -> UInt64? {
            guard width >= 1, width <= 8, at >= 0, at <= bytes.count - width else { return nil }
            if width == 1 { return UInt64(bytes[at]) }
            if width == 2 { return UInt64(bytes[at]) << 8 | UInt64(bytes[at + 1]) }
            var n: UInt64 = 0
            for i in 0..<width { n = n << 8 | UInt64(bytes[at + i]) }
            return n
        }

        package func offset(of object: Int) throws -> Int {
            guard let offset = uint(at: table + object * offsetSize, width: offsetSize), offset >= 8, offset < UInt64(table) else {
                throw fail(object, "is out of range")
            }
            return Int(offset)
        }

        package func reference(_ object: Int, at: Int) throws -> Int {
            guard let ref = uint(at: at, width: refSize), ref < UInt64(objectCount) else {
                throw fail(object, "refers past its \(objectCount) objects")
            }
            return Int(ref)
        }

        /// An object's length: the marker's low nibble, or an integer object after it.
        /// Returns the length and where the contents start.
        package func length(_ object: Int, marker: UInt8, at: Int) throws -> (Int, Int) {
            let nibble = Int(marker & 0x0F)
            guard nibble == 0x0F else { return (nibble, at + 1) }
            let start = at + 1
            guard start < bytes.count, bytes[start] >> 4 == 0x1, bytes[start] & 0x0F <= 3 else {
                throw fail(object, "has an invalid length")
            }
            let width = 1 << Int(bytes[start] & 0x0F)
            guard let n = uint(at: start + 1, width: width), n <= UInt64(bytes.count) else {
                throw fail(object, "has an invalid length")
            }
            return (Int(n), start + 1 + width)
        }

        /// `count` units of `size` bytes from `start` lie inside the file.
        package func fits(_ object: Int, _ start: Int, _ count: Int, _ size: Int) throws {
            guard start <= bytes.count, count <= (bytes.count - start) / size else { throw fail(object, "runs past its end") }
        }

        package mutating func object(_ n: Int) throws -> Plist {
            let slot = slots[n]
            if slot >= 0 { return values[Int(slot)] }
            let value = try build(n)
            slots[n] = Int32(values.count)
            values.append(value)
            return value
        }

        /// Object `ref` as a key of dictionary `n`.
        private mutating func key(_ ref: Int, of n: Int) throws -> String {
            guard case .string(let key) = try object(ref) else { throw fail(n, "is a dictionary with a key that is not a string") }
            return key
        }

        private mutating func build(_ n: Int) throws -> Plist {
            let at = try offset(of: n)
            let marker = bytes[at]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: throw fail(n, "is a null or fill object, which no property list value is")
                }
            case 0x1:
                let width = 1 << Int(marker & 0x0F)
                // 16-byte integers hold unsigned values past Int64: their low 8 bytes.
                guard width <= 16, let raw = uint(at: at + 1 + max(0, width - 8), width: min(width, 8)) else {
                    throw fail(n, "is an invalid integer")
                }
                if width == 8 || width == 16 { return .integer(Int(Int64(bitPattern: raw))) }
                return .integer(Int(raw))
            case 0x2:
                let width = 1 << Int(marker & 0x0F)
                guard width == 4 || width == 8, let raw = uint(at: at + 1, width: width) else { throw fail(n, "is an invalid real") }
                return .real(width == 4 ? Double(Float(bitPattern: UInt32(raw))) : Double(bitPattern: raw))
            case 0x3:
                guard marker == 0x33, let raw = uint(at: at + 1, width: 8) else { throw fail(n, "is an invalid date") }
                return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: raw)))
            case 0x4:
                let (count, start) = try length(n, marker: marker, at: at)
                try fits(n, start, count, 1)
                return .data(Data(UnsafeBufferPointer(rebasing: bytes[start..<start + count])))
            case 0x5:
                let (count, start) = try length(n, marker: marker, at: at)
                try fits(n, start, count, 1)
                // ASCII by the format; read as UTF-8, a stray high byte is U+FFFD, not a failure.
                return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<start + count]), as: UTF8.self))
            case 0x6:
                let (count, start) = try length(n, marker: marker, at: at)
                try fits(n, start, count, 2)
                var units: [UInt16] = []
                units.reserveCapacity(count)
                for i in 0..<count { units.append(UInt16(bytes[start + 2 * i]) << 8 | UInt16(bytes[start + 2 * i + 1])) }
                return .string(String(decoding: units, as: UTF16.self))
            case 0x8:
                guard let raw = uint(at: at + 1, width: Int(marker & 0x0F) + 1), raw <= UInt64(Int.max) else {
                    throw fail(n, "is an invalid UID")
                }
                return .uid(Int(raw))
            case 0xA, 0xC:
                let (count, start) = try length(n, marker: marker, at: at)
                try fits(n, start, count, refSize)
                var items: [Plist] = []
                items.reserveCapacity(count)
                for i in 0..<count { items.append(try object(reference(n, at: start + i * refSize))) }
                return .array(items)
            case 0xD:
                let (count, start) = try length(n, marker: marker, at: at)
                try fits(n, start, count, 2 * refSize)
                var entries: [PlistDictionary.Entry] = []
                entries.reserveCapacity(count)
                for i in 0..<count {
                    let ref = try reference(n, at: start + i * refSize)
                    let key = try self.key(ref, of: n)
                    if keyTags[ref] == Self.untagged { keyTags[ref] = PlistDictionary.asciiTag(key) ?? PlistDictionary.notASCII }
                    entries.append(
                        PlistDictionary.Entry(tag: keyTags[ref], key: key, value: try object(reference(n, at: start + (count + i) * refSize))))
                }
                return .dictionary(PlistDictionary(entries: entries))
            default:
                throw fail(n, "has an unknown type (marker 0x\(String(marker, radix: 16)))")
            }
        }
    }
}
