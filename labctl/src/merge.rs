//! `labctl merge`: `talosctl machineconfig patch`, offline and byte for byte.
//!
//! The flow is talosctl's (docs/merge.md §0, §1.1, §10.1): read the config, read and load every
//! `-p` patch in order, apply them left to right, then print the bytes followed by `\n`, or write
//! exactly the bytes to `-o` (atomically: a temporary file in the same directory, renamed over
//! the target; symlinks followed and an existing file's mode kept, as `os.WriteFile` does).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use talos_config::provenance::{Provenance, annotate};
use talos_config::{CheckOptions, Checked, Checks, Error, PatchSource, check, check_owned};

use crate::CliError;
use crate::atomic::{AtomicWrite, FileMode, WriteStep};
use crate::input::{go_errno_text, path_error, path_error_text, read_file, read_patches};
use crate::report::{Format, render, summary};

/// Arguments of `labctl merge` (talosctl's `machineconfig patch` flags).
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The machine configuration file to patch.
    #[arg(value_name = "CONFIG")]
    pub config: PathBuf,

    /// Patch to apply, repeatable and applied in order; use @file to read a patch from a file.
    ///
    /// As in talosctl: `@path` reads a file; an argument without spaces or newlines that does
    /// not start with `[` or `{` is also a file name; anything else is the patch text itself
    /// (strategic merge YAML, or a JSON6902 patch as a JSON array or YAML list). Commas are not
    /// split.
    #[arg(
        short = 'p',
        long = "patch",
        value_name = "PATCH",
        action = clap::ArgAction::Append,
        allow_hyphen_values = true
    )]
    pub patches: Vec<String>,

    /// Output destination; if not specified, the result is printed to stdout.
    ///
    /// Parent directories are created. The file receives exactly the merged bytes (no added
    /// newline), replaced atomically; on error it is left untouched. A symlink is followed (its
    /// target is written), an existing file keeps its mode, a new one gets 0644 less the umask.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,

    /// Print the merged config with a `# <file>:<line>:<column>` comment after every value,
    /// naming the input that set it last (and the settings it replaced), then the values
    /// `$patch: delete` removed. For reading only: the comments are not Talos's output.
    #[arg(long, conflicts_with = "output")]
    pub provenance: bool,

    /// Print what the patches change instead of the merged config: `labctl diff` of CONFIG and
    /// the result, secrets redacted.
    #[arg(long, conflicts_with_all = ["output", "provenance"])]
    pub diff: bool,

    /// How a merge error is reported: `text` is talosctl's text on stderr; `json`, `sarif` and
    /// `github` print it on stdout for CI, at the input and line that failed (as `labctl lint`).
    #[arg(long = "error-format", value_name = "FORMAT", default_value = "text")]
    pub error_format: Format,

    #[command(flatten)]
    pub talos: crate::input::ReleaseArg,
}

/// Runs `labctl merge`.
pub fn run(args: &MergeArgs) -> Result<(), CliError> {
    let config = read_file(&args.config)?;

    let sources = read_patches(&args.patches)?;

    let base = PatchSource::new(args.config.display().to_string(), config);
    let release = args.talos.release;
    let options = CheckOptions { checks: Checks::MergeOnly, release, ..CheckOptions::default() };
    let refused = |e: Error| CliError::new(format!("labctl merge: {e}"));
    if args.diff || args.provenance {
        let checked = check(&base, &sources, &options).map_err(refused)?;
        let Some(out) = checked.merged() else {
            return Err(failure(&checked, args.error_format, &base.name));
        };
        if args.provenance {
            return print_provenance(&base, &sources, out);
        }
        let load = |bytes: &[u8]| talos_config::Config::from_bytes_for(bytes, release);
        let old = load(&base.bytes).map_err(|e| CliError::new(e.to_string()))?;
        let new = load(out).map_err(|e| CliError::new(e.to_string()))?;
        let names = (base.name.clone(), "the merged config".to_string());
        print!("{}", crate::diff::render(&old, &new, &names, "text"));
        return Ok(());
    }
    // Nothing but the result is needed once merged: the inputs are handed over and freed (with
    // no patches, the base's bytes are the result), and the result is written from where it is.
    let name = base.name.clone();
    let checked = check_owned(base, sources, &options).map_err(refused)?;
    let Some(out) = checked.merged() else {
        return Err(failure(&checked, args.error_format, &name));
    };
    match &args.output {
        Some(path) => write_atomically(path, out),
        None => {
            let mut stdout = io::stdout().lock();
            stdout
                .write_all(out)
                .and_then(|()| stdout.write_all(b"\n"))
                .and_then(|()| stdout.flush())
                .map_err(|e| CliError::new(format!("write /dev/stdout: {}", go_errno_text(&e))))
        }
    }
}

/// `--provenance`: the merged config annotated with where each value came from.
fn print_provenance(base: &PatchSource, sources: &[PatchSource], merged: &[u8]) -> Result<(), CliError> {
    let trace = Provenance::trace(base, sources);
    let text = annotate(merged, &trace)
        .map_err(|e| CliError::new(format!("labctl: cannot annotate the merged config: {e}")))?;
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| CliError::new(format!("write /dev/stdout: {}", go_errno_text(&e))))
}

/// A failed merge in the chosen format: talosctl's text on stderr, or the `talos-merge`
/// diagnostic on stdout.
fn failure(checked: &Checked, format: Format, anchor: &str) -> CliError {
    if let (Format::Text, Some(err)) = (format, checked.merge_error()) {
        return talos_error(err);
    }
    print!("{}", render(checked, format, anchor));
    CliError::new(format!("labctl merge: {}", summary(checked)))
}

/// The usage block talosctl prints after an error whose text mentions flags, commands or
/// arguments (its `root.go` looks at the text alone), in labctl's words.
const USAGE: &str = "Usage:\n  labctl merge CONFIG [flags]\n\nFlags:\n  -o, --output string   where to write the merged config (default: stdout)\n  -p, --patch string    a patch to apply, repeatable; @file reads it from a file";

/// Talos's error text, the usage block where talosctl prints one, then a `labctl:` hint line
/// naming the input and position when known.
fn talos_error(err: &Error) -> CliError {
    let mut cli = CliError::new(err.to_string()).with_talosctl_usage(USAGE);
    if let (Some(input), Some(line)) = (err.input(), err.line()) {
        let mut note = format!("labctl: in {input} at line {line}");
        if let Some(column) = err.column() {
            note.push_str(&format!(", column {column}"));
        }
        cli.notes.push(note);
    }
    cli
}

/// Writes `bytes` to `path` the way talosctl does (`MkdirAll` of the parent, then
/// `os.WriteFile(path, bytes, 0o644)`), but atomically: a temporary file in the destination's
/// directory is renamed over it.
///
/// As `os.WriteFile` would: a symlink is followed and its final target is written (the link
/// stays); an existing file keeps its permission bits; a new file gets 0644 less the umask.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let writer = AtomicWrite {
        mode: FileMode::KeepExisting(0o644),
        follow_symlinks: true,
        temp_prefix: ".labctl-merge-",
        temp_suffix: ".tmp",
    };
    // Errors name the path as given, as Go's `os.WriteFile` does.
    writer.write(path, bytes).map_err(|e| match &e.step {
        WriteStep::Mkdir(failed) => {
            CliError::new(format!("failed to create output dir: {}", path_error_text("mkdir", failed, &e.source)))
        }
        WriteStep::Open => path_error("open", path, &e.source),
        WriteStep::Write => path_error("write", path, &e.source),
        WriteStep::Chmod => path_error("chmod", path, &e.source),
        WriteStep::Rename => path_error("rename", path, &e.source),
    })
}
