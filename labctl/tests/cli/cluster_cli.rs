//! End-to-end tests of `labctl cluster check`: a folder holding a consistent cluster (and its
//! secrets bundle) is clean; a worker from another bundle fails with its file and line; a
//! manifest gives each node its patches; SARIF for code scanning; a missing file is named and
//! the rest checked; usage errors exit 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("labctl/ has a parent").to_path_buf()
}

fn labctl_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labctl")).args(args).current_dir(dir).output().expect("labctl runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A folder with copies of the test cluster's files.
fn folder(files: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("talos-config/tests/engine/data/cluster");
    std::fs::create_dir(dir.path().join("cluster")).unwrap();
    for f in files {
        std::fs::copy(data.join(f), dir.path().join("cluster").join(f)).unwrap();
    }
    dir
}

const SECRETS: &str = "cluster/secrets.yaml:1:1: info[cluster-input]: cluster/secrets.yaml is not checked with the cluster: it is a secrets bundle (`talosctl gen secrets`), not a node's config\n  fix: fix the file, or move it out of the cluster's folder; the other nodes were checked\n";

#[test]
fn a_consistent_cluster_folder_is_clean() {
    let dir = folder(&["cp-1.yaml", "worker-1.yaml", "worker-2.yaml", "secrets.yaml"]);
    let out = labctl_in(dir.path(), &["cluster", "check", "cluster"]);
    assert_eq!(text(&out.stdout), SECRETS);
    assert_eq!(
        text(&out.stderr),
        "labctl cluster check: 4 inputs (1 control plane, 2 workers, 1 not checked), cluster demo at https://10.5.0.10:6443: 0 errors, 0 warnings, 1 info\n"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn a_worker_from_another_bundle_fails() {
    let dir = folder(&["cp-1.yaml", "worker-1.yaml", "worker-other-bundle.yaml"]);
    let out = labctl_in(dir.path(), &["cluster", "check", "cluster"]);
    insta::assert_snapshot!(text(&out.stdout));
    assert_eq!(
        text(&out.stderr),
        "labctl cluster check: 3 inputs (1 control plane, 2 workers, 0 not checked), cluster demo at https://10.5.0.10:6443: 6 errors, 0 warnings, 0 infos\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// A repository that keeps one config per role and a patch per node.
#[test]
fn a_manifest_gives_each_node_its_patches() {
    let dir = folder(&["cp-1.yaml", "worker-1.yaml"]);
    let write = |name: &str, body: &str| std::fs::write(dir.path().join("cluster").join(name), body).unwrap();
    write("w2.yaml", "machine:\n  network:\n    hostname: worker-2\n");
    write("w3.yaml", "machine:\n  network:\n    hostname: worker-2\n");
    write(
        "nodes.yaml",
        "nodes:\n  - name: cp-1\n    config: cp-1.yaml\n  - name: worker-2\n    config: worker-1.yaml\n    patches: [w2.yaml]\n  - name: worker-3\n    config: worker-1.yaml\n    patches: [w3.yaml]\n",
    );
    let out = labctl_in(dir.path(), &["cluster", "check", "--manifest", "cluster/nodes.yaml"]);
    insta::assert_snapshot!(text(&out.stdout));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn sarif_for_code_scanning() {
    let dir = folder(&["cp-1.yaml", "worker-1.yaml", "worker-other-bundle.yaml"]);
    let out = labctl_in(dir.path(), &["cluster", "check", "cluster", "--output", "sarif"]);
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    crate::lint_cli::assert_valid_sarif(&log);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    assert_eq!(results[0]["ruleId"], "cluster-identity");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"],
        serde_json::json!({"artifactLocation": {"uri": "cluster/worker-other-bundle.yaml"}, "region": {"startLine": 31, "startColumn": 5}})
    );
}

#[test]
fn a_missing_file_is_named_and_the_rest_checked() {
    let dir = folder(&["cp-1.yaml", "worker-1.yaml"]);
    let out =
        labctl_in(dir.path(), &["cluster", "check", "cluster/cp-1.yaml", "cluster/gone.yaml", "cluster/worker-1.yaml"]);
    assert_eq!(
        text(&out.stdout),
        "cluster/gone.yaml:1:1: error[cluster-input]: cluster/gone.yaml is not checked with the cluster: it cannot be read: no such file or directory\n  fix: fix the file, or move it out of the cluster's folder; the other nodes were checked\n"
    );
    assert_eq!(
        text(&out.stderr),
        "labctl cluster check: 3 inputs (1 control plane, 1 worker, 1 not checked), cluster demo at https://10.5.0.10:6443: 1 error, 0 warnings, 0 infos\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn usage_errors_exit_2() {
    let out = labctl_in(&root(), &["cluster", "check"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: the following required arguments were not provided:\n  <PATH>...\n\nUsage: labctl cluster check <PATH>...\n\nFor more information, try '--help'.\n"
    );
}
