import Foundation
/// Parts of compiled models that none of the real files has (fetch request templates,
/// fetched properties, predicates), in archives built here, plus a mutation test: a real
/// archive with values swapped at random must decode or fail with a ModelFileError, never trap.
import QuarryModel
import QuarryModelFiles
import QuarryTestSupport
import Testing

@Suite struct ArchivedPredicateTests {
    /// `Item(name: String, rank: Integer 32)`, the predicate built by `predicate`, used by a
    /// template `Top` and a fetched property `others`.
    func model(_ predicate: (inout ArchiveBuilder) -> [String: Int]) throws -> CoreDataModel {
        var b = ArchiveBuilder()
        let name = b.add(
            "NSAttributeDescription", ["NSAttributeType": 700, "NSPropertyName": b.add("name")], superclasses: ["NSPropertyDescription", "NSObject"])
        let rank = b.add(
            "NSAttributeDescription", ["NSAttributeType": 200, "NSIsOptional": true, "NSPropertyName": b.add("rank")],
            superclasses: ["NSPropertyDescription", "NSObject"])
        let p = predicate(&b)
        let request = b.add("NSFetchRequest", ["NSEntityName": b.add("Item"), "NSPredicate": p])
        let fetched = b.add(
            "NSFetchedPropertyDescription", ["NSPropertyName": b.add("others"), "NSFetchRequest": request],
            superclasses: ["NSPropertyDescription", "NSObject"])
        let properties = b.dictionary([("name", name), ("rank", rank), ("others", fetched)])
        let entity = b.add("NSEntityDescription", ["NSEntityName": b.add("Item"), "NSProperties": properties, "NSIsAbstract": true])
        let model = b.add(
            "NSManagedObjectModel", ["NSEntities": b.dictionary([("Item", entity)]), "NSFetchRequestTemplates": b.dictionary([("Top", request)])])
        return try CoreDataModel.decodeArchive(b.data(root: model), path: "Built.mom")
    }

    func keyPath(_ b: inout ArchiveBuilder, _ key: String) -> [String: Int] {
        b.add("NSKeyPathExpression", ["NSKeyPath": b.add(key)])
    }

    func comparison(_ b: inout ArchiveBuilder, _ key: String, _ op: Int, _ constant: Any, options: Int = 0) -> [String: Int] {
        let left = keyPath(&b, key)
        let right = b.add("NSConstantValueExpression", ["NSConstantValue": b.add(constant)])
        let op = b.add("NSPredicateOperator", ["NSOperatorType": op, "NSOptions": options])
        return b.add("NSComparisonPredicate", ["NSLeftExpression": left, "NSRightExpression": right, "NSPredicateOperator": op])
    }

    @Test func fetchRequestTemplatesAndFetchedPropertiesKeepTheirPredicates() throws {
        let model = try self.model { b in
            let a = comparison(&b, "name", 8, "A\"b", options: 3)
            let c = comparison(&b, "rank", 2, 3)
            return b.add("NSCompoundPredicate", ["NSCompoundPredicateType": 1, "NSSubpredicates": b.array([a, c])])
        }
        let expected = CoreDataPredicate.format(#"(name BEGINSWITH[cd] "A\"b") AND (rank > 3)"#)
        #expect(model.fetchRequests == [CoreDataFetchRequest(name: "Top", entity: "Item", predicate: expected)])
        let item = try #require(model.entity(named: "Item"))
        #expect(item.isAbstract)
        #expect(item.fetchedProperties == [CoreDataFetchedProperty(name: "others", entity: "Item", predicate: expected)])
        #expect(item.attribute(named: "name")?.isOptional == false && item.attribute(named: "rank")?.type == .integer32)
    }

    @Test func unknownPredicateClassesAreKeptAsUnsupported() throws {
        let model = try self.model { b in b.add("NSBlockPredicate", [:]) }
        #expect(model.fetchRequests.first?.predicate == .unsupported("NSBlockPredicate"))
    }

    @Test func cyclicAndDeepPredicatesAreBrokenArchives() throws {
        // A compound predicate listing itself: the UID it will get is known in advance.
        let cyclic = #expect(throws: ModelFileError.self) {
            _ = try self.model { b in
                // After the NSArray class, the array and the NSCompoundPredicate class, all new here.
                let me = ArchiveBuilder.uid(b.objects.count + 3)
                let list = b.array([me])
                let predicate = b.add("NSCompoundPredicate", ["NSCompoundPredicateType": 2, "NSSubpredicates": list])
                #expect(predicate == me)
                return predicate
            }
        }
        #expect(cyclic?.kind == .brokenArchive && cyclic?.detail.contains("contains itself") == true, "\(String(describing: cyclic))")
        let deep = #expect(throws: ModelFileError.self) {
            _ = try self.model { b in
                var p = comparison(&b, "rank", 4, 1)
                for _ in 0..<200 { p = b.add("NSCompoundPredicate", ["NSCompoundPredicateType": 0, "NSSubpredicates": b.array([p])]) }
                return p
            }
        }
        #expect(deep?.kind == .brokenArchive && deep?.detail.contains("deeper than") == true, "\(String(describing: deep))")
    }

    @Test func randomlyMutatedArchivesNeverTrap() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: CoreDataFixtures.path("cars/SampleModel.momd/SampleModel.mom")))
        let original = try #require(try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any])
        let pristine = try #require(original["$objects"] as? [Any])
        var random = SplitMix64(seed: 7)
        var decoded = 0
        var failed = 0
        for _ in 0..<300 {
            var objects = pristine
            for _ in 0..<random.int(1...3) {
                let index = random.int(1...(objects.count - 1))
                guard var object = objects[index] as? [String: Any], let key = object.keys.sorted().randomElement(using: &random) else { continue }
                let replacements: [Any] = [
                    ArchiveBuilder.uid(random.int(0...80)), ArchiveBuilder.uid(-1), random.int(-5...3000), "text", true, [ArchiveBuilder.uid(3)],
                    Data([1, 2])
                ]
                object[key] = random.pick(replacements)
                objects[index] = object
            }
            var archive = original
            archive["$objects"] = objects
            let mutated = try PropertyListSerialization.data(fromPropertyList: archive, format: .binary, options: 0)
            do {
                _ = try CoreDataModel.decodeArchive(mutated, path: "Mutated.mom")
                decoded += 1
            } catch is ModelFileError {
                failed += 1
            }
        }
        #expect(decoded + failed == 300 && failed > 0)
    }
}
