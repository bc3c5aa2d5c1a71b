//! `labctl`: the Talos lab CLI. Each subcommand lives in its own module and returns
//! `Result<(), CliError>`; `main` prints the error on stderr and exits with code 1 (70,
//! `EX_SOFTWARE`, when a bug made the worker panic).

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod atomic;
mod diff;
mod generate;
#[cfg(feature = "lab")]
mod i18n;
mod input;
#[cfg(feature = "lab")]
mod lab;
mod lint;
mod lsp;
mod merge;
mod plan;
mod report;
mod schema;
#[cfg(feature = "lab")]
mod sim;
mod validate;

/// Offline tooling for the Talos Linux lab: merge and validate machine configurations
/// exactly as `talosctl` does.
#[derive(Debug, Parser)]
#[command(name = "labctl", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Apply patches to a machine configuration, like `talosctl machineconfig patch`.
    #[command(long_about = "Apply strategic merge and JSON6902 patches to a Talos machine configuration \
file, byte for byte like `talosctl machineconfig patch` (Talos v1.13).\n\n\
Patches are applied left to right. Without -o the result is printed to stdout followed by a \
newline; with -o it is written to the file (parent directories are created, the file is \
replaced atomically; a symlink is followed, an existing file keeps its mode, a new one gets mode \
0644 less the umask). On error, Talos's error text is printed on stderr, the exit \
code is 1 and no output file is created or changed. No validation is performed.")]
    Merge(merge::MergeArgs),
    /// Validate a machine configuration, like `talosctl validate`.
    #[command(long_about = "Validate a Talos machine configuration exactly as `talosctl validate` (Talos v1.13) \
does: the same warnings (WARNING: ... on stderr), the same error text on stderr with exit code 1, \
or `<config> is valid for <mode> mode` on stdout. `--config -` reads standard input, so that \
`labctl merge base.yaml -p @patch.yaml | labctl validate --config - --mode container` checks a \
patch before it reaches a node.")]
    Validate(validate::ValidateArgs),
    /// Find what Talos accepts but the node then breaks on (unknown kubelet flags, overlapping
    /// subnets, secrets in patches, ...), with the patch line that caused it.
    #[command(long_about = "Merge the patches onto the config exactly as `labctl merge` does, validate the result as \
`labctl validate` does (Talos's errors stay errors, with Talos's text), then run the lint rules: what Talos accepts \
and the node then breaks on. Every finding names the rule, its severity, the field, the file, line and column of the \
patch (or base) line that set the value, and a fix where there is one. Nothing is written.\n\n\
Exit codes: 0 no errors (warnings and infos allowed), 1 errors (or warnings with --strict), 2 usage error. \
Findings go to stdout in the chosen --output format; a one-line summary goes to stderr.")]
    Lint(lint::LintArgs),
    /// Predict whether a change applies live or reboots the node (`apply-config --mode auto`).
    #[command(
        long_about = "Predict, offline, what a node running CONFIG does when it is sent CONFIG plus the patches \
with `talosctl apply-config`: whether `--mode auto` applies it live or reboots, which fields force the reboot (with the \
patch line that set each), and whether `--mode no-reboot` and `--mode try` are accepted. The rule is Talos v1.13.9's \
(docs/explain.md); the simulated cluster answers by the same rule. Nothing is sent or written.\n\n\
Exit codes: 0, or 1 with --fail-on-reboot when a reboot is needed; 1 when an input cannot be read or merged."
    )]
    Plan(plan::PlanArgs),
    /// Compare two configs document by document, secrets redacted.
    #[command(long_about = "Compare two machine configurations document by document (matched by kind and name), each \
encoded as Talos encodes it, as Talos's unified diff (`--- a` / `+++ b`). The values of the secret fields Talos's \
RedactSecrets knows (tokens, CA and service-account keys, encryption secrets, registry passwords, WireGuard keys, ...) \
are replaced by REDACTED; removed values and documents are listed at the end. `--output json` gives typed changes \
(path, old, new, kind). Nothing is written; the exit code is 0 unless an input cannot be read.")]
    Diff(diff::DiffArgs),
    /// Drive and check the lab's nine steps (lab/steps.md) against the lab's cluster or a simulated one.
    #[cfg(feature = "lab")]
    #[command(subcommand)]
    Lab(Deferred<LabCommand>),
    /// Run the simulated two-node Talos cluster.
    #[cfg(feature = "lab")]
    #[command(subcommand)]
    Sim(Deferred<sim::SimCommand>),
    /// Serve the Language Server Protocol on stdio: Talos's checks, docs and keys in the editor.
    Lsp(lsp::LspArgs),
    /// Print the JSON Schema of Talos machine config documents (for editors and check-jsonschema).
    Schema(schema::SchemaArgs),
    /// Generate a secrets bundle and machine configs as talosctl gen does (`labctl gen --help`).
    #[command(disable_help_flag = true)]
    Gen(GenArgs),
    /// Not in this build: labctl was built without the `lab` feature.
    #[cfg(not(feature = "lab"))]
    #[command(disable_help_flag = true)]
    Lab(NotBuilt),
    /// Not in this build: labctl was built without the `lab` feature.
    #[cfg(not(feature = "lab"))]
    #[command(disable_help_flag = true)]
    Sim(NotBuilt),
}

/// `labctl gen`'s arguments, read as talosctl's flag library reads them (`generate::run`).
#[derive(Debug, clap::Args)]
struct GenArgs {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    args: Vec<String>,
}

/// The arguments of a subcommand left out of this build, taken as they come so that the user gets
/// the reason rather than a usage error.
#[cfg(not(feature = "lab"))]
#[derive(Debug, clap::Args)]
struct NotBuilt {
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    args: Vec<std::ffi::OsString>,
}

/// The error for `labctl lab`/`labctl sim` in a build without the `lab` feature.
#[cfg(not(feature = "lab"))]
fn not_built(command: &str) -> Result<(), CliError> {
    Err(CliError {
        message: format!(
            "labctl: `labctl {command}` is not in this build (labctl was built without the `lab` feature)"
        ),
        notes: vec!["install the full labctl with: cargo install --path labctl".to_string()],
        exit_code: None,
    })
}

#[cfg(feature = "lab")]
#[derive(Debug, Subcommand)]
enum LabCommand {
    /// Perform the steps through the Talos API and write every file the lab names.
    #[command(long_about = "Perform the lab's steps through the Talos API (never a shell), the docker CLI (step 1, \
container start time and restart count) and the Kubernetes API (with the kubeconfig fetched in step 4), writing \
every file lab/steps.md names into --out, atomically. Waits are bounded and show progress on stderr. No change is \
applied while a try-mode rollback is pending on the node (unless --force), and a step whose change is already in \
place is not applied twice. After step 9 the run is verified as `labctl lab check` does.\n\n\
`--sim` starts a simulated cluster in this process; `--sim-dir DIR` uses one started by `labctl sim up --dir DIR`.")]
    Run(lab::RunArgs),
    /// Verify the lab's files against the live cluster, one pass/fail line per step.
    Check(lab::CheckArgs),
}

/// The subcommands of `labctl lab` and `labctl sim`, whose arguments (the largest part of the
/// command line) are built only when clap needs them once [`LAZY_LAB`] is set: `labctl merge`,
/// `validate`, `gen`, ... do not pay for them at start.
#[cfg(feature = "lab")]
#[derive(Debug)]
struct Deferred<T>(T);

/// Set before the command line is built when it names a command that is neither `lab` nor `sim`
/// (nor help, which shows them): their subcommands are then added by [`clap::Command::defer`],
/// which clap runs only if it goes into them. The command built either way is the same once
/// clap has built it; unset (tests, `lab`, `sim`, help), it is built at once.
#[cfg(feature = "lab")]
static LAZY_LAB: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(feature = "lab")]
impl<T: clap::Subcommand> clap::Subcommand for Deferred<T> {
    fn augment_subcommands(cmd: clap::Command) -> clap::Command {
        if LAZY_LAB.load(std::sync::atomic::Ordering::Relaxed) {
            cmd.defer(T::augment_subcommands)
        } else {
            T::augment_subcommands(cmd)
        }
    }

    fn augment_subcommands_for_update(cmd: clap::Command) -> clap::Command {
        T::augment_subcommands_for_update(cmd)
    }

    fn has_subcommand(name: &str) -> bool {
        T::has_subcommand(name)
    }
}

#[cfg(feature = "lab")]
impl<T: clap::FromArgMatches> clap::FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }

    fn from_arg_matches_mut(matches: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }

    fn update_from_arg_matches_mut(&mut self, matches: &mut clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

/// The first arguments after which clap never goes into `lab` or `sim` nor shows them: the
/// other subcommands, and `--version`.
#[cfg(feature = "lab")]
const NOT_LAB: [&str; 10] = ["merge", "validate", "lint", "plan", "diff", "lsp", "schema", "gen", "--version", "-V"];

/// An error that ends the program: the text is printed on stderr as is (followed by `\n`),
/// then optional extra lines with details.
#[derive(Debug)]
pub struct CliError {
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
}

/// Parses the command line; `labctl lab` and `labctl sim` say their help and usage in the
/// learner's language.
fn parse() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    #[cfg(feature = "lab")]
    {
        let args: Vec<String> = std::env::args().collect();
        let lazy = args.get(1).is_some_and(|first| NOT_LAB.contains(&first.as_str()));
        LAZY_LAB.store(lazy, std::sync::atomic::Ordering::Relaxed);
        i18n::help::choose_from_args(&args);
    }
    let command =
        Cli::command().version(format!("{} (Talos {})", env!("CARGO_PKG_VERSION"), talos_config::TALOS_VERSION));
    #[cfg(feature = "lab")]
    let command = i18n::help::localize(command);
    command.try_get_matches().and_then(|matches| Cli::from_arg_matches(&matches))
}

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(err) => {
            // --help and --version go to stdout with success; usage errors to stderr, code 1
            // (talosctl exits 1 on every error).
            let _ = err.print();
            if !err.use_stderr() {
                return ExitCode::SUCCESS;
            }
            // `lint` is for CI, where 2 tells a usage error from findings (1).
            return if std::env::args().nth(1).as_deref() == Some("lint") {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            };
        }
    };
    // The command runs on a worker thread so that a bug (a panic) still ends with a message and
    // a distinct exit code. Its stack is the default: the library handles the deepest YAML
    // (10,000 levels) on any stack by growing it on demand.
    let worker = std::thread::Builder::new().spawn(move || match cli.command {
        Command::Merge(args) => merge::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Lint(args) => lint::run(&args),
        Command::Plan(args) => plan::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Gen(args) => generate::run(&args.args),
        Command::Schema(args) => schema::run(&args),
        Command::Lsp(args) => lsp::run(args.talos.release),
        #[cfg(feature = "lab")]
        Command::Lab(Deferred(LabCommand::Run(args))) => lab::run(&args),
        #[cfg(feature = "lab")]
        Command::Lab(Deferred(LabCommand::Check(args))) => lab::check(&args),
        #[cfg(feature = "lab")]
        Command::Sim(Deferred(command)) => sim::run(&command),
        #[cfg(not(feature = "lab"))]
        Command::Lab(_) => not_built("lab"),
        #[cfg(not(feature = "lab"))]
        Command::Sim(_) => not_built("sim"),
    });
    let (result, code) = outcome(worker.map(|handle| handle.join()));
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

    #[cfg(not(feature = "lab"))]
    #[test]
    fn lab_and_sim_say_they_are_not_built() {
        for (args, command) in [(&["labctl", "lab", "run", "--sim"][..], "lab"), (&["labctl", "sim", "up"][..], "sim")]
        {
            let cli = Cli::try_parse_from(args).expect("parsed");
            let result = match cli.command {
                Command::Lab(_) => not_built("lab"),
                Command::Sim(_) => not_built("sim"),
                _ => Ok(()),
            };
            let err = result.expect_err("refused");
            assert_eq!(
                err.message,
                format!("labctl: `labctl {command}` is not in this build (labctl was built without the `lab` feature)")
            );
            assert_eq!(err.notes, ["install the full labctl with: cargo install --path labctl"]);
        }
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

    /// The English help of `lab` and `sim` is en.ftl's (the doc comments above are its source): a
    /// translation cannot drift from what English users read.
    #[cfg(feature = "lab")]
    #[test]
    fn the_english_help_of_lab_and_sim_is_in_en_ftl() {
        use clap::CommandFactory;
        let texts = i18n::help::english_texts(&Cli::command());
        assert!(texts.len() >= 20, "{texts:?}");
        let differing: Vec<String> = texts
            .iter()
            .filter(|(id, doc)| &i18n::message(id, None) != doc)
            .map(|(id, doc)| format!("{id} = {doc}"))
            .collect();
        assert!(differing.is_empty(), "en.ftl lacks or words differently:\n{}", differing.join("\n"));
    }

    /// In every language, the lab and sim commands' help builds (clap's own checks pass) and
    /// shows the translated texts with the values clap would add.
    #[cfg(feature = "lab")]
    #[test]
    fn the_translated_help_builds_in_every_language() {
        use clap::CommandFactory;
        for code in i18n::languages() {
            let lookup = i18n::lookup_in(code).expect("a catalogue");
            let mut cli = i18n::help::localize_with(Cli::command(), &lookup);
            cli.build();
            let check = cli.find_subcommand_mut("lab").and_then(|lab| lab.find_subcommand_mut("check")).expect("check");
            let help = check.render_help().to_string();
            let arg = |name: &'static str, value: &str| {
                let mut args = fluent_bundle::FluentArgs::new();
                args.set(name, value.to_string());
                args
            };
            let output = lookup("help-arg-output", None).expect("help-arg-output");
            let values = lookup("help-values", Some(&arg("values", "text, json"))).expect("help-values");
            let default = lookup("help-default", Some(&arg("value", "text"))).expect("help-default");
            assert!(help.contains(&format!("{output} [{values}] [{default}]")), "{code}:\n{help}");
        }
    }
}
