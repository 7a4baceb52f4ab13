import CLua
import CQuarryShim
import QuarryStore

extension QuarryRuntime {
    /// An unsaved change to `object`'s own values: only its row goes stale (read through
    /// the object from now on, `adoptRow`), with the results' caches (what results hold
    /// may change with the values); every other row's cells stay current. Making every
    /// row stale at each assignment sent each later row of a loop through Swift (issue 84).
    func objectValuesChanged(_ object: ManagedObject) {
        // Its row is looked up at every change, even one made through the userdata that
        // holds the object (3,900 instructions an assignment): where a deleted row's number
        // came back for a new row, Lua may hold a second userdata still read from cells.
        // On the thread of the call in progress (a change may come from a coroutine).
        let current = state
        guard lua_checkstack(current, 8) != 0 else { return quarry_bump_epoch(mainState) }
        adoptRow(current, of: object)
        quarry_bump_results_epoch(mainState)
    }
}
