import CLua
import CQuarryShim
import QuarryFetch
import QuarryFormat
import QuarryModel
import QuarryPredicates
import QuarryStore
import QuarrySwiftReading

/// One Lua state with Quarry's API installed over one object context.
public final class QuarryRuntime {
    /// The main thread; `state` is the thread of the call in progress (a coroutine's own),
    /// which is where bound functions must push their results.
    let mainState: OpaquePointer
    private var activeState: OpaquePointer?
    public var state: OpaquePointer { activeState ?? mainState }
    /// The store. One opened lazily (`init(memoryLimit:opening:)`) is opened on first use.
    public var context: ObjectContext {
        if let focus, let opened = focus.opened { return opened }
        switch store {
        case .open(let context):
            return context
        case .pending(let open):
            let context = open()
            store = .open(context)
            attach(context)
            return context
        }
    }
    /// The store, once it is open (nil while a lazily opened one has not been needed yet).
    public var openedContext: ObjectContext? {
        if let focus, let opened = focus.opened { return opened }
        if case .open(let context) = store { return context }
        return nil
    }
    private enum Store {
        case open(ObjectContext)
        /// Not needed yet: what opens it.
        case pending(() -> ObjectContext)
    }
    private var store: Store
    /// What the session decides and the runtime reads: how values print, whether the
    /// sandbox is in force. The shell's session owns it; a runtime made alone has its own.
    public let settings: SessionSettings
    /// Where the runtime's own output goes (notices, progress, a watch's drawing and keys).
    public let console: any Console
    /// `--memory` in bytes (0: none), to say so when Lua runs out.
    let memoryLimit: Int
    /// What reads a Swift `#Predicate` or sort keys: swift-syntax is not in this layer.
    let swiftReader: any SwiftInputReading
    /// The bound functions Lua's closures point at.
    private let functions = BoundFunctions()
    /// What bound functions threw, kept as values for the failure they become.
    let raisedErrors = RaisedErrors()
    /// Set while the state closes, so a bound function called by a user `__gc` then can
    /// refuse instead of touching a runtime that is going away.
    private var closing = false
    /// The session's own store as Lua sees it (`stores()[1]`), with what is its own.
    let defaultStore = OpenedStore(default: ())
    /// The stores `open()` opened and not closed since, in order.
    var otherStores: [OpenedStore] = []
    /// Those `b:close()` closed: kept (their contexts closed) so that what was read from
    /// them refuses in one line naming them.
    var closedStores: [OpenedStore] = []
    /// Whether `open()` ever opened one: until then every call works on the default
    /// store, and the dispatcher asks nothing of its arguments.
    var storesWereOpened = false
    /// The store the call in progress works on (nil: the default; see `focusCall`).
    var focus: OpenedStore?
    /// The store `context` means now.
    var focusedStore: OpenedStore { focus ?? defaultStore }
    /// How many stores `open()` has opened, which numbers their identity scopes.
    var storesOpened = 0
    /// What clears and redraws the REPL's line around a note said while it waits
    /// (`noticeOutsideChanges`); nil otherwise.
    var aroundNotes: (before: () -> Void, after: () -> Void)?
    /// One handle per entity name of the store in focus, kept so the same name is the
    /// same Lua value.
    var entityHandles: [String: EntityHandle] {
        get { focusedStore.entityHandles }
        set { focusedStore.entityHandles = newValue }
    }
    /// "Entity.key" for each section key whose sort Quarry had to complete (said once).
    var sectionNotices: Set<String> = []
    /// `Entity.column` pairs whose format() under --readonly was said to last the session.
    var readOnlyFormatNotices: Set<String> = []
    /// `Entity.key` pairs already noted as keys Core Data refuses over that entity.
    var subentityKeyNotices: Set<String> = []
    /// LIKE patterns already noted as holding SQL's wildcards (`SQLWildcardHint`), and quoted
    /// keys' notes (`Predicate.quotedKeyHints`): each said once.
    var wildcardNotices: Set<String> = []
    /// `Entity.key` text columns of numbers whose text order was noted (`noteTextSortedNumbers`).
    var textSortNotices: Set<String> = []
    /// `Entity.key` columns of no type already looked at for numbers written as text
    /// (`noteNumbersWrittenAsText`).
    var numberTextNotices: Set<String> = []
    /// `Entity.key` text columns already looked at for dates that are not ISO 8601.
    var textDateNotices: Set<String> = []
    /// `Entity.key` date columns of Quarry's own tables whose Unix seconds an SQL
    /// statement was told about (`noteDatesInSQL`).
    var sqlDateNotices: Set<String> = []
    /// Properties already told that `/` divides as reals (`noteRealDivision`).
    var realDivisionNotices: Set<String> = []
    /// The note on `== nil` was said (`noteNilComparison`): once a session.
    var nilComparisonNoted = false
    /// `Entity.key` optional attributes already counted for nils under `!=`
    /// (`noteNotEqualMatchesNil`), and whether that note was said: once a session.
    var notEqualNilChecked: Set<String> = []
    var notEqualNilNoted = false
    /// Whether `history{}` said that the file keeps no history (`ForeignFileNotes`): once.
    var historyNoteSaid = false
    /// The text of the last chunk loaded under each name (`=stdin`, `=(command line)`), so
    /// that an error can read the line a call was written on (`fetch(citty)`).
    var loadedChunks: [String: String] = [:]
    /// The object an assignment in progress changes through the row userdata holding it,
    /// while no row has two userdata (`quarry_row_twins`): no other can need adopting it.
    var changedThroughItsRow: ObjectIdentifier?
    /// The observers of the store in focus (each store keeps its own).
    var observerRegistryStorage: ObserverRegistry? {
        get { focusedStore.observerRegistry }
        set { focusedStore.observerRegistry = newValue }
    }
    /// How many observer callbacks have raised an error (each noticed and skipped, so the
    /// work around it went on): a batch run that had one ends with status 1.
    public internal(set) var observerFailures = 0
    /// How results print (`.mode`, `.headers`, colour, terminal width), as the session set it;
    /// while a result is rendered for `.once FILE`, as a file takes it: the mode kept, every
    /// row and every column whole, no colour, nothing said of the terminal.
    var tableFormat: TableFormat {
        guard rendersForFile else { return settings.format }
        var format = settings.format
        if let onceMode { format.mode = onceMode }
        format.width = 0
        format.maxRows = 0
        format.textWidth = 0
        format.colors = false
        format.pagerRows = 0
        format.leftOutHint = nil
        format.hiddenRowsHint = nil
        return format
    }
    /// A result is being rendered for `.once FILE` (see `tableFormat`).
    var rendersForFile = false
    /// The mode `.once FILE` writes in where its file's name chose one (`top.csv`).
    var onceMode: OutputMode?
    /// `--safe` is in force (see `enterSandbox`): files load as text only, and nothing is written.
    public var isSandboxed: Bool { settings.safe }
    /// What the stores' callbacks reach the runtime by (`RuntimeLink`), emptied as it goes.
    let link = RuntimeLink()

    /// Makes a state (its Lua heap capped at `memoryLimit` bytes, 0: none) with the
    /// standard libraries and Quarry's functions, as globals and in the table `quarry`.
    /// `swiftReader` reads Swift `#Predicate`s and sort keys (the shell's starts a process).
    public init(
        context: ObjectContext, memoryLimit: Int = 0, settings: SessionSettings = SessionSettings(), console: any Console = PlainConsole(),
        swiftReader: any SwiftInputReading
    ) throws {
        guard let state = quarry_newstate(memoryLimit) else { throw LuaError("cannot create a Lua state") }
        self.swiftReader = swiftReader
        self.memoryLimit = memoryLimit
        self.settings = settings
        self.console = console
        self.mainState = state
        self.store = .open(context)
        try setUp()
        attach(context)
    }

    /// Makes a state whose store `open` makes when something first uses it: a batch run
    /// that never touches the store (`quarry -e 'local x = 1'`) then never pays for opening
    /// one, which was most of its start-up past the dynamic loader (GRDB's set-up, the
    /// schema read, closing). For a new in-memory store only, where opening later changes
    /// nothing the user can see: it starts empty, with no notes to print. `open` cannot
    /// fail in a way it can report as a value (it runs inside whatever first needs the
    /// store), so it must say what went wrong and end the process itself.
    public init(
        memoryLimit: Int = 0, settings: SessionSettings = SessionSettings(), console: any Console = PlainConsole(),
        swiftReader: any SwiftInputReading, opening open: @escaping () -> ObjectContext
    ) throws {
        guard let state = quarry_newstate(memoryLimit) else { throw LuaError("cannot create a Lua state") }
        self.swiftReader = swiftReader
        self.memoryLimit = memoryLimit
        self.settings = settings
        self.console = console
        self.mainState = state
        self.store = .pending(open)
        try setUp()
    }

    /// The standard libraries and Quarry's functions, as globals and in the table `quarry`.
    private func setUp() throws {
        link.runtime = self
        let state = mainState
        quarry_set_dispatcher(swiftDispatcher)
        if settings.ignoresLuaEnvironment {
            // What lua -E does: the package library then keeps its default paths.
            lua_pushboolean(state, 1)
            setRegistryField(state, "LUA_NOENV")
        }
        luaL_openlibs(state)
        // Before the prelude captures coroutine.create (its coroutine.wrap uses it).
        quarry_guard_coroutines(state)
        installUserdataSupport(state) { kind in self.installMetamethods(kind) }
        lua_createtable(state, 0, 32)
        lua_pushvalue(state, -1)
        setRegistryField(state, "quarry.api")
        lua_setglobal(state, "quarry")
        try installGlobals()
    }

    /// What the runtime does with a store once it has it: its entities as globals, and
    /// watches on its changes.
    private func attach(_ context: ObjectContext) {
        bindEntityGlobals()
        watch(context, for: defaultStore)
        context.sayConnectionLoss { [link] note in link.runtime?.sayConnectionLoss(note) }
        try? context.startNoticingOtherConnections()
    }

    /// Row cells read from `context` go stale whenever its objects may change, but for an
    /// unsaved change to one object's values (`objectValuesChanged`).
    func watch(_ context: ObjectContext, for store: OpenedStore) {
        let state = mainState
        store.stateWatch = context.watchState { [unowned self] changed in
            guard let changed else { return quarry_bump_epoch(state) }
            objectValuesChanged(changed)
        }
        // On the thread of the call in progress (refresh() may run in a coroutine).
        store.outsideChangeWatch = context.watchOutsideChanges { [unowned self] in makeRowObjectsInUse(self.state) }
        quarry_bump_epoch(state)
    }

    func stopWatching(_ context: ObjectContext, for store: OpenedStore) {
        context.stopWatchingState(store.stateWatch)
        context.stopWatchingState(store.outsideChangeWatch)
    }

    deinit {
        link.runtime = nil
        // Closing runs every pending __gc, which may call bound functions: they see
        // `closing` and refuse, and the bound functions outlive the close.
        closing = true
        focus = nil
        if let openedContext { stopWatching(openedContext, for: defaultStore) }
        for store in otherStores {
            if let opened = store.opened { stopWatching(opened, for: store) }
        }
        quarry_close(mainState)
    }

    /// Replaces the store (`.open`); objects of the old one stay readable but detached.
    public func use(_ context: ObjectContext) {
        focus = nil
        observerRegistryStorage?.token?.cancel()
        observerRegistryStorage = nil
        // A store never opened is not opened now only to be closed.
        if let old = openedContext {
            stopWatching(old, for: defaultStore)
            // As the sqlite3 shell's .open: the old store is closed now, not when the last
            // result that holds it goes (which then says its connection is closed).
            if old !== context { old.close() }
        }
        store = .open(context)
        watch(context, for: defaultStore)
        resetRowIdentities(state, scope: "")
        unbindEntityGlobals()
        bindEntityGlobals()
        try? context.startNoticingOtherConnections()
    }

    // MARK: Binding Swift functions

    /// Pushes a Lua function that runs `body`.
    func pushFunction(_ name: String, _ body: @escaping LuaFunctionBody) {
        push(BoundFunction(name: name, function: { _, call in try body(call) }, runtime: self))
    }

    private func push(_ function: BoundFunction) {
        quarry_push_swift_function(state, functions.add(function))
    }

    /// Runs a bound function for the dispatcher, with `state` the thread that called it.
    func run(_ function: UnsafePointer<BoundFunction>, _ call: LuaCall) throws -> Int32 {
        if closing {
            // While the state closes only __gc runs: it releases its Swift object and
            // touches nothing of the runtime.
            guard call.functionName == "__gc" else { throw LuaError("quarry is closing; '\(call.functionName)' cannot run now") }
            return try function.pointee.function(self, call)
        }
        let outer = activeState
        let outerFocus = focus
        activeState = call.state
        defer {
            activeState = outer
            focus = outerFocus
        }
        try focusCall(function.pointee, call)
        return try function.pointee.function(self, call)
    }

    /// Pops the value on top into `_G[name]` and `quarry[name]` (raw sets).
    func setGlobalAndQuarryField(_ name: String) {
        quarry_pushglobaltable(state)
        pushQuarryTable()
        lua_pushvalue(state, -3)
        LuaTable.setField(state, -2, name)
        quarry_pop(state, 1)
        lua_pushvalue(state, -2)
        LuaTable.setField(state, -2, name)
        quarry_pop(state, 2)
    }

    /// Pushes a Lua function that runs `binding`'s function with this runtime.
    func pushBinding(_ binding: LuaBinding, takesStore: Bool = false) {
        push(BoundFunction(name: binding.name, function: binding.function, runtime: self, takesStore: takesStore))
    }

    /// Defines each function of `library` as a global and in the table `quarry`.
    /// (`setGlobalAndQuarryField` for each, with both tables and each name pushed once.)
    func register(_ library: [LuaBinding]) {
        quarry_pushglobaltable(state)
        pushQuarryTable()
        for binding in library {
            pushString(state, binding.name)
            pushBinding(binding, takesStore: StoreBindings.storeTakingFunctions.contains(binding.name))
            lua_pushvalue(state, -2)
            lua_pushvalue(state, -2)
            lua_rawset(state, -6) // _G
            lua_rawset(state, -3) // quarry
        }
        quarry_pop(state, 2)
    }

    /// Sets each function of `library` in the table `quarry` only (hooks for the prelude).
    func registerInQuarryTable(_ library: [LuaBinding]) {
        pushQuarryTable()
        for binding in library {
            pushBinding(binding)
            LuaTable.setField(state, -2, binding.name)
        }
        quarry_pop(state, 1)
    }

    /// Pushes the table of `kind`'s methods, for `__index` to find. Each is made when first
    /// asked for: most runs use the methods of few kinds, and a run that uses none (`quarry
    /// -e 'local x = 1'`) then binds none of them (see docs/benchmarks.md, "Start-up").
    func pushMethods(_ kind: UserdataKind) {
        guard pushRegistrySlot(state, .methods(kind)) == LUA_TNIL else { return }
        quarry_pop(state, 1)
        let methods = Self.methods(kind)
        lua_createtable(state, 0, Int32(methods.count))
        for binding in methods {
            pushBinding(binding)
            LuaTable.setField(state, -2, binding.name)
        }
        lua_pushvalue(state, -1)
        setRegistrySlot(state, .methods(kind))
    }

    /// Pushes the method `name` of `kind`; returns false (pushing nothing) when there is none.
    func pushMethod(_ kind: UserdataKind, _ name: String) -> Bool {
        pushMethods(kind)
        if LuaTable.field(state, -1, name) == LUA_TNIL {
            quarry_pop(state, 2)
            return false
        }
        quarry_remove(state, -2)
        return true
    }

    /// The metamethods of each kind of userdata (`__gc` apart: every kind that holds a
    /// Swift object gets the one that releases it). A switch, not a dictionary keyed by
    /// the kind: making that dictionary asked the Swift runtime whether `UserdataKind` is
    /// `Hashable`, a search of all 11,500 conformance records of the binary (0.15 ms of
    /// every start; see docs/benchmarks.md, "Start-up").
    private static func metamethods(_ kind: UserdataKind) -> [LuaBinding] {
        switch kind {
        case .object: ObjectBindings.objectMetamethods
        case .results: ResultsBindings.resultsMetamethods
        case .entity: SchemaBindings.entityMetamethods
        case .date: ValueBindings.dateMetamethods
        case .decimal: DecimalBindings.decimalMetamethods
        case .predicate: PredicateBindings.predicateMetamethods
        case .section: SectionBindings.sectionMetamethods
        case .set: SetBindings.setMetamethods
        case .observer: ObserverBindings.simpleMetamethods(.observer)
        case .namespace: ObserverBindings.simpleMetamethods(.namespace)
        case .binding: ObserverBindings.bindingMetamethods
        case .state: ObserverBindings.stateMetamethods
        case .store: StoreBindings.storeMetamethods
        case .rows, .query, .keeper: []
        }
    }

    private func installMetamethods(_ kind: UserdataKind) {
        for binding in Self.metamethods(kind) {
            pushBinding(binding)
            // Reads of rows and of loaded results are answered in C (see RowObjects.swift).
            if binding.name == "__index", kind == .object {
                quarry_wrap_object_index(state)
            } else if binding.name == "__index", kind == .results || kind == .section {
                quarry_wrap_results_index(state)
            } else if binding.name == "__index", kind == .entity {
                // `Item:new{...}` looks `new` up at every call.
                quarry_wrap_method_index(state, RegistrySlot.methods(kind).number)
            }
            LuaTable.setField(state, -2, binding.name)
        }
        if kind.holdsSwiftObject {
            push(
                BoundFunction(
                    name: "__gc",
                    function: { _, call in
                        releaseSwiftObject(call.state, 1, kind: kind)
                        return 0
                    }, runtime: self))
            LuaTable.setField(state, -2, "__gc")
        }
    }

    /// The methods of each kind of userdata, found through its `__index`. A switch, as
    /// `metamethods` is.
    private static func methods(_ kind: UserdataKind) -> [LuaBinding] {
        switch kind {
        case .results: FetchBindings.resultsMethods
        case .object: ObjectBindings.objectMethods + ObjectBindings.objectOnlyMethods
        case .set: SetBindings.setMethods
        case .binding: ObserverBindings.bindingMethods
        case .state: ObserverBindings.stateMethods
        case .observer: ObserverBindings.observerMethods
        case .namespace: ObserverBindings.namespaceMethods
        case .predicate: PredicateBindings.predicateMethods
        case .entity: SchemaBindings.entityMethods
        case .store: StoreBindings.storeMethods
        case .section, .date, .decimal, .rows, .query, .keeper: []
        }
    }

    /// Quarry's libraries, as lua.c's `loadedlibs`: each a table of name → function,
    /// defined as globals and in the table `quarry`; then hooks for the prelude, in
    /// `quarry` only (it takes them out before any script runs). One call each rather than
    /// a loop over an array of them: such an array's type is made by the Swift runtime
    /// from its mangled name at its first use, some 20,000 instructions a start.
    private func installGlobals() throws {
        register(SchemaBindings.schemaLibrary)
        register(FetchBindings.fetchLibrary)
        register(ContextBindings.contextLibrary)
        register(ValueBindings.valueLibrary)
        register(DecimalBindings.decimalLibrary)
        register(ObjectBindings.objectLibrary)
        register(SetBindings.setLibrary)
        register(ObjectBindings.objectGlobals)
        register(ObserverBindings.observerLibrary)
        register(PredicateBindings.predicateLibrary)
        register(DataBindings.dataLibrary)
        register(ModelBindings.modelLibrary)
        register(WatchBindings.watchLibrary)
        register(SeeingBindings.seeingLibrary)
        register(ChartBindings.chartLibrary)
        register(DiffBindings.diffLibrary)
        register(StoreBindings.storeLibrary)
        registerInQuarryTable(DataBindings.onceWriter)
        registerInQuarryTable(SeeingBindings.pagerHook)
        registerInQuarryTable(PredicateBindings.explainHook)
        installNull()
        try runPrelude()
    }

    /// The default store's context when it is open, whatever the focus.
    var openedDefaultContext: ObjectContext? {
        if case .open(let context) = store { return context }
        return nil
    }
}

/// Any error as a `LuaError` with the same parts. Bindings throw store, fetch and
/// predicate errors as they are (the dispatcher renders every `QuarryError`); this is for
/// a caller that wants a `LuaError` to adjust.
func luaError(_ error: Error) -> LuaError {
    if let error = error as? LuaError { return error }
    guard let error = error as? any QuarryError else { return LuaError(String(describing: error)) }
    var converted = LuaError(error.message, operation: error.operation, suggestion: error.suggestion, remedy: error.remedy)
    converted.location = error.location
    return converted
}
