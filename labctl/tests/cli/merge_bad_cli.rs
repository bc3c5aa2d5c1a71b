//! `labctl merge` on bad input: exit code 1, Talos's exact error text on stderr, an `-o` target
//! left untouched (and no new one created); usage errors exit 1 too.

use std::path::PathBuf;

use crate::merge_cli::{failure, labctl, listing, path_str, read, text};

/// A temp dir holding `existing.yaml` with known bytes, to check an `-o` target is untouched.
struct Target {
    dir: tempfile::TempDir,
    path: PathBuf,
}

const TARGET_BYTES: &[u8] = b"# keep me\nmachine: {type: worker}\n";

impl Target {
    fn new() -> Target {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("existing.yaml");
        std::fs::write(&path, TARGET_BYTES).expect("write target");
        Target { dir, path }
    }

    fn arg(&self) -> &str {
        path_str(&self.path)
    }

    fn assert_untouched(&self, what: &str) {
        assert_eq!(read(&self.path), TARGET_BYTES, "{what}: the -o target must be left untouched");
        assert_eq!(listing(self.dir.path()), ["existing.yaml"], "{what}: no temporary file may be left");
    }
}

/// Runs `labctl merge <args>` (from the workspace root) once to stdout and once with `-o` onto an
/// existing file; both must fail with `message`.
fn merge_fails(args: &[&str], message: &str) {
    let what = format!("labctl merge {args:?}");
    let mut all = vec!["merge"];
    all.extend_from_slice(args);
    failure(&labctl(&all), message, &what);

    let target = Target::new();
    all.extend_from_slice(&["-o", target.arg()]);
    failure(&labctl(&all), message, &format!("{what} -o"));
    target.assert_untouched(&what);

    // -o into a directory that does not exist yet: it must not be created either.
    let missing = target.dir.path().join("new/out.yaml");
    let n = all.len();
    all[n - 1] = path_str(&missing);
    failure(&labctl(&all), message, &format!("{what} -o new/out.yaml"));
    assert!(!missing.exists(), "{what}: no output file may be created on error");
    target.assert_untouched(&what);
}

#[test]
fn bad_missing_config_file() {
    merge_fails(&["does-not-exist.yaml"], "open does-not-exist.yaml: no such file or directory");
    merge_fails(
        &["does-not-exist.yaml", "-p", "@fixtures/05-labels.yaml"],
        "open does-not-exist.yaml: no such file or directory",
    );
}

#[test]
fn bad_missing_patch_file() {
    merge_fails(&["fixtures/worker.yaml", "-p", "@nope.yaml"], "open nope.yaml: no such file or directory");
    // Without @ too (a bare file name).
    merge_fails(&["fixtures/worker.yaml", "-p", "nope.yaml"], "open nope.yaml: no such file or directory");
    // Patches are read in order: the first missing one is reported, even after a good one.
    merge_fails(
        &["fixtures/worker.yaml", "-p", "@fixtures/05-labels.yaml", "-p", "@missing/a.yaml", "-p", "@b.yaml"],
        "open missing/a.yaml: no such file or directory",
    );
}

#[test]
fn bad_config_is_a_directory() {
    // Go's os.ReadFile opens a directory fine and fails reading it.
    merge_fails(&["fixtures"], "read fixtures: is a directory");
}

#[test]
fn bad_malformed_yaml_patch() {
    // A tab where indentation is expected (docs/merge.md §4.1, upstream decoder test "tab instead
    // of spaces"); neither JSON nor a YAML list either, so the strategic error is returned.
    merge_fails(
        &["fixtures/worker.yaml", "-p", "machine:\n\tnetwork: {}\n"],
        "decode error: yaml: while scanning for the next token at line 2: found character that cannot start any token",
    );
}

#[test]
fn bad_patch_not_a_document() {
    // docs/merge.md §1.2: upstream's "it's not even a json" integration test input.
    merge_fails(&["fixtures/worker.yaml", "-p", "it's not even a json"], "expected a YAML document at line 1");
}

#[test]
fn bad_unknown_field_patch() {
    merge_fails(
        &["fixtures/worker.yaml", "-p", "machine: {foo: bar}"],
        "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    foo: bar\n",
    );
    // The same from a file, written in block style.
    let tmp = tempfile::tempdir().expect("temp dir");
    let patch = tmp.path().join("unknown.yaml");
    std::fs::write(&patch, "machine:\n  foo: bar\n").expect("write patch");
    merge_fails(
        &["fixtures/worker.yaml", "-p", &format!("@{}", patch.display())],
        "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    foo: bar\n",
    );
}

#[test]
fn bad_json6902_on_multi_doc_fixture() {
    // The lab cluster's config is multi-document (v1alpha1 + HostnameConfig).
    let json = r#"[{"op": "add", "path": "/machine/nodeLabels", "value": {"lab.talos.dev/pool": "blue"}}]"#;
    let message = "JSON6902 patches are not supported for multi-document machine configuration";
    merge_fails(&["fixtures/worker.yaml", "-p", json], message);
    merge_fails(
        &["fixtures/worker.yaml", "-p", "- op: add\n  path: /machine/nodeLabels\n  value:\n    a: b\n"],
        message,
    );
    merge_fails(&["fixtures/controlplane.yaml", "-p", "@fixtures/05-labels.yaml", "-p", json], message);
}

#[test]
fn bad_json6902_unknown_op_loads_then_fails() {
    merge_fails(
        &["fixtures/worker.yaml", "-p", r#"[{"op": "crash", "path": "/machine"}]"#],
        "JSON6902 patches are not supported for multi-document machine configuration",
    );
}

#[test]
fn bad_usage_exits_1() {
    for args in [&["merge"][..], &["merge", "a.yaml", "b.yaml"], &["merge", "a.yaml", "--bogus"], &["nope"]] {
        let out = labctl(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: usage errors exit 1");
        assert_eq!(text(&out.stdout), "", "{args:?}: nothing on stdout");
        assert!(!out.stderr.is_empty(), "{args:?}: usage error explained on stderr");
    }
}

/// An error whose text mentions a flag (here a comment the unknown-keys text echoes) is followed
/// by the usage, as talosctl's root command prints it after such a text; then the hint line.
#[test]
fn an_error_mentioning_a_flag_gets_the_usage() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let patch = tmp.path().join("flag.yaml");
    std::fs::write(&patch, "machine:\n  kubelet:\n    nodeLabels:\n      # the flag\n      - x\n")
        .expect("write patch");
    let out = labctl(&["merge", "fixtures/worker.yaml", "-p", &format!("@{}", patch.display())]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    kubelet:\n        \
             nodeLabels:\n            # the flag\n            - x\n\n\nUsage:\n  labctl merge CONFIG [flags]\n\nFlags:\n  \
             -o, --output string   where to write the merged config (default: stdout)\n  -p, --patch string    a patch to \
             apply, repeatable; @file reads it from a file\nlabctl: in {} at line 3, column 5\n",
            patch.display()
        )
    );
}
