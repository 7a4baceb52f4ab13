import CLua
import CQuarryShim
import QuarryStore

extension QuarryRuntime {
    /// An unsaved change to `object`'s own values: only its row goes stale (read through
    /// the object from now on, `adoptRow`), with the results' caches (what results hold
    /// may change with the values); every other row's cells stay current. Making every
    /// row stale at each assignment sent each later row of a loop through Swift (issue 84).
    func objectValuesChanged(_ object: ManagedObject) {
        // Assigned through the userdata that holds it (`assigningHeldObject`), the object
        // has no other row userdata to adopt: a row made an object is its row's one
        // userdata (batches reuse a row's userdata while it is only a row, and skip rows
        // whose objects are registered), and pushing an object adopts its row's. Looking
        // its row up for each assignment was 3,900 instructions of each of 20,000.
        if assigningHeldObject != ObjectIdentifier(object) {
            // On the thread of the call in progress (a change may come from a coroutine).
            let current = state
            guard lua_checkstack(current, 8) != 0 else { return quarry_bump_epoch(mainState) }
            adoptRow(current, of: object)
        }
        quarry_bump_results_epoch(mainState)
    }
}
