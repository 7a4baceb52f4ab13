import Foundation
import Testing

/// scripts/install into a scratch prefix, with the debug binary the tests use (`--binary`,
/// so no release build): the installed quarry runs from another folder, its man page
/// renders, each completion script loads in its shell and completes, and --uninstall
/// leaves the prefix as it was. A tool that is missing fails the test, naming it.
@Suite struct InstallTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `name` on PATH (or the usual folders), or a failure saying what to install.
    static func tool(_ name: String, package: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/local/bin"] {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw HarnessError("\(name) is missing: install the Debian package \(package) (scripts/test does)")
    }

    /// Every path under `folder`, relative to it.
    static func contents(_ folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
    }

    struct Installed {
        let prefix: String
        var bin: String { prefix + "/bin" }
        var reader: String { prefix + "/libexec/quarry/quarry-swift-reader" }
        var man: String { prefix + "/share/man/man1/quarry.1" }
        var bash: String { prefix + "/share/bash-completion/completions/quarry" }
        var zsh: String { prefix + "/share/zsh/site-functions/_quarry" }
        var fish: String { prefix + "/share/fish/vendor_completions.d/quarry.fish" }
        var manifest: String { prefix + "/share/quarry/install-manifest" }
    }

    /// The environment for the installed quarry and the shells: PATH starts with the prefix.
    static func environment(_ sandbox: Sandbox, _ installed: Installed) -> [String: String] {
        var environment = sandbox.environment()
        environment["PATH"] = installed.bin + ":/usr/bin:/bin"
        environment["LC_ALL"] = "C"
        return environment
    }

    @Test func installRunsRendersCompletesAndUninstallsLeavingNothing() async throws {
        let bash = try Self.tool("bash", package: "bash")
        let zsh = try Self.tool("zsh", package: "zsh")
        let fish = try Self.tool("fish", package: "fish")
        let man = try Self.tool("man", package: "man-db")
        _ = try Self.tool("groff", package: "groff")
        _ = try Self.tool("strip", package: "binutils")
        let readelf = try Self.tool("readelf", package: "binutils")

        let sandbox = try Sandbox()
        let installed = Installed(prefix: sandbox.path("prefix"))
        try FileManager.default.createDirectory(atPath: installed.prefix, withIntermediateDirectories: true)
        var installEnvironment = sandbox.environment()
        installEnvironment["PATH"] = "/usr/bin:/bin"
        let script = Self.root.appendingPathComponent("scripts/install").path
        let install = try await sandbox.run(
            bash, [script, "--binary", sandbox.binary.path, installed.prefix],
            environment: installEnvironment, timeout: 600)
        try #require(install.status == 0, "\(install)")
        for file in [installed.bin + "/quarry", installed.reader, installed.man, installed.bash, installed.zsh, installed.fish, installed.manifest] {
            #expect(FileManager.default.fileExists(atPath: file), "\(file) installed")
        }
        // The prefix is on no search path here, so the script says what to add.
        #expect(install.stderr.contains("add \(installed.bin) to PATH"), "\(install)")
        // The manifest names every file the install made, and nothing else is there.
        let manifest = try String(contentsOfFile: installed.manifest, encoding: .utf8)
        let listed = Set(manifest.split(separator: "\n").filter { $0.hasPrefix("file ") }.map { String($0.dropFirst(5)) })
        let present = Set(
            Self.contents(installed.prefix).map { installed.prefix + "/" + $0 }
                .filter { !$0.hasSuffix("install-manifest") && !Self.isFolder($0) })
        #expect(listed == present, "manifest \(listed.sorted()) against \(present.sorted())")

        // Stripped: the debug build has DWARF sections, the installed copy none.
        let before = try await sandbox.run(readelf, ["-S", "--wide", sandbox.binary.path])
        let after = try await sandbox.run(readelf, ["-S", "--wide", installed.bin + "/quarry"])
        #expect(before.stdout.contains(".debug_info") && !after.stdout.contains(".debug_info"), "stripped")

        // The installed binary, from another working folder, by PATH.
        let environment = Self.environment(sandbox, installed)
        try FileManager.default.createDirectory(atPath: sandbox.path("elsewhere"), withIntermediateDirectories: true)
        try sandbox.write("elsewhere/todo.db", "")
        // A sidecar beside it (what format() and relate() keep): no database to offer.
        try sandbox.write("elsewhere/todo.db.quarry", "{}")
        // A #Predicate: read by the installed quarry-swift-reader, found from bin/ in ../libexec/quarry.
        try sandbox.write("elsewhere/job.lua", "print('job ran', ...)\nprint(predicate('#Predicate<Item> { $0.qty > 1 }'))\n")
        try sandbox.write("elsewhere/notes.txt", "")
        let ran = try await sandbox.run(bash, ["-c", "cd elsewhere && quarry job.lua x && quarry --version"], environment: environment)
        #expect(ran.status == 0 && ran.lines.first == "job ran\tx" && ran.lines.last?.hasPrefix("quarry ") == true, "\(ran)")
        #expect(ran.lines.dropFirst().first == "qty > 1", "\(ran)")

        // man -l renders the page, with the sections the contract asks for, without warnings.
        var manEnvironment = environment
        manEnvironment["MANPAGER"] = "cat"
        manEnvironment["PAGER"] = "cat"
        manEnvironment["MANWIDTH"] = "100"
        let page = try await sandbox.run(man, ["--warnings", "-l", installed.man], environment: manEnvironment)
        #expect(page.status == 0 && page.stderr.isEmpty, "\(page)")
        for text in [
            "QUARRY(1)", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "--timeout", "--no-init",
            "LUA_INIT_5_4", "XDG_CONFIG_HOME", "NO_COLOR", "quarry/history", "init.lua"
        ] {
            #expect(page.stdout.contains(text), "the page has \(text)")
        }

        try await Self.checkBash(sandbox, bash, installed, environment)
        try await Self.checkZsh(sandbox, zsh, installed, environment)
        try await Self.checkFish(sandbox, fish, installed, environment)

        let uninstall = try await sandbox.run(bash, [script, "--uninstall", installed.prefix], environment: installEnvironment)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(Self.contents(installed.prefix).isEmpty, "left behind: \(Self.contents(installed.prefix))")
    }

    /// Installing twice keeps the manifest exact, and uninstalling leaves what the prefix
    /// held before (a folder and a file of another program's) as it was.
    @Test func uninstallLeavesWhatItDidNotInstall() async throws {
        let bash = try Self.tool("bash", package: "bash")
        _ = try Self.tool("strip", package: "binutils")
        let sandbox = try Sandbox()
        let prefix = sandbox.path("prefix")
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try "#!/bin/sh\n".write(toFile: prefix + "/bin/other", atomically: true, encoding: .utf8)
        var environment = sandbox.environment()
        environment["PATH"] = "/usr/bin:/bin"
        let script = Self.root.appendingPathComponent("scripts/install").path
        for _ in 0..<2 {
            let install = try await sandbox.run(bash, [script, "--binary", sandbox.binary.path, prefix], environment: environment, timeout: 600)
            try #require(install.status == 0, "\(install)")
        }
        let manifest = try String(contentsOfFile: prefix + "/share/quarry/install-manifest", encoding: .utf8)
        let files = manifest.split(separator: "\n").filter { $0.hasPrefix("file ") }
        #expect(files.count == 6 && !manifest.contains("dir \(prefix)/bin\n"), "\(manifest)")
        let uninstall = try await sandbox.run(bash, [script, "--uninstall", prefix], environment: environment)
        #expect(uninstall.status == 0, "\(uninstall)")
        #expect(Self.contents(prefix) == ["bin", "bin/other"], "\(Self.contents(prefix))")
        let again = try await sandbox.run(bash, [script, "--uninstall", prefix], environment: environment)
        #expect(again.status == 1 && again.stderr.contains("no install manifest"), "\(again)")
        let bad = try await sandbox.run(bash, [script, "--bogus"], environment: environment)
        #expect(bad.status == 2 && bad.stderr.contains("unknown option '--bogus'"), "\(bad)")
    }

    /// A manifest naming anything an install does not put under PREFIX (a file or an empty
    /// folder of the user's, outside it) makes --uninstall refuse, removing nothing; a PREFIX
    /// with a newline, which could write manifest lines of its own, is refused at once.
    @Test func uninstallRemovesOnlyWhatTheInstallPutUnderThePrefix() async throws {
        let bash = try Self.tool("bash", package: "bash")
        _ = try Self.tool("strip", package: "binutils")
        let sandbox = try Sandbox()
        let prefix = sandbox.path("prefix")
        let victim = sandbox.path("bashrc")
        let emptyFolder = sandbox.path("keep")
        try "alias ll='ls -l'\n".write(toFile: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: emptyFolder, withIntermediateDirectories: true)
        var environment = sandbox.environment()
        environment["PATH"] = "/usr/bin:/bin"
        let script = Self.root.appendingPathComponent("scripts/install").path
        let install = try await sandbox.run(bash, [script, "--binary", sandbox.binary.path, prefix], environment: environment, timeout: 600)
        try #require(install.status == 0, "\(install)")
        let manifestPath = prefix + "/share/quarry/install-manifest"
        let manifest = try String(contentsOfFile: manifestPath, encoding: .utf8)
        for planted in ["file \(victim)", "dir \(emptyFolder)", "file \(prefix)/bin/../../bashrc", "rm -rf /"] {
            try (manifest + planted + "\n").write(toFile: manifestPath, atomically: true, encoding: .utf8)
            let uninstall = try await sandbox.run(bash, [script, "--uninstall", prefix], environment: environment)
            #expect(uninstall.status == 1 && uninstall.stderr.contains("nothing was removed"), "\(planted): \(uninstall)")
            #expect(FileManager.default.fileExists(atPath: victim), "\(planted) removed \(victim)")
            #expect(Self.isFolder(emptyFolder), "\(planted) removed \(emptyFolder)")
            #expect(FileManager.default.fileExists(atPath: prefix + "/bin/quarry"), "\(planted): the install was half removed")
        }
        try manifest.write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let uninstall = try await sandbox.run(bash, [script, "--uninstall", prefix], environment: environment)
        #expect(uninstall.status == 0 && Self.contents(prefix).isEmpty, "\(uninstall) \(Self.contents(prefix))")

        let newline = sandbox.path("p\nfile \(victim)")
        let refused = try await sandbox.run(bash, [script, "--binary", sandbox.binary.path, newline], environment: environment, timeout: 600)
        #expect(refused.status == 1 && refused.stderr.contains("control character"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: newline), "a PREFIX with a newline was made")
        #expect(FileManager.default.fileExists(atPath: victim))
    }

    /// PREFIX is one spelling of its folder (`p//` is `p`, `//` is `/` and refused), and a
    /// folder under it that is a symbolic link out of it (a planted `bin` -> elsewhere) makes
    /// --uninstall refuse, removing nothing there; a planted line is quoted when named.
    @Test func uninstallStaysInThePrefixWhateverItsSpellingOrLinks() async throws {
        let bash = try Self.tool("bash", package: "bash")
        _ = try Self.tool("strip", package: "binutils")
        let sandbox = try Sandbox()
        var environment = sandbox.environment()
        environment["PATH"] = "/usr/bin:/bin"
        let script = Self.root.appendingPathComponent("scripts/install").path
        let slashes = sandbox.path("p") + "//"
        let install = try await sandbox.run(bash, [script, "--binary", sandbox.binary.path, slashes], environment: environment, timeout: 600)
        try #require(install.status == 0, "\(install)")
        let manifest = try String(contentsOfFile: sandbox.path("p/share/quarry/install-manifest"), encoding: .utf8)
        #expect(!manifest.contains("//"), "\(manifest)")
        let uninstall = try await sandbox.run(bash, [script, "--uninstall", slashes], environment: environment, timeout: 600)
        #expect(uninstall.status == 0 && !FileManager.default.fileExists(atPath: sandbox.path("p")), "\(uninstall)")
        let root = try await sandbox.run(bash, [script, "--binary", sandbox.binary.path, "//"], environment: environment, timeout: 600)
        #expect(root.status == 1 && root.stderr.contains("PREFIX cannot be /"), "\(root)")

        let prefix = sandbox.path("linked")
        let elsewhere = sandbox.path("elsewhere")
        try FileManager.default.createDirectory(atPath: prefix + "/share/quarry", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try "mine\n".write(toFile: elsewhere + "/quarry", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: prefix + "/bin", withDestinationPath: elsewhere)
        let manifestPath = prefix + "/share/quarry/install-manifest"
        try "file \(prefix)/bin/quarry\n".write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let linked = try await sandbox.run(bash, [script, "--uninstall", prefix], environment: environment, timeout: 600)
        #expect(linked.status == 1 && linked.stderr.contains("symbolic link out of"), "\(linked)")
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/quarry"), "uninstall removed a file outside PREFIX")

        try "file \(prefix)/bin/quarry\u{1B}[31m\n".write(toFile: manifestPath, atomically: true, encoding: .utf8)
        let escaped = try await sandbox.run(bash, [script, "--uninstall", prefix], environment: environment, timeout: 600)
        #expect(escaped.status == 1 && !escaped.stderr.contains("\u{1B}"), "\(escaped)")
    }

    static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    /// bash: the completion function bash-completion would call, on a few command lines.
    static func checkBash(_ sandbox: Sandbox, _ bash: URL, _ installed: Installed, _ environment: [String: String]) async throws {
        let complete = #"""
            source "$1" || exit 3
            cd elsewhere
            function=$(complete -p quarry | sed -E 's/.*-F ([^ ]+).*/\1/')
            run() {
              COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
              "$function" quarry "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
              printf '%s\n' "${COMPREPLY[@]}"; echo ---
            }
            run quarry --ti
            run quarry ''
            run quarry todo.db ''
            run quarry po
            """#
        let result = try await sandbox.run(bash, ["-c", complete, "bash", installed.bash], environment: environment)
        #expect(result.status == 0, "bash loads the script: \(result)")
        let parts = result.stdout.components(separatedBy: "---\n").map { ProcessResult.split($0).map { $0.trimmingCharacters(in: .whitespaces) } }
        try #require(parts.count >= 3, "\(result)")
        #expect(parts[0] == ["--timeout"], "bash: --ti completes to --timeout: \(parts[0])")
        // Not `postgres://` for an empty word, which bash would list as a bare '/'; no sidecar.
        #expect(parts[1].contains("todo.db") && !parts[1].contains("postgres://"), "bash: DB: \(parts[1])")
        #expect(!parts[1].contains { $0.hasSuffix(".quarry") }, "bash: no sidecar: \(parts[1])")
        #expect(parts[2].contains("job.lua") && !parts[2].contains("notes.txt"), "bash: a script after DB: \(parts[2])")
        #expect(parts.count > 3 && parts[3] == ["postgres://"], "bash: po completes to postgres://: \(parts.dropFirst(3).first ?? [])")
    }

    /// zsh: compinit finds `_quarry` in the prefix's site-functions, and Tab in a real
    /// interactive zsh (tmux) completes an option, DB and SCRIPT.
    static func checkZsh(_ sandbox: Sandbox, _ zsh: URL, _ installed: Installed, _ environment: [String: String]) async throws {
        let functions = (installed.zsh as NSString).deletingLastPathComponent
        let setUp = "fpath=(\(functions) $fpath); autoload -Uz compinit; compinit -u -D"
        let loaded = try await sandbox.run(zsh, ["-fc", setUp + "; print -r -- $_comps[quarry]"], environment: environment)
        #expect(loaded.status == 0 && loaded.lines.last == "_quarry", "zsh loads the script: \(loaded)")
        let pane = try await ShellPane(sandbox, command: "\(TmuxSession.quote(zsh.path)) -f", environment: environment)
        try await pane.enter(setUp + "; cd elsewhere; PS1='zsh> '", prompt: "zsh>")
        try await pane.complete("quarry --ti", to: "quarry --timeout", prompt: "zsh>")
        try await pane.complete("quarry po", to: "quarry postgres://", prompt: "zsh>")
        try await pane.complete("quarry todo.db j", to: "quarry todo.db job.lua", prompt: "zsh>")
    }

    /// fish: `complete -C` asks the loaded script for an option's completions; DB and
    /// SCRIPT, whose completions read the command line (which fish gives only to an
    /// interactive session), are completed with Tab on a terminal (tmux).
    static func checkFish(_ sandbox: Sandbox, _ fish: URL, _ installed: Installed, _ environment: [String: String]) async throws {
        let result = try await sandbox.run(
            fish, ["--no-config", "-c", "source \(installed.fish); and complete -C 'quarry --ti'"],
            environment: environment)
        #expect(result.status == 0, "fish loads the script: \(result)")
        let option = result.lines.map { String($0.split(separator: "\t", maxSplits: 1).first ?? "") }
        #expect(option == ["--timeout"], "fish: --ti completes to --timeout: \(result)")
        let pane = try await ShellPane(sandbox, command: "\(TmuxSession.quote(fish.path)) --no-config --private", environment: environment)
        _ = try await pane.waitUntil("fish to start") { !$0.isEmpty }
        try await pane.type(
            "set -g fish_autosuggestion_enabled 0; function fish_prompt; echo -n 'fish> '; end; source \(installed.fish); cd elsewhere")
        try await pane.press("Enter")
        _ = try await pane.waitUntil("fish's prompt") { $0.last == "fish>" }
        try await pane.complete("quarry po", to: "quarry postgres://", prompt: "fish>")
        try await pane.complete("quarry todo.db j", to: "quarry todo.db job.lua", prompt: "fish>")
    }
}

/// Any shell on a terminal: a private tmux server with one pane running `command`.
final class ShellPane {
    let sandbox: Sandbox
    let socket: String
    private let tmux: URL

    init(_ sandbox: Sandbox, command: String, environment: [String: String]) async throws {
        self.sandbox = sandbox
        tmux = try InstallTests.tool("tmux", package: "tmux")
        socket = sandbox.path("pane.sock")
        let assignments = environment.filter { ["PATH", "HOME", "LC_ALL"].contains($0.key) }.sorted { $0.key < $1.key }
            .map { "\($0.key)=\(TmuxSession.quote($0.value)) " }.joined()
        try await run([
            "new-session", "-d", "-s", "pane", "-x", "120", "-y", "40",
            "cd \(TmuxSession.quote(sandbox.directory.path)) && env \(assignments)\(command); sleep 600"
        ])
    }

    deinit {
        if let pid = try? ChildProcess.spawn(
            tmux.path, ["-S", socket, "kill-server"], environment: sandbox.environment(),
            directory: sandbox.directory.path, stdin: "/dev/null", stdout: "/dev/null", stderr: "/dev/null")
        {
            _ = ChildProcess.waitBlocking(pid, timeout: 5)
        }
    }

    func type(_ text: String) async throws { try await run(["send-keys", "-t", "pane", "-l", text]) }

    /// Types `line` and Enter, and waits for `prompt` (trailing blanks trimmed).
    func enter(_ line: String, prompt: String) async throws {
        try await type(line)
        try await press("Enter")
        _ = try await waitUntil("the prompt '\(prompt)' after \(line)") { $0.last == prompt }
    }

    /// Types `typed`, presses Tab, waits until the line reads `completed` after the
    /// prompt, then clears it (Ctrl-U) for the next.
    func complete(_ typed: String, to completed: String, prompt: String) async throws {
        try await type(typed)
        try await press("Tab")
        _ = try await waitUntil("'\(typed)' completed to '\(completed)'") { $0.last?.hasPrefix(prompt + " " + completed) == true }
        try await press("C-u")
        _ = try await waitUntil("the line cleared") { $0.last == prompt }
    }
    func press(_ key: String) async throws { try await run(["send-keys", "-t", "pane", key]) }

    /// Polls the pane (trailing blanks trimmed) until `condition` holds, or fails with it.
    @discardableResult
    func waitUntil(_ what: String, timeout: Double = 30, _ condition: ([String]) -> Bool) async throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines: [String] = []
        while Date() < deadline {
            let capture = try await run(["capture-pane", "-p", "-t", "pane"])
            lines = ProcessResult.split(capture.stdout).map { String($0.reversed().drop { $0 == " " }.reversed()) }
            while lines.last == "" { lines.removeLast() }
            if condition(lines) { return lines }
            try await Task.sleep(nanoseconds: 40_000_000)
        }
        throw HarnessError("timed out after \(timeout)s waiting for \(what); the screen:\n" + lines.joined(separator: "\n"))
    }

    @discardableResult
    private func run(_ arguments: [String]) async throws -> ProcessResult {
        let result = try await sandbox.run(tmux, ["-S", socket, "-f", "/dev/null"] + arguments, timeout: 30)
        guard result.status == 0 else { throw HarnessError("tmux \(arguments.first ?? "") failed: \(result)") }
        return result
    }
}
