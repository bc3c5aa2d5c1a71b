//! `labctl merge` on Talos v1.13.9's own configpatcher cases (docs/merge.md §11.1), read from
//! the folder named by `TALOS_PEER_DIR` (never copied into this repository), through stdout and
//! through `-o`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::merge_cli::{assert_mode_0644, failure, labctl, listing, path_str, read, root, success, text};

/// `$TALOS_PEER_DIR/configpatcher/testdata`, or `None` (loudly; a failure under `CI=true`)
/// when the peer data is not available. A relative `TALOS_PEER_DIR` (as `.ci/run` sets it) is
/// taken relative to the workspace root, where `.ci/run` runs, not to `labctl/`.
fn peer_testdata() -> Option<PathBuf> {
    let problem = match std::env::var_os("TALOS_PEER_DIR").filter(|d| !d.is_empty()).map(PathBuf::from) {
        None => "TALOS_PEER_DIR is not set (or empty)".to_string(),
        Some(dir) => {
            let dir = if dir.is_relative() { root().join(dir) } else { dir };
            let testdata = dir.join("configpatcher/testdata");
            if testdata.is_dir() {
                return Some(testdata);
            }
            format!("TALOS_PEER_DIR points to {}, which has no configpatcher/testdata", dir.display())
        }
    };
    let msg = format!(
        "{problem}: the Talos v1.13.9 peer data is missing, the labctl merge conformance tests did NOT run \
         (set TALOS_PEER_DIR=/path/to/shared/peer/talos-v1.13.9)"
    );
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{msg}");
    }
    // Straight to the process's stderr, past libtest's output capture, so it is seen.
    let _ = writeln!(std::io::stderr(), "\n!!!!!!!! {msg} !!!!!!!!\n");
    None
}

/// `labctl merge <case>/<config> -p @<case>/<patch>... [extra args]`, run in the workspace root
/// with absolute paths.
fn merge_peer(dir: &Path, config: &str, patches: &[&str], extra: &[&str]) -> Output {
    let config = dir.join(config);
    let patch_args: Vec<String> = patches.iter().map(|p| format!("@{}", dir.join(p).display())).collect();
    let mut args = vec!["merge", path_str(&config)];
    for p in &patch_args {
        args.push("-p");
        args.push(p);
    }
    args.extend_from_slice(extra);
    labctl(&args)
}

/// One successful upstream case: stdout is the expected bytes plus `\n`; with `-o` into a new
/// nested directory the file holds exactly the expected bytes and stdout is empty.
/// Returns the path of the `-o` output (inside a temp dir kept alive by the caller's guard).
fn peer_case_ok(case: &str, config: &str, patches: &[&str], expected: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    let dir = peer_testdata()?.join(case);
    let expected = read(&dir.join(expected));
    let what = format!("{case}: {config} + {patches:?}");

    let stdout = success(&merge_peer(&dir, config, patches, &[]), &what);
    let mut want = expected.clone();
    want.push(b'\n');
    assert_eq!(text(&stdout), text(&want), "{what}: stdout must be the expected bytes + \\n");
    assert_eq!(stdout, want, "{what}: stdout bytes");

    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("new/nested/out.yaml");
    let stdout = success(&merge_peer(&dir, config, patches, &["-o", path_str(&out)]), &what);
    assert_eq!(text(&stdout), "", "{what}: nothing on stdout with -o");
    let written = read(&out);
    assert_eq!(text(&written), text(&expected), "{what}: -o file must be exactly the expected bytes");
    assert_eq!(written, expected, "{what}: -o file bytes");
    assert_mode_0644(&out);
    assert_eq!(listing(out.parent().expect("parent")), ["out.yaml"], "{what}: no temporary file left");
    Some((tmp, out))
}

/// One failing upstream case: exit 1, stderr starts with Talos's text; with `-o` no file (and no
/// directory) is created.
fn peer_case_err(case: &str, config: &str, patches: &[&str], message: &str) {
    let Some(testdata) = peer_testdata() else { return };
    let dir = testdata.join(case);
    let what = format!("{case}: {config} + {patches:?}");

    failure(&merge_peer(&dir, config, patches, &[]), message, &what);

    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("new/nested/out.yaml");
    failure(&merge_peer(&dir, config, patches, &["-o", path_str(&out)]), message, &what);
    assert!(!out.exists(), "{what}: no output file may be created on error");
    assert_eq!(listing(tmp.path()), Vec::<String>::new(), "{what}: nothing may be created on error");
}

#[test]
fn peer_apply() {
    peer_case_ok(
        "apply",
        "config.yaml",
        &["strategic1.yaml", "jsonpatch1.yaml", "jsonpatch2.yaml", "strategic2.yaml", "strategic3.yaml"],
        "expected.yaml",
    );
}

#[test]
fn peer_apply_multi_doc_fail() {
    peer_case_err(
        "multidoc",
        "config.yaml",
        &["jsonpatch.yaml", "strategic1.yaml"],
        "JSON6902 patches are not supported for multi-document machine configuration",
    );
}

#[test]
fn peer_apply_multi_doc() {
    peer_case_ok("multidoc", "config.yaml", &["strategic1.yaml", "strategic2.yaml"], "expected.yaml");
}

#[test]
fn peer_apply_audit_policy() {
    peer_case_ok("auditpolicy", "config.yaml", &["patch1.yaml"], "expected.yaml");
}

#[test]
fn peer_apply_with_manifest_newline() {
    let Some((_tmp, out)) = peer_case_ok("apply", "config.yaml", &["strategic4.yaml"], "expected_manifests.yaml")
    else {
        return;
    };
    // Upstream then loads the result again: a strategic step (which decodes it) must succeed.
    let reloaded = labctl(&["merge", path_str(&out), "-p", "machine: {}"]);
    success(&reloaded, "apply/expected_manifests.yaml must load again");
}

#[test]
fn peer_apply_multi_doc_delete() {
    peer_case_ok("patchdelete", "config.yaml", &["strategic1.yaml"], "expected.yaml");
}

#[test]
fn peer_apply_multi_doc_cp_delete() {
    peer_case_ok(
        "patchdelete",
        "controlplane_orig.yaml",
        &["strategic2.yaml", "strategic3.yaml", "strategic4.yaml"],
        "controlplane_expected.yaml",
    );
}

#[test]
fn peer_patch_delete_missing() {
    peer_case_err(
        "patchdeletemissing",
        "config.yaml",
        &["strategic1.yaml"],
        "patch delete: path 'machine.network.hostname' in document '/v1alpha1': failed to delete path \
         'machine.network.hostname': lookup failed",
    );
}

#[test]
fn peer_patch_link() {
    peer_case_ok("patchlink", "base.yaml", &["patch.yaml"], "expected.yaml");
}
