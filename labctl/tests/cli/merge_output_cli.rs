//! `labctl merge -o`: a path relative to the working directory, an existing file replaced whole,
//! a symlink written through, the file's mode, and a path that cannot be a file.

use std::path::Path;
use std::process::Command;

use crate::merge_cli::{
    assert_mode_0644, failure, labctl, labctl_in, listing, merge_worker, path_str, read, root, success, text,
};

#[test]
fn lab_output_file_and_cwd_relative_output() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let stdout = merge_worker(&["05-labels.yaml", "06-canary.yaml"]);
    // Relative -o, resolved against the working directory; fixtures given by absolute path.
    let worker = root().join("fixtures/worker.yaml");
    let p05 = format!("@{}", root().join("fixtures/05-labels.yaml").display());
    let p06 = format!("@{}", root().join("fixtures/06-canary.yaml").display());
    let out = labctl_in(tmp.path(), &["merge", path_str(&worker), "-p", &p05, "-p", &p06, "-o", "out/merged.yaml"]);
    assert_eq!(text(&success(&out, "-o out/merged.yaml")), "");
    let written = read(&tmp.path().join("out/merged.yaml"));
    assert_eq!(format!("{}\n", text(&written)), stdout, "-o gets exactly the bytes, stdout adds one \\n");
    assert_mode_0644(&tmp.path().join("out/merged.yaml"));

    // Overwriting an existing file replaces it completely.
    let out = labctl_in(tmp.path(), &["merge", path_str(&worker), "-o", "out/merged.yaml"]);
    assert_eq!(text(&success(&out, "-o overwrite")), "");
    assert_eq!(read(&tmp.path().join("out/merged.yaml")), read(&worker));
    assert_eq!(listing(&tmp.path().join("out")), ["merged.yaml"], "no temporary file left");
}

/// The permission bits of `path`.
#[cfg(unix)]
fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).expect("metadata").permissions().mode() & 0o7777
}

#[cfg(unix)]
#[test]
fn output_through_a_symlink_writes_the_target() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let worker = root().join("fixtures/worker.yaml");
    std::fs::create_dir(tmp.path().join("real")).expect("mkdir real");
    std::fs::write(tmp.path().join("real/config.yaml"), b"old").expect("write target");
    // A relative link, through a second link (a chain), in another directory.
    std::os::unix::fs::symlink("real/config.yaml", tmp.path().join("hop.yaml")).expect("symlink hop");
    std::os::unix::fs::symlink("hop.yaml", tmp.path().join("link.yaml")).expect("symlink link");
    let out = labctl_in(tmp.path(), &["merge", path_str(&worker), "-o", "link.yaml"]);
    assert_eq!(text(&success(&out, "-o link.yaml")), "");
    for link in ["link.yaml", "hop.yaml"] {
        let meta = std::fs::symlink_metadata(tmp.path().join(link)).expect("link metadata");
        assert!(meta.file_type().is_symlink(), "{link} must stay a symlink");
    }
    assert_eq!(std::fs::read_link(tmp.path().join("link.yaml")).expect("read link"), Path::new("hop.yaml"));
    assert_eq!(read(&tmp.path().join("real/config.yaml")), read(&worker));
    assert_eq!(listing(tmp.path()), ["hop.yaml", "link.yaml", "real"]);
    assert_eq!(listing(&tmp.path().join("real")), ["config.yaml"], "no temporary file left");

    // A dangling link creates its target.
    std::os::unix::fs::symlink("real/new.yaml", tmp.path().join("dangling.yaml")).expect("symlink dangling");
    let out = labctl_in(tmp.path(), &["merge", path_str(&worker), "-o", "dangling.yaml"]);
    assert_eq!(text(&success(&out, "-o dangling.yaml")), "");
    assert!(std::fs::symlink_metadata(tmp.path().join("dangling.yaml")).expect("link").file_type().is_symlink());
    assert_eq!(read(&tmp.path().join("real/new.yaml")), read(&worker));

    // A link loop fails like Go's open.
    std::os::unix::fs::symlink("loop.yaml", tmp.path().join("loop.yaml")).expect("symlink loop");
    let out = labctl_in(tmp.path(), &["merge", path_str(&worker), "-o", "loop.yaml"]);
    failure(&out, "open loop.yaml: too many levels of symbolic links", "-o loop.yaml");
}

#[cfg(unix)]
#[test]
fn output_keeps_an_existing_files_mode() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().expect("temp dir");
    let worker = root().join("fixtures/worker.yaml");
    for mode in [0o600, 0o755, 0o640] {
        let target = tmp.path().join(format!("out-{mode:o}.yaml"));
        std::fs::write(&target, b"old").expect("write target");
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode)).expect("chmod");
        let out = labctl(&["merge", "fixtures/worker.yaml", "-o", path_str(&target)]);
        assert_eq!(text(&success(&out, "-o existing")), "");
        assert_eq!(read(&target), read(&worker));
        assert_eq!(mode_of(&target), mode, "{} keeps its mode", target.display());
    }
}

#[cfg(unix)]
#[test]
fn new_output_file_gets_0644_less_the_umask() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let worker = root().join("fixtures/worker.yaml");
    for (umask, mode) in [("022", 0o644), ("077", 0o600), ("027", 0o640), ("000", 0o644)] {
        let target = tmp.path().join(format!("new-{umask}.yaml"));
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_labctl"))
            .args(["merge", path_str(&worker), "-o", path_str(&target)])
            .output()
            .expect("spawn sh");
        assert_eq!(text(&success(&out, "-o new")), "");
        assert_eq!(read(&target), read(&worker));
        assert_eq!(mode_of(&target), mode, "umask {umask}");
    }
}

#[test]
fn output_dir_blocked_by_a_file() {
    // Go's MkdirAll names the ancestor that is not a directory.
    let tmp = tempfile::tempdir().expect("temp dir");
    let file = tmp.path().join("file");
    std::fs::write(&file, b"x").expect("write file");
    let out = file.join("sub/out.yaml");
    let res = labctl(&["merge", "fixtures/worker.yaml", "-o", path_str(&out)]);
    failure(
        &res,
        &format!("failed to create output dir: mkdir {}: not a directory", file.display()),
        "-o under a file",
    );
    assert_eq!(read(&file), b"x");
}

#[test]
fn output_is_a_directory() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let res = labctl(&["merge", "fixtures/worker.yaml", "-o", path_str(tmp.path())]);
    failure(&res, &format!("open {}: is a directory", tmp.path().display()), "-o a directory");
    assert_eq!(listing(tmp.path()), Vec::<String>::new());
}
