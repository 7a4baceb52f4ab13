/// A value kept by reference and copied only when changed while shared (copy on write,
/// as `Array` keeps its elements). For descriptions of many fields that are copied far
/// more often than changed: a copy is one retain, not one for each field.
///
/// The value is a `let`: reading it needs no run-time exclusivity check, where a `var` of
/// a class is checked at every read (a save of 20,000 changed objects read an entity's
/// name 1.3 million times, 63 instructions of `swift_beginAccess` each). An owner changes
/// its value by taking it out and boxing it again (`take`, then `init`).
package final class SharedBox<Value> {
    package let value: Value

    package init(_ value: Value) { self.value = value }

    /// The value of `box`, for its owner to change and box again: `box` is given `vacant`
    /// in its place, so when no other owner shared the old box, the value's collections
    /// are the caller's alone and change in place rather than being copied.
    package static func take(_ box: inout SharedBox, leaving vacant: SharedBox) -> Value {
        let value = box.value
        box = vacant
        return value
    }
}

extension SharedBox: Sendable where Value: Sendable {}
