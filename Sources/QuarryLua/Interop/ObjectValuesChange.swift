import CLua
import CQuarryShim
import QuarryStore

extension QuarryRuntime {
    /// An unsaved change to `object`'s own values: only its row goes stale (read through
    /// the object from now on, `adoptRow`), with the results' caches (what results hold
    /// may change with the values); every other row's cells stay current. Making every
    /// row stale at each assignment sent each later row of a loop through Swift (issue 84).
    func objectValuesChanged(_ object: ManagedObject) {
        // Its row is looked up (2,400 instructions an assignment, a twentieth of a loop
        // changing every row) unless the change came through the row userdata that holds
        // the object while no row has had a second userdata: a row fetched again after its
        // object was made, or whose deleted key came back for a new row, has two, and the
        // other still reads its cells.
        guard changedThroughItsRow != ObjectIdentifier(object) else { return quarry_bump_results_epoch(mainState) }
        // On the thread of the call in progress (a change may come from a coroutine).
        let current = state
        guard lua_checkstack(current, 8) != 0 else { return quarry_bump_epoch(mainState) }
        adoptRow(current, of: object)
        quarry_bump_results_epoch(mainState)
    }
}
