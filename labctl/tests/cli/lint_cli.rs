//! End-to-end tests of `labctl lint`: the lab's step 8 and step 7 caught offline with the patch
//! line, every output format (text, JSON, SARIF checked against the SARIF 2.1.0 schema, GitHub
//! workflow commands) and the exit codes CI relies on.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("labctl/ has a parent").to_path_buf()
}

fn labctl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labctl")).args(args).current_dir(root()).output().expect("labctl runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const STEP8: &str = "fixtures/08-kubelet.yaml:4:7: error[kubelet-unknown-flag]: kubelet v1.36 has no flag `--max-pod`: it exits at start (`unknown flag: --max-pod`), Talos restarts it every 5 s, and the node never becomes Ready\n  field: machine.kubelet.extraArgs.max-pod\n  fix: did you mean `max-pods`? Rename the key.\n";

#[test]
fn step8_unknown_flag_at_the_patch_line() {
    let out = labctl(&["lint", "fixtures/worker.yaml", "-p", "@fixtures/08-kubelet.yaml"]);
    assert_eq!(text(&out.stdout), STEP8);
    assert_eq!(text(&out.stderr), "labctl lint: 1 error, 0 warnings, 0 infos\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn step8_fixed_is_clean() {
    let out =
        labctl(&["lint", "fixtures/worker.yaml", "-p", "@fixtures/08-kubelet.yaml", "-p", "@fixtures/08-fix.yaml"]);
    assert_eq!(text(&out.stdout), "");
    assert_eq!(text(&out.stderr), "labctl lint: 0 errors, 0 warnings, 0 infos\n");
    assert_eq!(out.status.code(), Some(0));
}

/// Validates a SARIF log against the SARIF 2.1.0 schema (`data/sarif-schema-2.1.0.json`).
pub(crate) fn assert_valid_sarif(log: &serde_json::Value) {
    let schema: serde_json::Value = serde_json::from_str(include_str!("data/sarif-schema-2.1.0.json")).unwrap();
    let (mut schemas, mut compiler) = (boon::Schemas::new(), boon::Compiler::new());
    compiler.add_resource("file:///sarif-schema-2.1.0.json", schema).unwrap();
    let index = compiler.compile("file:///sarif-schema-2.1.0.json", &mut schemas).unwrap();
    if let Err(e) = schemas.validate(log, index) {
        panic!("invalid SARIF:\n{e:#}");
    }
}

#[test]
fn the_schema_check_can_fail() {
    let mut log: serde_json::Value = serde_json::from_str(&text(
        &labctl(&["lint", "fixtures/worker.yaml", "-p", "@fixtures/07-bad.yaml", "--output", "sarif"]).stdout,
    ))
    .unwrap();
    log["runs"][0]["results"][0]["level"] = serde_json::json!("fatal");
    let result = std::panic::catch_unwind(|| assert_valid_sarif(&log));
    assert!(result.is_err(), "a level SARIF does not know must be refused");
}

#[test]
fn step7_sarif_points_at_the_team_name_line() {
    let out = labctl(&["lint", "fixtures/worker.yaml", "-p", "@fixtures/07-bad.yaml", "--output", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    let log: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("SARIF is JSON");
    assert_valid_sarif(&log);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    let location = &results[0]["locations"][0];
    assert_eq!(location["physicalLocation"]["artifactLocation"]["uri"], "fixtures/07-bad.yaml");
    assert_eq!(location["physicalLocation"]["region"]["startLine"], 3);
    assert_eq!(location["physicalLocation"]["region"]["startColumn"], 5);
    assert_eq!(
        location["logicalLocations"][0]["fullyQualifiedName"],
        r#"machine.nodeLabels["lab.talos.dev/team name"]"#
    );
    insta::assert_snapshot!("lint_step7_sarif", text(&out.stdout));
}

#[test]
fn every_output_is_valid_for_a_finding_of_each_kind() {
    // A patch with an error, a warning and an info, an inline patch (no file to point at), and
    // a merge failure.
    let patch =
        "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"1\"\n      max_pods: \"2\"\n      node-labels: \"\"\n";
    for args in [
        &["lint", "fixtures/worker.yaml", "-p", patch, "--output", "sarif"][..],
        &["lint", "fixtures/worker.yaml", "-p", "@fixtures/08-fix.yaml", "--output", "sarif"][..],
        &["lint", "fixtures/controlplane.yaml", "--output", "sarif"][..],
    ] {
        let out = labctl(args);
        let log: serde_json::Value = serde_json::from_str(&text(&out.stdout)).expect("SARIF is JSON");
        assert_valid_sarif(&log);
    }
    let out = labctl(&["lint", "fixtures/worker.yaml", "-p", patch, "--output", "json"]);
    insta::assert_snapshot!("lint_json", text(&out.stdout));
    assert_eq!(out.status.code(), Some(1));
    let out = labctl(&["lint", "fixtures/worker.yaml", "-p", patch, "--output", "github"]);
    insta::assert_snapshot!("lint_github", text(&out.stdout));
}

#[test]
fn github_annotations_for_step8() {
    let out = labctl(&["lint", "fixtures/worker.yaml", "-p", "@fixtures/08-kubelet.yaml", "--output", "github"]);
    assert_eq!(
        text(&out.stdout),
        "::error file=fixtures/08-kubelet.yaml,line=4,col=7,title=kubelet-unknown-flag::kubelet v1.36 has no flag `--max-pod`: it exits at start (`unknown flag: --max-pod`), Talos restarts it every 5 s, and the node never becomes Ready (field machine.kubelet.extraArgs.max-pod)%0AFix: did you mean `max-pods`? Rename the key.\n"
    );
}

#[test]
fn a_failed_merge_is_a_finding_at_the_patch() {
    let out = labctl(&["lint", "fixtures/worker.yaml", "-p", "@fixtures/08-fix.yaml"]);
    assert_eq!(
        text(&out.stdout),
        "fixtures/08-fix.yaml:1:1: error[talos-merge]: patch delete: path 'machine.kubelet.extraArgs.max-pod' in document '/v1alpha1': failed to delete path 'machine.kubelet.extraArgs.max-pod': lookup failed\n  fix: fix the input named here as the message says; nothing else was checked\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn exit_codes() {
    let deprecated = "machine:\n  kubelet:\n    extraArgs:\n      max-pods: \"150\"\n";
    let out = labctl(&["lint", "fixtures/worker.yaml", "-p", deprecated]);
    assert_eq!(out.status.code(), Some(0), "warnings alone pass");
    assert_eq!(text(&out.stderr), "labctl lint: 0 errors, 1 warning, 0 infos\n");
    let out = labctl(&["lint", "fixtures/worker.yaml", "-p", deprecated, "--strict"]);
    assert_eq!(out.status.code(), Some(1), "--strict fails on warnings");
    let out = labctl(&["lint", "fixtures/worker.yaml", "--output", "xml"]);
    assert_eq!(out.status.code(), Some(2), "usage error");
    let out = labctl(&["lint", "fixtures/worker.yaml", "--host-ranges", "10.0.0.0"]);
    assert_eq!(out.status.code(), Some(2), "a bad range is a usage error");
    let out = labctl(&["lint", "fixtures/worker.yaml", "-p", "@fixtures/missing.yaml"]);
    assert_eq!(text(&out.stderr), "open fixtures/missing.yaml: no such file or directory\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn step4_host_ranges() {
    let out = labctl(&["lint", "fixtures/controlplane.yaml", "--host-ranges", "10.244.0.0/16,10.96.0.0/12"]);
    insta::assert_snapshot!("lint_step4_host_ranges", text(&out.stdout));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn validate_prints_ci_formats_too() {
    let out = labctl(&["validate", "-c", "fixtures/worker.yaml", "-m", "container", "--output", "sarif"]);
    assert_eq!(out.status.code(), Some(0));
    assert_valid_sarif(&serde_json::from_str(&text(&out.stdout)).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("step7.yaml");
    let merged = labctl(&["merge", "fixtures/worker.yaml", "-p", "@fixtures/07-bad.yaml", "-o", bad.to_str().unwrap()]);
    assert_eq!(merged.status.code(), Some(0));
    let out = labctl(&["validate", "-c", bad.to_str().unwrap(), "-m", "container", "--output", "github"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        format!(
            "::error file={},line=28,col=9,title=talos-validation::name \"team name\" is invalid (field machine.nodeLabels[\"lab.talos.dev/team name\"])\n",
            bad.display()
        )
    );
    assert_eq!(text(&out.stderr), "labctl validate: 1 error, 0 warnings, 0 infos\n");
}
