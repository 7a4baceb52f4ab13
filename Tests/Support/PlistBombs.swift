/// Hostile property lists for the model readers' tests, made here byte by byte (a binary
/// plist's object table can share an object between several references, which no
/// writer at hand does on purpose).
import Foundation

public enum PlistBombs {
    /// One object of a binary plist: references are indexes into the object list.
    public enum Object {
        case string(String)
        case int(Int)
        case uid(UInt8)
        case array([Int])
        case dict([(key: Int, value: Int)])
    }

    /// A binary plist (`bplist00`) of `objects`, the first being the top.
    public static func binary(_ objects: [Object]) -> [UInt8] {
        let refSize = objects.count < 256 ? 1 : 2
        func refs(_ list: [Int]) -> [UInt8] { list.flatMap { refSize == 1 ? [UInt8($0)] : [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        func length(_ marker: UInt8, _ n: Int) {
            if n < 15 {
                out.append(marker | UInt8(n))
            } else if n < 256 {
                out += [marker | 0x0F, 0x10, UInt8(n)]
            } else {
                out += [marker | 0x0F, 0x11, UInt8(n >> 8), UInt8(n & 0xFF)]
            }
        }
        for object in objects {
            offsets.append(out.count)
            switch object {
            case .string(let s):
                length(0x50, s.utf8.count)
                out += Array(s.utf8)
            case .int(let n): out += [0x12, UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
            case .uid(let n): out += [0x80, n]
            case .array(let list):
                length(0xA0, list.count)
                out += refs(list)
            case .dict(let pairs):
                length(0xD0, pairs.count)
                out += refs(pairs.map(\.key)) + refs(pairs.map(\.value))
            }
        }
        let table = out.count
        let offsetSize = table < 256 ? 1 : 2
        for offset in offsets { out += offsetSize == 1 ? [UInt8(offset)] : [UInt8(offset >> 8), UInt8(offset & 0xFF)] }
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        for value in [objects.count, 0, table] { out += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        return out
    }

    /// A keyed archive whose `$objects` holds arrays that share their elements: `levels`
    /// levels of `width` (8 of 10 make 10^8 leaves from 235 bytes), as a `.mom` would be.
    public static func dagBomb(levels: Int = 8, width: Int = 10) -> [UInt8] {
        var objects: [Object] = [
            .dict([(1, 2), (3, 4), (5, 6), (9, 10)]), // 0: the top
            .string("$archiver"), .string("NSKeyedArchiver"), .string("$version"), .int(100000),
            .string("$top"), .dict([(7, 8)]), .string("root"), .uid(1), .string("$objects"),
            .array([]), // 10: $objects, set below
            .string("$null"), .string("x")
        ]
        var previous = objects.count - 1
        for _ in 0..<levels {
            objects.append(.array(Array(repeating: previous, count: width)))
            previous = objects.count - 1
        }
        objects[10] = .array([11, previous])
        return binary(objects)
    }

    /// `dagBomb()` compressed as Core Data compresses `Z_MODELCACHE.Z_CONTENT` (raw
    /// DEFLATE, made with python's zlib at level 9, window bits -15): 152 bytes.
    public static let dagBombModelCache: [UInt8] = hex(
        """
        4b2ac8c92c2e3130b8c2c8cccac9c4c2c615a99258949c9159965a142fc0ef17ec9d5a999ae2081589500112c599f979420c8c6d0b42544af2\
        0b2eb2738414e5e797343046a8e42765a52697142fe2160955c92bcdc909ac58c50307ab78e160151f1cace28783550270b04a100e5609c1c1\
        2a6138e01094d635b37670f6f00a0e8b89cb2ca9ef9aba603503183032426806510654b00d00
        """)

    /// A keyed archive (XML, `CF$UID` references) whose model has a fetch request whose
    /// predicate is an AND of `width` copies of an AND of `width` copies ... `levels` deep:
    /// a DAG of UIDs that, rendered as text, would be `width^levels` comparisons.
    public static func predicateBomb(levels: Int = 8, width: Int = 10) -> String {
        var objects: [String] = ["<string>$null</string>"]
        func add(_ xml: String) -> Int {
            objects.append(xml)
            return objects.count - 1
        }
        func uid(_ n: Int) -> String { "<dict><key>CF$UID</key><integer>\(n)</integer></dict>" }
        func klass(_ name: String, _ supers: [String]) -> Int {
            add(
                "<dict><key>$classname</key><string>\(name)</string><key>$classes</key><array>"
                    + ([name] + supers).map { "<string>\($0)</string>" }.joined() + "</array></dict>")
        }
        let dictionaryClass = klass("NSDictionary", ["NSObject"])
        let arrayClass = klass("NSArray", ["NSObject"])
        let compound = klass("NSCompoundPredicate", ["NSPredicate", "NSObject"])
        var predicate = add("<dict><key>$class</key>\(uid(klass("NSTruePredicate", ["NSPredicate", "NSObject"])))</dict>")
        for _ in 0..<levels {
            let list = add(
                "<dict><key>$class</key>\(uid(arrayClass))<key>NS.objects</key><array>"
                    + String(repeating: uid(predicate), count: width) + "</array></dict>")
            predicate = add(
                "<dict><key>$class</key>\(uid(compound))<key>NSCompoundPredicateType</key><integer>1</integer>"
                    + "<key>NSSubpredicates</key>\(uid(list))</dict>")
        }
        let entityName = add("<string>Item</string>")
        let request = add(
            "<dict><key>$class</key>\(uid(klass("NSFetchRequest", ["NSObject"])))"
                + "<key>NSEntityName</key>\(uid(entityName))<key>NSPredicate</key>\(uid(predicate))</dict>")
        let entity = add(
            "<dict><key>$class</key>\(uid(klass("NSEntityDescription", ["NSObject"])))"
                + "<key>NSEntityName</key>\(uid(entityName))</dict>")
        let requestName = add("<string>bomb</string>")
        let entities = add(
            "<dict><key>$class</key>\(uid(dictionaryClass))<key>NS.keys</key><array>\(uid(entityName))</array>"
                + "<key>NS.objects</key><array>\(uid(entity))</array></dict>")
        let templates = add(
            "<dict><key>$class</key>\(uid(dictionaryClass))<key>NS.keys</key><array>\(uid(requestName))</array>"
                + "<key>NS.objects</key><array>\(uid(request))</array></dict>")
        let root = add(
            "<dict><key>$class</key>\(uid(klass("NSManagedObjectModel", ["NSObject"])))"
                + "<key>NSEntities</key>\(uid(entities))<key>NSFetchRequestTemplates</key>\(uid(templates))</dict>")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>$archiver</key><string>NSKeyedArchiver</string>
            <key>$version</key><integer>100000</integer><key>$top</key><dict><key>root</key>\(uid(root))</dict>
            <key>$objects</key><array>\(objects.joined(separator: "\n"))</array></dict></plist>
            """
    }

    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8.filter { !$0.isWhitespace })
        return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16)! }
    }
}

extension UInt8 {
    fileprivate var isWhitespace: Bool { self == 32 || self == 10 || self == 13 || self == 9 }
}
