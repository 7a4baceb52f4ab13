import Foundation
import QuarryTestSupport
import Testing

/// Inheritance through the binary: defined and saved by one process, read by another.
@Suite struct InheritanceEndToEndTests {
    @Test func aHierarchySavedInOneProcessIsThereInTheNext() async throws {
        let sandbox = try Sandbox()
        let define = try await sandbox.quarry([
            "cars.db", "-e",
            #"""
            entity("Car", { abstract = true }) { make = "string" }
            entity("SportCar", { parent = "Car" }) { topSpeed = "int" }
            entity("Truck", { parent = "Car" }) { load = "double?" }
            for i = 1, 3 do SportCar:new{ make = "S" .. i, topSpeed = 200 + i } end
            Truck:new{ make = "T", load = 2 }
            save()
            """#
        ])
        #expect(define.status == 0, "\(define)")
        let read = try await sandbox.quarry([
            "cars.db", "-e",
            #"""
            print(count("Car"), count("SportCar"), count("Truck"), count{ "Car", subentities = false })
            print(Car:first("make == 'T'"):entity().name, count("Car", "topSpeed > 202"))
            print(pcall(function() return Car:new{ make = "x" } end))
            """#
        ])
        #expect(read.status == 0, "\(read)")
        #expect(read.lines.first == "4\t3\t1\t0", "\(read)")
        #expect(read.lines.dropFirst().first == "Truck\t1", "\(read)")
        #expect(read.lines.last?.hasPrefix("false\t") == true && read.lines.last?.contains("Car is abstract") == true, "\(read)")
        // A hostile redefinition is one line on stderr, exit 1.
        let bad = try await sandbox.quarry(["cars.db", "-e", #"entity("Truck", { parent = "SportCar" }) { load = "double?" }"#])
        #expect(bad.status == 1 && bad.errorLines.count == 1 && bad.stderr.contains("changing its parent"), "\(bad)")
    }
}
