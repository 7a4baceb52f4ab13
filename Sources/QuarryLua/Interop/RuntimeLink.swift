/// How a store's callbacks (a lost connection's note) reach the runtime without keeping it
/// alive: the runtime empties its link as it goes (`QuarryRuntime.deinit`), as a `weak`
/// reference would be emptied.
///
/// Not `weak`: a weak reference gives the runtime a side table, through which every
/// retain and release of it then goes the slow way (60,000 of them in a save of 20,000
/// changed objects made in Lua, issue 84). `unowned(unsafe)` is safe here because the
/// runtime empties the link before it goes, and the runtime and its stores' callbacks
/// run on one thread.
final class RuntimeLink {
    unowned(unsafe) var runtime: QuarryRuntime?
}
