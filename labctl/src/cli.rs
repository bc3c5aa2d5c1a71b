//! What both executables share: the top-level command line, the subcommands `labctl` runs itself
//! ([`Common`]), the error type every subcommand returns, and the way a command is run (on a
//! worker thread, its error printed on stderr, its exit code).

use std::io::Write;
use std::process::ExitCode;

use clap::{FromArgMatches, Parser, Subcommand};

use crate::{cluster, diff, generate, lint, lsp, merge, plan, schema, upgrade, validate};

/// Offline tooling for the Talos Linux lab: merge and validate machine configurations
/// exactly as `talosctl` does.
#[derive(Debug, Parser)]
#[command(name = "labctl", version, propagate_version = true)]
pub(crate) struct Cli<C: Subcommand> {
    #[command(subcommand)]
    pub(crate) command: C,
}

/// The subcommands that need neither the lab nor the simulator: the `labctl` executable runs them
/// itself. Each has its place in `labctl --help` (`display_order`): `lab` and `sim` come between
/// `diff` and `lsp` (6 and 7) in the full build, after `gen` (11 and 12) in a build without them.
#[derive(Debug, Subcommand)]
pub(crate) enum Common {
    /// Apply patches to a machine configuration, like `talosctl machineconfig patch`.
    #[command(
        display_order = 1,
        long_about = "Apply strategic merge and JSON6902 patches to a Talos machine configuration \
file, byte for byte like `talosctl machineconfig patch` (Talos v1.13).\n\n\
Patches are applied left to right. Without -o the result is printed to stdout followed by a \
newline; with -o it is written to the file (parent directories are created, the file is \
replaced atomically; a symlink is followed, an existing file keeps its mode, a new one gets mode \
0644 less the umask). On error, Talos's error text is printed on stderr, the exit \
code is 1 and no output file is created or changed. No validation is performed."
    )]
    Merge(merge::MergeArgs),
    /// Validate a machine configuration, like `talosctl validate`.
    #[command(
        display_order = 2,
        long_about = "Validate a Talos machine configuration exactly as `talosctl validate` (Talos v1.13) \
does: the same warnings (WARNING: ... on stderr), the same error text on stderr with exit code 1, \
or `<config> is valid for <mode> mode` on stdout. `--config -` reads standard input, so that \
`labctl merge base.yaml -p @patch.yaml | labctl validate --config - --mode container` checks a \
patch before it reaches a node."
    )]
    Validate(validate::ValidateArgs),
    /// Find what Talos accepts but the node then breaks on (unknown kubelet flags, overlapping
    /// subnets, secrets in patches, ...), with the patch line that caused it.
    #[command(
        display_order = 3,
        long_about = "Merge the patches onto the config exactly as `labctl merge` does, validate the result as \
`labctl validate` does (Talos's errors stay errors, with Talos's text), then run the lint rules: what Talos accepts \
and the node then breaks on. Every finding names the rule, its severity, the field, the file, line and column of the \
patch (or base) line that set the value, and a fix where there is one. Nothing is written.\n\n\
Exit codes: 0 no errors (warnings and infos allowed), 1 errors (or warnings with --strict), 2 usage error. \
Findings go to stdout in the chosen --output format; a one-line summary goes to stderr."
    )]
    Lint(lint::LintArgs),
    /// Predict whether a change applies live or reboots the node (`apply-config --mode auto`).
    #[command(
        display_order = 4,
        long_about = "Predict, offline, what a node running CONFIG does when it is sent CONFIG plus the patches \
with `talosctl apply-config`: whether `--mode auto` applies it live or reboots, which fields force the reboot (with the \
patch line that set each), and whether `--mode no-reboot` and `--mode try` are accepted. The rule is Talos v1.13.9's \
(docs/explain.md); the simulated cluster answers by the same rule. Nothing is sent or written.\n\n\
Exit codes: 0, or 1 with --fail-on-reboot when a reboot is needed; 1 when an input cannot be read or merged."
    )]
    Plan(plan::PlanArgs),
    /// Compare two configs document by document, secrets redacted.
    #[command(
        display_order = 5,
        long_about = "Compare two machine configurations document by document (matched by kind and name), each \
encoded as Talos encodes it, as Talos's unified diff (`--- a` / `+++ b`). The values of the secret fields Talos's \
RedactSecrets knows (tokens, CA and service-account keys, encryption secrets, registry passwords, WireGuard keys, ...) \
are replaced by REDACTED; removed values and documents are listed at the end. `--output json` gives typed changes \
(path, old, new, kind). Nothing is written; the exit code is 0 unless an input cannot be read."
    )]
    Diff(diff::DiffArgs),
    /// Before an upgrade: what the config and patches mean on the release the nodes will run.
    #[command(
        display_order = 5,
        long_about = "Check CONFIG plus the patches as the release the nodes run now (--from, default the default \
release) and as the release they will run (--to), and report the difference: document kinds and fields the target \
release does not have (each one, at the input line that wrote it), Talos's errors and warnings and lint findings that \
appear or disappear, values the same patches merge into differently, and settings the target release reads from \
another document (from v1.14, the Kubernetes settings of the v1alpha1 document). Nothing is written.\n\n\
Exit codes: 0 when the target release loads and validates the config, 1 when it refuses it, 2 usage error. The \
report goes to stdout in the chosen --output format; a one-line summary goes to stderr."
    )]
    Upgrade(upgrade::UpgradeArgs),
    /// Check a cluster's node configs together (`labctl cluster check PATH...`).
    #[command(subcommand, display_order = 6)]
    Cluster(cluster::ClusterCommand),
    /// Serve the Language Server Protocol on stdio: Talos's checks, docs and keys in the editor.
    #[command(display_order = 8)]
    Lsp(lsp::LspArgs),
    /// Print the JSON Schema of Talos machine config documents (for editors and check-jsonschema).
    #[command(display_order = 9)]
    Schema(schema::SchemaArgs),
    /// Generate a secrets bundle and machine configs as talosctl gen does (`labctl gen --help`).
    #[command(disable_help_flag = true, display_order = 10)]
    Gen(GenArgs),
}

/// The first arguments after which clap never goes into `lab` or `sim` nor shows them: the
/// [`Common`] subcommands, and `--version`. With the `lab` feature, `labctl` runs these itself
/// and hands every other command line to `labctl-lab`.
#[cfg(feature = "lab")]
pub(crate) const COMMON: [&str; 12] =
    ["merge", "validate", "lint", "plan", "diff", "upgrade", "cluster", "lsp", "schema", "gen", "--version", "-V"];

impl Common {
    /// Runs the subcommand.
    pub(crate) fn run(self) -> Result<(), CliError> {
        match self {
            Common::Merge(args) => merge::run(&args),
            Common::Validate(args) => validate::run(&args),
            Common::Lint(args) => lint::run(&args),
            Common::Plan(args) => plan::run(&args),
            Common::Diff(args) => diff::run(&args),
            Common::Upgrade(args) => upgrade::run(&args),
            Common::Cluster(command) => cluster::run(&command),
            Common::Gen(args) => generate::run(&args.args),
            Common::Schema(args) => schema::run(&args),
            Common::Lsp(args) => lsp::run(args.talos.release),
        }
    }
}

/// `labctl gen`'s arguments, read as talosctl's flag library reads them (`generate::run`).
#[derive(Debug, clap::Args)]
pub(crate) struct GenArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    args: Vec<String>,
}

/// An error that ends the program: the text is printed on stderr as is (followed by `\n`),
/// then optional extra lines with details.
#[derive(Debug)]
pub(crate) struct CliError {
    /// The first line(s): exactly the text talosctl prints.
    pub message: String,
    /// Further hints printed after the message (each followed by `\n`).
    pub notes: Vec<String>,
    /// The exit code, when not 1 (130 after Ctrl-C, 143 after SIGTERM).
    pub exit_code: Option<u8>,
}

impl CliError {
    /// An error with only a message.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError { message: message.into(), notes: Vec::new(), exit_code: None }
    }

    /// Adds a command's usage block after a message that mentions `arg(s)`, `flag` or
    /// `command`, as talosctl's root command does (`cmd/talosctl/cmd/root.go` looks at the text
    /// alone).
    pub fn with_talosctl_usage(mut self, usage: &str) -> CliError {
        if ["arg(s)", "flag", "command"].iter().any(|w| self.message.contains(w)) {
            self.notes.push(String::new());
            self.notes.push(usage.into());
        }
        self
    }
}

/// `labctl`'s command line with subcommands `C`, as clap builds it (`--version` says which Talos
/// release labctl answers as by default).
pub(crate) fn command<C: Subcommand>() -> clap::Command {
    use clap::CommandFactory;
    Cli::<C>::command().version(format!("{} (Talos {})", env!("CARGO_PKG_VERSION"), talos_config::TALOS_VERSION))
}

/// Parses the process's command line with `command` (from [`command`]) and runs the subcommand
/// with `run`: `--help` and `--version` print on stdout and exit 0, a usage error exits 1 (2 for
/// `lint`), the subcommand's error is printed by [`report`].
pub(crate) fn main<C>(command: clap::Command, run: fn(C) -> Result<(), CliError>) -> ExitCode
where
    C: Subcommand + Send + 'static,
{
    let cli = match command.try_get_matches().and_then(|matches| Cli::<C>::from_arg_matches(&matches)) {
        Ok(cli) => cli,
        Err(err) => {
            // --help and --version go to stdout with success; usage errors to stderr, code 1
            // (talosctl exits 1 on every error).
            let _ = err.print();
            if !err.use_stderr() {
                return ExitCode::SUCCESS;
            }
            // `lint` and `upgrade` are for CI, where 2 tells a usage error from findings (1).
            return if std::env::args_os()
                .nth(1)
                .is_some_and(|first| first == "lint" || first == "upgrade" || first == "cluster")
            {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            };
        }
    };
    // The command runs on a worker thread so that a bug (a panic) still ends with a message and
    // a distinct exit code. Its stack is the default: the library handles the deepest YAML
    // (10,000 levels) on any stack by growing it on demand.
    let worker = std::thread::Builder::new().spawn(move || run(cli.command));
    let (result, code) = outcome(worker.map(|handle| handle.join()));
    report(result, code)
}

/// Prints the error, if any, on stderr and gives the exit code (`code` for an error).
pub(crate) fn report(result: Result<(), CliError>, code: ExitCode) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            let mut stderr = std::io::stderr().lock();
            // Nothing sensible is left to do if stderr itself fails.
            let _ = writeln!(stderr, "{}", err.message);
            for note in &err.notes {
                let _ = writeln!(stderr, "{note}");
            }
            let _ = stderr.flush();
            code
        }
    }
}

/// The subcommand's result and the exit code for an error, from the worker thread's fate: its
/// own error exits 1 (talosctl's code), a panic exits [`EX_SOFTWARE`].
fn outcome(joined: std::io::Result<std::thread::Result<Result<(), CliError>>>) -> (Result<(), CliError>, ExitCode) {
    match joined {
        Ok(Ok(result)) => {
            let code = result.as_ref().err().and_then(|e| e.exit_code).map_or(ExitCode::FAILURE, ExitCode::from);
            (result, code)
        }
        // A panic is a bug in labctl, not a problem with the input: EX_SOFTWARE, so that scripts
        // can tell it from a rejected config (exit code 1).
        Ok(Err(_)) => (
            Err(CliError::new(
                "labctl: internal error: this is a bug in labctl, not a problem with your input; please report it \
                 with the command line and input files",
            )),
            ExitCode::from(EX_SOFTWARE),
        ),
        Err(e) => (Err(CliError::new(format!("labctl: cannot start: {e}"))), ExitCode::FAILURE),
    }
}

/// `EX_SOFTWARE` (sysexits.h): an internal software error.
const EX_SOFTWARE: u8 = 70;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_a_bug_with_ex_software() {
        let joined =
            std::thread::Builder::new().spawn(|| -> Result<(), CliError> { panic!("simulated bug") }).map(|h| h.join());
        let (result, code) = outcome(joined);
        assert_eq!(code, ExitCode::from(70));
        let message = result.err().map(|e| e.message);
        assert_eq!(
            message.as_deref(),
            Some(
                "labctl: internal error: this is a bug in labctl, not a problem with your input; please report it \
                 with the command line and input files"
            )
        );
    }

    #[test]
    fn a_user_error_exits_1() {
        let joined = std::thread::Builder::new().spawn(|| Err(CliError::new("bad input"))).map(|h| h.join());
        let (result, code) = outcome(joined);
        assert_eq!(code, ExitCode::FAILURE);
        assert_eq!(result.err().map(|e| e.message).as_deref(), Some("bad input"));
        let joined = std::thread::Builder::new().spawn(|| Ok(())).map(|h| h.join());
        assert!(outcome(joined).0.is_ok());
    }
}
