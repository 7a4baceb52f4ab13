import Foundation

/// A SwiftData store with composite attributes, built to the format of a real one
/// (MatthewHunt84/MetaCocktailsSwiftData, `PreloadedCocktails.store`, written by SwiftData on
/// iOS 18), which cannot be shipped: its tables as SwiftData declared them, its model cache
/// archived as that store's is. Checked against the real store by dumping both:
/// - a composite is an `NSCompositeAttributeDescription` (type 2100, value class
///   `NSDictionary`) whose `NSCompositeElements` is an `NSMutableArray` of
///   `NSAttributeDescription`s, in the struct's declaration order; SwiftData's enums are
///   composites with `NSUserInfo` `EnumType = true`: one with a raw value is one element
///   named like the property (`glasswareType`), one without is an element per case, each
///   holding the case's name when it is the value (`historicSpec`);
/// - the elements are columns of the entity's table named like attributes; a collision
///   takes a numeric suffix in order of the properties' names (`author` < `id`: the author's
///   `id` is `ZID`, the cocktail's own `ZID1`; `id` < `prep`: `IngredientBase.id` is `ZID`,
///   its prep's `ZID1`), whatever order the archive lists the properties in (the real
///   archive lists `prep` before `id`, as this one does);
/// - columns are grouped by type (integers, floats, strings, blobs) as SwiftData's are.
/// Not in the real store and made here by the same rule: a struct inside a struct
/// (`origin.coords`), and a collision between two composites' elements (`origin.place`,
/// `ZPLACE1`). The cache is raw DEFLATE as Core Data's is (stored blocks: any inflater
/// reads them).
public enum SwiftDataCompositeStore {
    /// The SQL that makes the store in an empty SQLite database.
    public static func sql() throws -> String {
        let cache = deflateStored([UInt8](try modelArchive()))
        let metadata = try PropertyListSerialization.data(
            fromPropertyList: [
                "NSStoreType": "SQLite", "NSStoreModelVersionIdentifiers": ["1.0.0"], "NSPersistenceFrameworkVersion": 1414,
                "NSStoreModelVersionHashesVersion": 3
            ] as [String: Any], format: .binary, options: 0)
        return """
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
            CREATE TABLE ZCOCKTAIL ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOLLECTION INTEGER, ZLAT FLOAT, ZLON FLOAT, ZPERSON VARCHAR, ZPLACE VARCHAR, ZYEAR VARCHAR, ZCOCKTAILNAME VARCHAR, ZGLASSWARETYPE VARCHAR, ZALGONQUIN VARCHAR, ZALASKA VARCHAR, ZCITY VARCHAR, ZPLACE1 VARCHAR, ZID BLOB, ZID1 BLOB );
            CREATE UNIQUE INDEX Z_Cocktail_UNIQUE_cocktailName ON ZCOCKTAIL (ZCOCKTAILNAME COLLATE BINARY ASC);
            CREATE TABLE ZINGREDIENTBASE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZPREPINGREDIENTNAME VARCHAR, ZID BLOB, ZID1 BLOB );
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Cocktail', 0, 3), (2, 'IngredientBase', 0, 2);
            INSERT INTO Z_METADATA VALUES (1, '4B40FEDE-880B-487F-A9E0-2C0C678F055E', X'\(hex(metadata))');
            INSERT INTO Z_MODELCACHE VALUES (X'\(hex(cache))');
            INSERT INTO ZCOCKTAIL VALUES (1, 1, 1, 3, 40.75, -73.98, 'G. Selmer Foughner', NULL, '1930s', 'Algonquin', 'Martini', 'algonquin', NULL, 'New York', 'Algonquin Hotel', X'3D7AD64F92DA41EF8FBFF7DB08A70B6A', X'E2C6D91B98ED43F29110C68BA68578CA');
            INSERT INTO ZCOCKTAIL VALUES (2, 1, 1, NULL, NULL, NULL, NULL, NULL, NULL, 'Gimlet', 'Coupe', NULL, NULL, NULL, NULL, NULL, X'9A8B7F4EE03E4BA89B0411464B65D799');
            INSERT INTO ZCOCKTAIL VALUES (3, 1, 1, 1, NULL, NULL, 'Dick Bradsell', 'Fred''s Club, London', '1984', 'Bramble', 'Rocks', NULL, 'alaska', NULL, NULL, X'BE8C89E45F68443591735CE80B2B2DE8', X'6DC7199C8A3B42BAA7102105082C8A16');
            INSERT INTO ZINGREDIENTBASE VALUES (1, 2, 1, 'Gin', NULL, X'0A0A0A0A0A0A4A0A8A0A0A0A0A0A0A0A', NULL);
            INSERT INTO ZINGREDIENTBASE VALUES (2, 2, 1, 'Raspberry syrup', 'Raspberries', X'0B0B0B0B0B0B4B0B8B0B0B0B0B0B0B0B', X'0C0C0C0C0C0C4C0C8C0C0C0C0C0C0C0C');
            """
    }

    /// The model: `Cocktail` and `IngredientBase`, their composites shaped as the real ones.
    public static func modelArchive() throws -> Data {
        var b = ArchiveBuilder()
        let property = ["NSPropertyDescription", "NSObject"]
        let composite = ["NSAttributeDescription", "NSPropertyDescription", "NSObject"]
        func attribute(_ b: inout ArchiveBuilder, _ name: String, _ type: Int, _ valueClass: String, optional: Bool) -> [String: Int] {
            var fields: [String: Any] = [
                "NSAttributeType": type, "NSPropertyName": b.add(name), "NSRenamingIdentifier": b.add(name),
                "NSAttributeValueClassName": b.add(valueClass), "NSFlagsKey": 0
            ]
            if optional { fields["NSIsOptional"] = true }
            return b.add("NSAttributeDescription", fields, superclasses: property)
        }
        func compositeAttribute(
            _ b: inout ArchiveBuilder, _ name: String, optional: Bool, isEnum: Bool = false,
            _ elements: [[String: Int]]
        ) -> [String: Int] {
            let list = b.add("NSMutableArray", ["NS.objects": elements], superclasses: ["NSArray", "NSObject"])
            let info = isEnum ? b.dictionary([("EnumType", b.add(true))]) : b.dictionary([])
            var fields: [String: Any] = [
                "NSAttributeType": 2100, "NSPropertyName": b.add(name), "NSRenamingIdentifier": b.add(name),
                "NSAttributeValueClassName": b.add("NSDictionary"), "NSCompositeElements": list,
                "NSUserInfo": info, "NSFlagsKey": 0
            ]
            if optional { fields["NSIsOptional"] = true }
            return b.add("NSCompositeAttributeDescription", fields, superclasses: composite)
        }
        // Elements are optional in the archive whatever the struct says, as in the real one.
        let cocktailProperties: [(String, [String: Int])] = [
            ("cocktailName", attribute(&b, "cocktailName", 700, "NSString", optional: false)),
            (
                "glasswareType",
                compositeAttribute(
                    &b, "glasswareType", optional: false, isEnum: true,
                    [attribute(&b, "glasswareType", 700, "NSString", optional: true)])
            ),
            (
                "historicSpec",
                compositeAttribute(
                    &b, "historicSpec", optional: true, isEnum: true,
                    [
                        attribute(&b, "algonquin", 700, "NSString", optional: true),
                        attribute(&b, "alaska", 700, "NSString", optional: true)
                    ])
            ),
            (
                "author",
                compositeAttribute(
                    &b, "author", optional: true,
                    [
                        attribute(&b, "id", 1100, "NSUUID", optional: true),
                        attribute(&b, "person", 700, "NSString", optional: true),
                        attribute(&b, "place", 700, "NSString", optional: true),
                        attribute(&b, "year", 700, "NSString", optional: true)
                    ])
            ),
            ("id", attribute(&b, "id", 1100, "NSUUID", optional: false)),
            (
                "origin",
                compositeAttribute(
                    &b, "origin", optional: true,
                    [
                        attribute(&b, "city", 700, "NSString", optional: true),
                        compositeAttribute(
                            &b, "coords", optional: true,
                            [
                                attribute(&b, "lat", 500, "NSNumber", optional: true),
                                attribute(&b, "lon", 500, "NSNumber", optional: true)
                            ]),
                        attribute(&b, "place", 700, "NSString", optional: true)
                    ])
            ),
            (
                "collection",
                compositeAttribute(
                    &b, "collection", optional: true, isEnum: true,
                    [attribute(&b, "collection", 300, "NSNumber", optional: true)])
            )
        ]
        let ingredientProperties: [(String, [String: Int])] = [
            ("name", attribute(&b, "name", 700, "NSString", optional: false)),
            (
                "prep",
                compositeAttribute(
                    &b, "prep", optional: true,
                    [
                        attribute(&b, "id", 1100, "NSUUID", optional: true),
                        attribute(&b, "prepIngredientName", 700, "NSString", optional: true)
                    ])
            ),
            ("id", attribute(&b, "id", 1100, "NSUUID", optional: false))
        ]
        func entity(_ b: inout ArchiveBuilder, _ name: String, _ properties: [(String, [String: Int])]) -> [String: Int] {
            b.add(
                "NSEntityDescription",
                [
                    "NSEntityName": b.add(name), "NSClassNameForEntity": b.add(name),
                    "NSProperties": b.dictionary(properties)
                ])
        }
        let entities = [
            ("Cocktail", entity(&b, "Cocktail", cocktailProperties)), ("IngredientBase", entity(&b, "IngredientBase", ingredientProperties))
        ]
        let model = b.add("NSManagedObjectModel", ["NSEntities": b.dictionary(entities)])
        return try b.data(root: model)
    }

    /// `bytes` as raw DEFLATE of stored blocks (at most 65,535 bytes each).
    public static func deflateStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + 65535, bytes.count)
            let length = UInt16(end - start)
            out.append(end == bytes.count ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += bytes[start..<end]
            start = end
        } while start < bytes.count
        return out
    }

    private static func hex<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        bytes.map { String(format: "%02X", $0) }.joined()
    }
}
