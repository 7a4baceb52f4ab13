/// A value kept by reference and copied only when changed while shared (copy on write,
/// as `Array` keeps its elements). For descriptions of many fields that are copied far
/// more often than changed: a copy is one retain, not one for each field.
///
/// `@unchecked Sendable`: the value is only ever changed through a box no one else holds
/// (`makeUnique`), so a box two threads see is never written.
package final class SharedBox<Value> {
    package var value: Value

    package init(_ value: Value) { self.value = value }

    /// Makes `box` its owner's alone, copying it first when another owner shares it: what
    /// an owner does before changing the value (in its fields' `_modify`).
    package static func makeUnique(_ box: inout SharedBox) {
        if !isKnownUniquelyReferenced(&box) { box = SharedBox(box.value) }
    }
}

extension SharedBox: @unchecked Sendable where Value: Sendable {}
