//! End-to-end tests of `labctl validate`: output and exit codes of `talosctl validate`
//! (docs/validation.md §9.1), including the lab's step-7 rejection reproduced offline.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("labctl/ has a parent").to_path_buf()
}

/// Runs `labctl <args>` in the workspace root, with `stdin` as standard input.
fn labctl(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_labctl"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn labctl");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin).expect("write stdin");
    }
    child.wait_with_output().expect("labctl runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The node's (and `talosctl validate`'s) text for the step-7 label (docs/validation.md §0).
const STEP7: &str = "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* invalid machine node labels: 1 error occurred:\n\t* name \"team name\" is invalid\n\n\n\n\n\n";

#[test]
fn valid_fixtures() {
    for file in ["fixtures/worker.yaml", "fixtures/controlplane.yaml"] {
        let out = labctl(&["validate", "--config", file, "--mode", "container"], b"");
        assert_eq!(text(&out.stderr), "", "{file}: no warnings");
        assert_eq!(text(&out.stdout), format!("{file} is valid for container mode\n"));
        assert_eq!(out.status.code(), Some(0));
    }
}

#[test]
fn step7_rejection_offline_through_a_pipe() {
    let merged = labctl(&["merge", "fixtures/worker.yaml", "-p", "@fixtures/07-bad.yaml"], b"");
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
    let out = labctl(&["validate", "--config", "-", "--mode", "container"], &merged.stdout);
    assert_eq!(text(&out.stdout), "");
    assert_eq!(text(&out.stderr), format!("{STEP7}\n"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn step7_explained_with_the_field() {
    let merged = labctl(&["merge", "fixtures/worker.yaml", "-p", "@fixtures/07-bad.yaml"], b"");
    let out = labctl(&["validate", "-c", "-", "-m", "container", "--explain"], &merged.stdout);
    assert_eq!(
        text(&out.stderr),
        format!("{STEP7}\nlabctl: machine.nodeLabels[\"lab.talos.dev/team name\"]: name \"team name\" is invalid\n")
    );
    assert_eq!(out.status.code(), Some(1));
}

/// A bare patch validated as a whole config (the CI pitfall of §9.1): a warning and five errors.
#[test]
fn bare_patch_gives_several_errors() {
    let out = labctl(&["validate", "-c", "fixtures/07-bad.yaml", "-m", "container"], b"");
    assert_eq!(
        text(&out.stderr),
        "WARNING: use \"worker\" instead of \"\" for machine type\n\
1 error occurred:\n\t* v1alpha1.Config: 5 errors occurred:\n\t* cluster instructions are required\n\t* feature HostDNS should be enabled in container mode (.machine.features.hostDNS.enabled)\n\t* feature HostDNS should forward kube-dns to host in container mode (.machine.features.hostDNS.forwardKubeDNSToHost)\n\t* issuing CA or some accepted CAs are required (.machine.ca, machine.acceptedCAs)\n\t* invalid machine node labels: 1 error occurred:\n\t* name \"team name\" is invalid\n\n\n\n\n\n\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn strict_turns_the_warning_into_an_error() {
    let out =
        labctl(&["validate", "-c", "-", "-m", "cloud", "--strict"], b"machine:\n  type: \"\"\n  ca:\n    crt: Zm9v\n");
    assert_eq!(
        text(&out.stderr),
        "1 error occurred:\n\t* v1alpha1.Config: 2 errors occurred:\n\t* cluster instructions are required\n\t* warning: use \"worker\" instead of \"\" for machine type\n\n\n\n\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn load_errors_win_over_a_bad_mode() {
    let out = labctl(&["validate", "-c", "-", "-m", "bogus"], b"machine: {foo: bar}\n");
    assert_eq!(
        text(&out.stderr),
        "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    foo: bar\n\n"
    );
    assert_eq!(out.status.code(), Some(1));
    let out = labctl(&["validate", "-c", "fixtures/worker.yaml", "-m", "bogus"], b"");
    assert_eq!(text(&out.stderr), "unknown runtime mode: \"bogus\"\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn missing_file_and_missing_mode() {
    let out = labctl(&["validate", "-m", "container"], b"");
    assert_eq!(text(&out.stderr), "open : no such file or directory\n");
    assert_eq!(out.status.code(), Some(1));
    let out = labctl(&["validate", "-c", "fixtures/worker.yaml"], b"");
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().next(), Some("required flag(s) \"mode\" not set"));
    assert_eq!(stderr.lines().nth(1), Some(""), "usage follows after a blank line");
    assert_eq!(stderr.lines().nth(2), Some("Usage:"));
    assert_eq!(out.status.code(), Some(1));
}

#[cfg(unix)]
#[test]
fn stdin_read_error_is_go_style() {
    // Reading a directory fails with EISDIR: Go's errno text, not Rust's `(os error 21)`.
    let dir = std::fs::File::open("/").expect("open / for reading");
    let out = Command::new(env!("CARGO_BIN_EXE_labctl"))
        .args(["validate", "-c", "-", "-m", "container"])
        .current_dir(root())
        .stdin(Stdio::from(dir))
        .output()
        .expect("labctl runs");
    assert_eq!(text(&out.stderr), "read -: is a directory\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
}
