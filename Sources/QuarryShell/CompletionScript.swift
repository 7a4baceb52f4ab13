/// The completion scripts are ArgumentParser's (`--generate-completion-script`), with one
/// repair. ArgumentParser 1.8 adds a `help` subcommand to every root command's help data,
/// and its zsh script declares it as a positional and a rest argument (`'(-): :->command'`,
/// `'(-)*:: :->arg'`) beside quarry's own rest argument, ARGS; zsh's `_arguments` then
/// refuses to complete anything ("doubled rest argument definition"). quarry has no
/// subcommands, so those two specifications are dropped. (InstallTests completes in zsh.)
enum CompletionScript {
    static func repaired(_ script: String) -> String {
        guard script.hasPrefix("#compdef ") else { return script }
        let helpSubcommand = ["'(-): :->command'", "'(-)*:: :->arg'"]
        return script.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in !helpSubcommand.contains(line.trimmingCharacters(in: .whitespaces)) }
            .joined(separator: "\n")
    }
}
