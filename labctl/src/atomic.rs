//! The one way labctl writes a file: atomically, through a temporary file renamed over the target.
//!
//! The temporary file is created exclusively (an unpredictable name, never an existing file or
//! symlink) in the destination's directory, filled, synced and renamed over the destination, so a
//! reader sees the old file or the new one, never a partial one. On any error the temporary file
//! is removed and the destination is left as it was.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

/// The permission bits the written file gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Only the lab writes files other than `merge -o`'s.
#[cfg_attr(not(feature = "lab"), allow(dead_code))]
pub enum FileMode {
    /// An existing regular file keeps its bits; a new file gets these less the umask
    /// (`os.WriteFile`'s behaviour).
    KeepExisting(u32),
    /// These bits less the umask, whatever the file had before.
    LessUmask(u32),
    /// Exactly these bits, whatever the umask (secret files: 0600).
    Exact(u32),
}

/// How to write one file.
#[derive(Clone, Copy, Debug)]
pub struct AtomicWrite<'a> {
    /// The permission bits of the result.
    pub mode: FileMode,
    /// Write the final target of a symlink at the path (the link stays), instead of replacing the
    /// link itself with a regular file.
    pub follow_symlinks: bool,
    /// The start of the temporary file's name.
    pub temp_prefix: &'a str,
    /// The end of the temporary file's name.
    pub temp_suffix: &'a str,
}

/// The step of a write that failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WriteStep {
    /// Creating this directory (the destination's or one of its ancestors) failed.
    Mkdir(PathBuf),
    /// The destination could not be opened: it is a directory, a symlink loop, or the temporary
    /// file could not be created.
    Open,
    /// Writing or syncing the bytes failed.
    Write,
    /// Setting the permission bits failed.
    Chmod,
    /// Renaming the temporary file over the destination failed.
    Rename,
}

/// A failed write: the step and the OS error.
#[derive(Debug)]
pub struct WriteError {
    /// What was being done.
    pub step: WriteStep,
    /// The OS error.
    pub source: io::Error,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.source.fmt(f)
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

impl WriteError {
    fn at(step: WriteStep) -> impl FnOnce(io::Error) -> WriteError {
        move |source| WriteError { step, source }
    }
}

impl AtomicWrite<'_> {
    /// Writes `bytes` to `path`, creating the missing parent directories.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
        mkdir_all(&parent_dir(path)).map_err(|(failed, e)| WriteError { step: WriteStep::Mkdir(failed), source: e })?;
        if path.is_dir() {
            return Err(WriteError { step: WriteStep::Open, source: io::Error::from_raw_os_error(EISDIR) });
        }
        let dest = if self.follow_symlinks {
            resolve_symlinks(path).map_err(WriteError::at(WriteStep::Open))?
        } else {
            path.to_path_buf()
        };
        let existing = match self.mode {
            FileMode::KeepExisting(_) => existing_permissions(&dest),
            FileMode::LessUmask(_) | FileMode::Exact(_) => None,
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(self.temp_prefix).suffix(self.temp_suffix);
        set_create_mode(&mut builder, self.create_bits());
        let mut tmp = builder.tempfile_in(parent_dir(&dest)).map_err(WriteError::at(WriteStep::Open))?;
        tmp.write_all(bytes).and_then(|()| tmp.as_file().sync_all()).map_err(WriteError::at(WriteStep::Write))?;
        if let Some(perms) = existing.or_else(|| self.exact_permissions()) {
            tmp.as_file().set_permissions(perms).map_err(WriteError::at(WriteStep::Chmod))?;
        }
        tmp.persist(&dest).map_err(|e| WriteError { step: WriteStep::Rename, source: e.error })?;
        Ok(())
    }

    /// The bits the temporary file is created with (the OS narrows them by the umask).
    fn create_bits(&self) -> u32 {
        match self.mode {
            FileMode::KeepExisting(bits) | FileMode::LessUmask(bits) | FileMode::Exact(bits) => bits,
        }
    }

    /// The bits set after creation, past the umask.
    #[cfg(unix)]
    fn exact_permissions(&self) -> Option<std::fs::Permissions> {
        match self.mode {
            FileMode::Exact(bits) => Some(permissions_from_bits(bits)),
            FileMode::KeepExisting(_) | FileMode::LessUmask(_) => None,
        }
    }

    /// Without Unix permission bits there is nothing to set.
    #[cfg(not(unix))]
    fn exact_permissions(&self) -> Option<std::fs::Permissions> {
        None
    }
}

/// The directory holding `path` (`.` for a bare file name).
fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
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

/// `EISDIR` on Linux.
const EISDIR: i32 = 21;

/// `ELOOP` on Linux.
const ELOOP: i32 = 40;

#[cfg(unix)]
fn set_create_mode(builder: &mut tempfile::Builder<'_, '_>, bits: u32) {
    builder.permissions(permissions_from_bits(bits));
}

#[cfg(not(unix))]
fn set_create_mode(_builder: &mut tempfile::Builder<'_, '_>, _bits: u32) {}

#[cfg(unix)]
fn permissions_from_bits(bits: u32) -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::Permissions::from_mode(bits)
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use std::os::unix::fs::PermissionsExt as _;

    use super::*;

    fn writer(mode: FileMode) -> AtomicWrite<'static> {
        AtomicWrite { mode, follow_symlinks: false, temp_prefix: ".test.", temp_suffix: ".tmp" }
    }

    fn mode_of(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> =
            std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn an_existing_files_mode_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.yaml");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        writer(FileMode::KeepExisting(0o644)).write(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(mode_of(&path), 0o640);
    }

    #[test]
    fn exact_mode_ignores_the_umask_and_the_old_mode() {
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("kubeconfig");
        std::fs::write(&secret, "old").unwrap();
        std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
        writer(FileMode::Exact(0o600)).write(&secret, b"new").unwrap();
        assert_eq!(mode_of(&secret), 0o600);
        // Bits any usual umask (022, 027, 077) would take away are still set.
        let open = dir.path().join("open");
        writer(FileMode::Exact(0o666)).write(&open, b"x").unwrap();
        assert_eq!(mode_of(&open), 0o666);
    }

    #[test]
    fn a_symlink_is_followed_only_when_asked() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("target");
        std::fs::write(&target, "old").unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("target", &link).unwrap();
        AtomicWrite { follow_symlinks: true, ..writer(FileMode::KeepExisting(0o644)) }.write(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        writer(FileMode::LessUmask(0o644)).write(&link, b"own").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_file());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
    }

    #[test]
    fn parents_are_created() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/out.json");
        writer(FileMode::LessUmask(0o644)).write(&path, b"{}").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"{}");
    }

    #[test]
    fn a_failed_write_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        // The destination is a directory.
        let busy = dir.path().join("busy");
        std::fs::create_dir(&busy).unwrap();
        std::fs::write(busy.join("inside"), "x").unwrap();
        let err = writer(FileMode::Exact(0o600)).write(&busy, b"secret").unwrap_err();
        assert_eq!(err.step, WriteStep::Open);
        assert_eq!(err.source.raw_os_error(), Some(EISDIR));
        assert_eq!(entries(dir.path()), ["busy"]);
        // The parent is a file: nothing is created.
        let blocked = dir.path().join("busy/inside/out");
        let err = writer(FileMode::LessUmask(0o644)).write(&blocked, b"x").unwrap_err();
        assert_eq!(err.step, WriteStep::Mkdir(dir.path().join("busy/inside")));
        assert_eq!(entries(&busy), ["inside"]);
    }
}
