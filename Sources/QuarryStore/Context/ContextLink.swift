/// How what belongs to a context reaches it without keeping it alive (its objects, row
/// batches, a change listener's token): the context empties its link as it goes
/// (`ObjectContext.deinit`), as a `weak` reference would be emptied.
///
/// Not `weak`: a weak reference gives the context a side table, through which every
/// retain and release of the context then goes the slow way, and a save of 20,000
/// changed objects retains and releases it some 160,000 times (issue 84). `unowned(unsafe)`
/// is safe here because the context empties the link before it goes, and a context, its
/// objects and what holds its link are made, used and released on one thread (the
/// import's second thread holds none of them), as for `IdentityMap.WeakObject`.
package final class ContextLink {
    package internal(set) var context: ObjectContext? {
        get { target }
        set { target = newValue }
    }
    /// `context`'s storage, out of other modules' sight: every object's every use reaches
    /// its context through it, and whole-module optimization drops the run-time exclusivity
    /// check only of storage no other module can reach (issue 84).
    private unowned(unsafe) var target: ObjectContext?
    init() {}
}
