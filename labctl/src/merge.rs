//! `labctl merge`: `talosctl machineconfig patch`, offline and byte for byte.
//!
//! The flow is talosctl's (spec/merge.md §0, §1.1, §10.1): read the config, read and load every
//! `-p` patch in order, apply them left to right, then print the bytes followed by `\n`, or write
//! exactly the bytes to `-o` (atomically: a temporary file in the same directory, renamed over
//! the target; symlinks followed and an existing file's mode kept, as `os.WriteFile` does).

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
    /// newline), replaced atomically; on error it is left untouched. A symlink is followed (its
    /// target is written), an existing file keeps its mode, a new one gets 0644 less the umask.
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
    // A decode error that names no input comes from the config itself, as long as the first
    // step reads the file as written (a JSON6902 step first would re-encode it).
    let config_name = args.config.display().to_string();
    let first_reads_file = patches.first().is_some_and(|p| !p.is_json6902());
    let out = apply_patches(&config, &patches)
        .map_err(|e| match e {
            Error::Decode { .. } if e.location().input.is_none() && first_reads_file => e.in_input(&config_name),
            other => other,
        })
        .map_err(talos_error)?;

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

/// Writes `bytes` to `path` the way talosctl does (`MkdirAll` of the parent, then
/// `os.WriteFile(path, bytes, 0o644)`), but atomically: a temporary file in the destination's
/// directory is renamed over it.
///
/// As `os.WriteFile` would: a symlink is followed and its final target is written (the link
/// stays); an existing file keeps its permission bits; a new file gets 0644 less the umask.
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

    // Errors name the path as given, as Go's `open` does.
    let open_err = |e: &io::Error| path_error("open", path, e);
    let dest = resolve_symlinks(path).map_err(|e| open_err(&e))?;
    let dest_dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let existing_mode = existing_permissions(&dest);

    let mut builder = tempfile::Builder::new();
    builder.prefix(".labctl-merge-").suffix(".tmp");
    // A new file: 0644, which the OS narrows by the umask (os.WriteFile's O_CREAT mode).
    set_create_mode(&mut builder);
    let mut tmp = builder.tempfile_in(&dest_dir).map_err(|e| open_err(&e))?;
    tmp.write_all(bytes).and_then(|()| tmp.as_file().sync_all()).map_err(|e| path_error("write", path, &e))?;
    if let Some(perms) = existing_mode {
        tmp.as_file().set_permissions(perms).map_err(|e| path_error("chmod", path, &e))?;
    }
    tmp.persist(&dest).map_err(|e| path_error("rename", path, &e.error))?;
    Ok(())
}

/// Follows `path` through symlinks to the path that is finally written (which need not exist:
/// a dangling link creates its target). Fails like `open` after too many links.
fn resolve_symlinks(path: &Path) -> io::Result<PathBuf> {
    let mut cur = path.to_path_buf();
    // Linux's limit on links followed by one lookup.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&cur) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&cur)?;
                cur = match cur.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(cur),
        }
    }
    Err(io::Error::from_raw_os_error(ELOOP))
}

/// The permissions of the existing regular file at `path` (`None` when there is none).
fn existing_permissions(path: &Path) -> Option<std::fs::Permissions> {
    std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.permissions())
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

/// `ELOOP` on Linux.
const ELOOP: i32 = 40;

#[cfg(unix)]
fn set_create_mode(builder: &mut tempfile::Builder<'_, '_>) {
    use std::os::unix::fs::PermissionsExt;
    builder.permissions(std::fs::Permissions::from_mode(0o644));
}

#[cfg(not(unix))]
fn set_create_mode(_builder: &mut tempfile::Builder<'_, '_>) {}

fn path_error(op: &str, path: &Path, err: &io::Error) -> CliError {
    CliError::new(path_error_text(op, path, err))
}

/// Go's `*fs.PathError` text: `<op> <path>: <errno text>`.
fn path_error_text(op: &str, path: &Path, err: &io::Error) -> String {
    format!("{op} {}: {}", path.display(), go_errno_text(err))
}

/// Go's `syscall.Errno` text for an OS error (lower-case, no `(os error N)` suffix).
pub(crate) fn go_errno_text(err: &io::Error) -> String {
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
