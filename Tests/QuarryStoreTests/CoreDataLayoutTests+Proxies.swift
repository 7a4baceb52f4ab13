import Foundation
import QuarryModel
import QuarryModelFiles
import QuarrySQLite
import QuarryStores
import QuarryTestSupport
import Testing

@testable import QuarryCoreData
@testable import QuarryEngine
@testable import QuarryStore

/// A compiled model whose sub-entity lists its inherited property as a
/// `_NSPropertyDescriptionProxy`, as Core Data's `encodeWithCoder:` writes one
/// (`NSUnderlyingProperty`, `NSReferenceID`, `NSEntityDescription`): Parent declares
/// `name`; Child inherits it (the proxy) and declares `size`. `underlying` is what the
/// proxy's `NSUnderlyingProperty` holds (13, Parent's attribute; nil leaves it out).
enum ProxyArchive {
    static func uid(_ n: Int) -> String { "<dict><key>CF$UID</key><integer>\(n)</integer></dict>" }
    static func uids(_ ns: [Int]) -> String { "<array>" + ns.map(uid).joined() + "</array>" }
    static func classInfo(_ names: [String]) -> String {
        "<dict><key>$classname</key><string>\(names[0])</string><key>$classes</key><array>" + names.map { "<string>\($0)</string>" }.joined()
            + "</array></dict>"
    }

    static func xml(underlying: Int? = 13) -> Data {
        let proxyFields =
            (underlying.map { "<key>NSUnderlyingProperty</key>" + uid($0) } ?? "")
            + "<key>NSReferenceID</key><integer>1</integer><key>NSEntityDescription</key>" + uid(7)
        let objects: [String] = [
            "<string>$null</string>",
            "<dict><key>$class</key>\(uid(2))<key>NSEntities</key>\(uid(3))</dict>",
            classInfo(["NSManagedObjectModel", "NSObject"]),
            "<dict><key>$class</key>\(uid(8))<key>NS.keys</key>\(uids([4, 5]))<key>NS.objects</key>\(uids([6, 7]))</dict>",
            "<string>Parent</string>",
            "<string>Child</string>",
            "<dict><key>$class</key>\(uid(9))<key>NSEntityName</key>\(uid(4))<key>NSProperties</key>\(uid(10))</dict>",
            "<dict><key>$class</key>\(uid(9))<key>NSEntityName</key>\(uid(5))<key>NSSuperentity</key>\(uid(6))<key>NSProperties</key>\(uid(11))</dict>",
            classInfo(["NSDictionary", "NSObject"]),
            classInfo(["NSEntityDescription", "NSObject"]),
            "<dict><key>$class</key>\(uid(8))<key>NS.keys</key>\(uids([12]))<key>NS.objects</key>\(uids([13]))</dict>",
            "<dict><key>$class</key>\(uid(8))<key>NS.keys</key>\(uids([12, 14]))<key>NS.objects</key>\(uids([15, 16]))</dict>",
            "<string>name</string>",
            "<dict><key>$class</key>\(uid(17))<key>NSPropertyName</key>\(uid(12))<key>NSAttributeType</key><integer>700</integer><key>NSEntity</key>\(uid(6))</dict>",
            "<string>size</string>",
            "<dict><key>$class</key>\(uid(18))\(proxyFields)</dict>",
            "<dict><key>$class</key>\(uid(17))<key>NSPropertyName</key>\(uid(14))<key>NSAttributeType</key><integer>300</integer><key>NSEntity</key>\(uid(7))</dict>",
            classInfo(["NSAttributeDescription", "NSPropertyDescription", "NSObject"]),
            classInfo(["_NSPropertyDescriptionProxy", "NSObject"])
        ]
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict><key>$archiver</key><string>NSKeyedArchiver</string><key>$version</key><integer>100000</integer>
            <key>$top</key><dict><key>root</key>\(uid(1))</dict><key>$objects</key><array>\(objects.joined(separator: "\n"))</array></dict></plist>
            """
        return Data(text.utf8)
    }
}

extension CoreDataLayoutTests {
    @Test func aPropertyProxyReadsAsTheParentsProperty() throws {
        let model = try CoreDataModel.decodeArchive(ProxyArchive.xml(), path: "proxy.mom")
        let child = try #require(model.entity(named: "Child"))
        #expect(child.parent == "Parent")
        // The proxy stands for the inherited attribute: the child declares only its own.
        #expect(child.attributes.map(\.name) == ["size"])
        let all = model.allAttributes(of: "Child")
        #expect(all.map(\.name).sorted() == ["name", "size"])
        #expect(all.first { $0.name == "name" }?.type == CoreDataAttributeType(code: 700))
    }

    @Test func aProxyWithNoUnderlyingPropertyIsABrokenArchive() throws {
        let error = #expect(throws: ModelFileError.self) { try CoreDataModel.decodeArchive(ProxyArchive.xml(underlying: nil), path: "proxy.mom") }
        #expect(error?.kind == .brokenArchive)
        #expect("\(error.map { "\($0)" } ?? "")".contains("a property proxy with no NSUnderlyingProperty"))
    }

    @Test func aProxyThatPointsAtItselfIsABrokenArchiveNotAHang() throws {
        let error = #expect(throws: ModelFileError.self) { try CoreDataModel.decodeArchive(ProxyArchive.xml(underlying: 15), path: "proxy.mom") }
        #expect(error?.kind == .brokenArchive)
        #expect("\(error.map { "\($0)" } ?? "")".contains("a chain of property proxies that does not end"))
    }
}
