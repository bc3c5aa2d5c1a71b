//! Reading the inputs of a command: files with Go's `os.ReadFile` error texts, and `-p`
//! arguments as talosctl reads them (`@file`, a bare file name, or inline text).

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use talos_config::{PatchSource, Release};

use crate::CliError;

/// `--talos-release`: the Talos release a command answers as, after the subcommand
/// (`labctl validate --talos-release v1.12.11 ...`).
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct ReleaseArg {
    /// The Talos release to answer as: its document kinds, fields, error texts and rules
    /// (v1.12.11, v1.13.9 or v1.14.0-rc.1; v1.12 or 1.12 name the newest release of a line).
    #[arg(long = "talos-release", value_name = "RELEASE", default_value_t = Release::DEFAULT, value_parser = parse_release)]
    pub release: Release,
}

/// Parses a `--talos-release` value; the error lists the supported releases.
pub(crate) fn parse_release(text: &str) -> Result<Release, String> {
    text.parse::<Release>().map_err(|e| e.to_string())
}

/// A patch argument as `talosctl` reads `-p`: `@file`, a bare file name, or inline text.
#[derive(Clone, Debug, PartialEq, Eq)]
enum PatchArg {
    /// Read the patch from this file.
    File(String),
    /// The argument is the patch text.
    Inline(String),
}

impl PatchArg {
    /// talosctl's rule: `@path` is a file; text with neither a space nor a newline that does not
    /// start with `[` or `{` is a file name too; anything else is the patch itself.
    fn classify(arg: &str) -> PatchArg {
        if let Some(path) = arg.strip_prefix('@') {
            return PatchArg::File(path.to_string());
        }
        if !arg.contains('\n') && !arg.contains(' ') && !arg.starts_with('[') && !arg.starts_with('{') {
            return PatchArg::File(arg.to_string());
        }
        PatchArg::Inline(arg.to_string())
    }
}

/// The `-p` arguments, read in order: files named as given, inline texts `inline patch #N`.
pub(crate) fn read_patches(args: &[String]) -> Result<Vec<PatchSource>, CliError> {
    let mut sources = Vec::with_capacity(args.len());
    for (i, arg) in args.iter().enumerate() {
        sources.push(match PatchArg::classify(arg) {
            PatchArg::File(path) => {
                let bytes = read_file(Path::new(&path))?;
                PatchSource::new(path, bytes)
            }
            PatchArg::Inline(text) => PatchSource::new(format!("inline patch #{}", i + 1), text),
        });
    }
    Ok(sources)
}

/// `os.ReadFile`: errors read `open <path>: <errno text>` or `read <path>: <errno text>`.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, CliError> {
    let mut file = File::open(path).map_err(|e| path_error("open", path, &e))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(|e| path_error("read", path, &e))?;
    Ok(bytes)
}

pub(crate) fn path_error(op: &str, path: &Path, err: &io::Error) -> CliError {
    CliError::new(path_error_text(op, path, err))
}

/// Go's `*fs.PathError` text: `<op> <path>: <errno text>`.
pub(crate) fn path_error_text(op: &str, path: &Path, err: &io::Error) -> String {
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

/// Parses a `--mode` value (cloud, container, metal, metal-agent) with Talos's error text.
pub(crate) fn parse_mode(text: &str) -> Result<talos_config::Mode, String> {
    text.parse().map_err(|e: talos_config::Error| e.to_string())
}

/// Parses one `--host-ranges` CIDR, masked to its prefix.
pub(crate) fn parse_range(text: &str) -> Result<talos_config::net::Prefix, String> {
    use talos_config::net::Prefix;
    text.trim().parse::<Prefix>().map(|p| p.masked()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patch_arguments_as_talosctl_reads_them() {
        assert_eq!(PatchArg::classify("@p.yaml"), PatchArg::File("p.yaml".into()));
        assert_eq!(PatchArg::classify("p.yaml"), PatchArg::File("p.yaml".into()));
        assert_eq!(PatchArg::classify("machine: {}"), PatchArg::Inline("machine: {}".into()));
        assert_eq!(PatchArg::classify("[]"), PatchArg::Inline("[]".into()));
        assert_eq!(PatchArg::classify("{}"), PatchArg::Inline("{}".into()));
        assert_eq!(PatchArg::classify("a\nb"), PatchArg::Inline("a\nb".into()));
    }

    #[test]
    fn errno_text_is_go_style() {
        let err = io::Error::from_raw_os_error(2);
        assert_eq!(go_errno_text(&err), "no such file or directory");
        assert_eq!(path_error_text("open", Path::new("foo.yaml"), &err), "open foo.yaml: no such file or directory");
        let err = io::Error::from_raw_os_error(21);
        assert_eq!(go_errno_text(&err), "is a directory");
    }
}
