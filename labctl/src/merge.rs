//! `labctl merge`: `talosctl machineconfig patch`, offline and byte for byte.
//!
//! The flow is talosctl's (spec/merge.md §0, §1.1, §10.1): read the config, read and load every
//! `-p` patch in order, apply them left to right, then print the bytes followed by `\n`, or write
//! exactly the bytes to `-o` (atomically: a temporary file in the same directory, renamed over
//! the target).

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use talos_config::{Error, PatchArg, PatchSource, apply_patches, load_patches};

use crate::CliError;

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
    /// newline), mode 0644, replaced atomically; on error it is left untouched.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// Runs `labctl merge`.
pub fn run(args: &MergeArgs) -> Result<(), CliError> {
    let config = read_file(&args.config)?;

    let mut sources = Vec::with_capacity(args.patches.len());
    for (i, arg) in args.patches.iter().enumerate() {
        sources.push(match PatchArg::classify(arg) {
            PatchArg::File(path) => {
                let bytes = read_file(Path::new(&path))?;
                PatchSource::new(path, bytes)
            }
            PatchArg::Inline(text) => PatchSource::new(format!("inline patch #{}", i + 1), text),
        });
    }

    let patches = load_patches(sources).map_err(talos_error)?;
    let out = apply_patches(&config, &patches).map_err(talos_error)?;

    match &args.output {
        Some(path) => write_atomically(path, &out),
        None => {
            let mut stdout = io::stdout().lock();
            stdout
                .write_all(&out)
                .and_then(|()| stdout.write_all(b"\n"))
                .and_then(|()| stdout.flush())
                .map_err(|e| CliError::new(format!("write /dev/stdout: {}", go_errno_text(&e))))
        }
    }
}

/// Talos's error text, plus a `labctl:` hint line naming the input and position when known.
fn talos_error(err: Error) -> CliError {
    let mut cli = CliError::new(err.to_string());
    let loc = err.location();
    if let (Some(input), Some(line)) = (&loc.input, loc.line) {
        let mut note = format!("labctl: in {input} at line {line}");
        if let Some(column) = loc.column {
            note.push_str(&format!(", column {column}"));
        }
        cli.notes.push(note);
    }
    cli
}

/// `os.ReadFile`: errors read `open <path>: <errno text>` or `read <path>: <errno text>`.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, CliError> {
    let mut file = File::open(path).map_err(|e| path_error("open", path, &e))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| path_error("read", path, &e))?;
    Ok(bytes)
}

/// Writes `bytes` to `path` the way talosctl does (`MkdirAll` of the parent, then the file with
/// mode 0644), but atomically: a temporary file in the target's directory is renamed over it.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    mkdir_all(&dir).map_err(|(failed, e)| {
        CliError::new(format!("failed to create output dir: {}", path_error_text("mkdir", &failed, &e)))
    })?;
    if path.is_dir() {
        return Err(CliError::new(format!("open {}: is a directory", path.display())));
    }

    let open_err = |e: &io::Error| path_error("open", path, e);
    let mut tmp =
        tempfile::Builder::new().prefix(".labctl-merge-").suffix(".tmp").tempfile_in(&dir).map_err(|e| open_err(&e))?;
    tmp.write_all(bytes).and_then(|()| tmp.as_file().sync_all()).map_err(|e| path_error("write", path, &e))?;
    set_mode_0644(tmp.as_file()).map_err(|e| path_error("chmod", path, &e))?;
    tmp.persist(path).map_err(|e| path_error("rename", path, &e.error))?;
    Ok(())
}

/// Go's `os.MkdirAll`: on failure, the path that could not be created (or the existing
/// ancestor that is not a directory) and the OS error.
fn mkdir_all(path: &Path) -> Result<(), (PathBuf, io::Error)> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => return Err((path.to_path_buf(), io::Error::from_raw_os_error(ENOTDIR))),
        Err(_) => {}
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        mkdir_all(parent)?;
    }
    match std::fs::create_dir(path) {
        Ok(()) => Ok(()),
        // Created concurrently, or `path` ends in `..`/`.`: fine if it is a directory now.
        Err(_) if path.is_dir() => Ok(()),
        Err(e) => Err((path.to_path_buf(), e)),
    }
}

/// `ENOTDIR` on Linux (and the other Unixes Talos tooling runs on).
const ENOTDIR: i32 = 20;

#[cfg(unix)]
fn set_mode_0644(file: &File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    file.set_permissions(std::fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn set_mode_0644(_file: &File) -> io::Result<()> {
    Ok(())
}

fn path_error(op: &str, path: &Path, err: &io::Error) -> CliError {
    CliError::new(path_error_text(op, path, err))
}

/// Go's `*fs.PathError` text: `<op> <path>: <errno text>`.
fn path_error_text(op: &str, path: &Path, err: &io::Error) -> String {
    format!("{op} {}: {}", path.display(), go_errno_text(err))
}

/// Go's `syscall.Errno` text for an OS error (lower-case, no `(os error N)` suffix).
fn go_errno_text(err: &io::Error) -> String {
    let Some(code) = err.raw_os_error() else {
        return err.to_string();
    };
    let text = err.to_string();
    let suffix = format!(" (os error {code})");
    let text = text.strip_suffix(&suffix).unwrap_or(&text);
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => format!("errno {code}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errno_text_is_go_style() {
        let err = io::Error::from_raw_os_error(2);
        assert_eq!(go_errno_text(&err), "no such file or directory");
        assert_eq!(path_error_text("open", Path::new("foo.yaml"), &err), "open foo.yaml: no such file or directory");
        let err = io::Error::from_raw_os_error(21);
        assert_eq!(go_errno_text(&err), "is a directory");
    }
}
