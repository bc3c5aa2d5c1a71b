//! `labctl`: the Talos lab CLI. Each subcommand lives in its own module and returns
//! `Result<(), CliError>`; `main` prints the error on stderr and exits with code 1.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod merge;
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
replaced atomically, mode 0644). On error, Talos's error text is printed on stderr, the exit \
code is 1 and no output file is created or changed. No validation is performed.")]
    Merge(merge::MergeArgs),
    /// Validate a machine configuration, like `talosctl validate`.
    #[command(long_about = "Validate a Talos machine configuration exactly as `talosctl validate` (Talos v1.13) \
does: the same warnings (WARNING: ... on stderr), the same error text on stderr with exit code 1, \
or `<config> is valid for <mode> mode` on stdout. `--config -` reads standard input, so that \
`labctl merge base.yaml -p @patch.yaml | labctl validate --config - --mode container` checks a \
patch before it reaches a node.")]
    Validate(validate::ValidateArgs),
}

/// An error that ends the program: the text is printed on stderr as is (followed by `\n`),
/// then optional extra lines with details.
#[derive(Debug)]
pub struct CliError {
    /// The first line(s): exactly the text talosctl prints.
    pub message: String,
    /// Further hints printed after the message (each followed by `\n`).
    pub notes: Vec<String>,
}

impl CliError {
    /// An error with only a message.
    pub fn new(message: impl Into<String>) -> CliError {
        CliError { message: message.into(), notes: Vec::new() }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            // --help and --version go to stdout with success; usage errors to stderr, code 1
            // (talosctl exits 1 on every error).
            let _ = err.print();
            return if err.use_stderr() { ExitCode::FAILURE } else { ExitCode::SUCCESS };
        }
    };
    // YAML may nest 10,000 levels deep (go-yaml's limit) and the library recurses over it:
    // run on a thread with a stack large enough for that (only touched pages are used).
    let worker = std::thread::Builder::new().stack_size(1 << 30).spawn(move || match cli.command {
        Command::Merge(args) => merge::run(&args),
        Command::Validate(args) => validate::run(&args),
    });
    let result = match worker.map(|handle| handle.join()) {
        Ok(Ok(result)) => result,
        Ok(Err(_)) => Err(CliError::new("labctl: internal error (a bug): please report it with the input")),
        Err(e) => Err(CliError::new(format!("labctl: cannot start: {e}"))),
    };
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
            ExitCode::FAILURE
        }
    }
}
