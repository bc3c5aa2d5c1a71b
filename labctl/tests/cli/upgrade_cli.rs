//! End-to-end tests of `labctl upgrade`: the lab's configs previewed on v1.14.0-rc.1 (every setting
//! that moves, at its input line), going back with v1.14 documents (exit 1, each named), the
//! rewrite written atomically with mode 0600 (and nothing written when it is refused), the JSON
//! report, and usage errors.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use talos_config::upgrade::{UpgradeOptions, rewrite};
use talos_config::{PatchSource, Release, merge_sources_for};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("labctl/ has a parent").to_path_buf()
}

fn labctl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labctl")).args(args).current_dir(root()).output().expect("labctl runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const LAB: [&str; 5] =
    ["fixtures/controlplane.yaml", "-p", "@fixtures/05-labels.yaml", "-p", "@fixtures/08-kubelet.yaml"];

/// A v1.14 worker as `talosctl gen config` v1.14.0-rc.1 makes it (throwaway secrets).
const V1_14_WORKER: &str = "talos-config/tests/engine/data/upgrade/gen/contract-v1.14-worker.yaml";

#[test]
fn the_lab_previewed_on_v1_14() {
    let mut args = vec!["upgrade", "--to", "v1.14"];
    args.extend(LAB);
    let out = labctl(&args);
    insta::assert_snapshot!(text(&out.stdout));
    assert_eq!(text(&out.stderr), format!("labctl upgrade: v1.13.9 -> v1.14.0-rc.1: 0 errors, 0 warnings, 22 infos\n"));
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn going_back_with_v1_14_documents_exits_1_naming_each() {
    let out = labctl(&["upgrade", "--from", "v1.14", "--to", "v1.13.9", V1_14_WORKER]);
    insta::assert_snapshot!(text(&out.stdout));
    assert_eq!(
        text(&out.stderr),
        format!(
            "labctl upgrade: v1.14.0-rc.1 -> v1.13.9: 13 errors, 0 warnings, 0 infos; Talos v1.13.9 refuses this config\n"
        )
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn the_rewrite_is_written_with_mode_0600() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("controlplane-v1.14.yaml");
    let mut args = vec!["upgrade", "--to", "v1.14.0-rc.1", "--rewrite", "-o", out_path.to_str().unwrap()];
    args.extend(LAB);
    let out = labctl(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    let wrote = format!("labctl upgrade: wrote {} (16 of 22 settings moved)\n", out_path.display());
    assert_eq!(stderr, format!("{wrote}labctl upgrade: v1.13.9 -> v1.14.0-rc.1: 0 errors, 0 warnings, 22 infos\n"));
    let read = |p: &str| PatchSource::new(p, std::fs::read(root().join(p)).unwrap());
    let base = read("fixtures/controlplane.yaml");
    let patches = [read("fixtures/05-labels.yaml"), read("fixtures/08-kubelet.yaml")];
    let merged = merge_sources_for(&base, &patches, Release::V1_13_9).unwrap();
    let options = UpgradeOptions { to: Release::V1_14_0_RC1, ..UpgradeOptions::default() };
    assert_eq!(std::fs::read(&out_path).unwrap(), rewrite(&merged, &options).unwrap().bytes);
    assert_eq!(std::fs::metadata(&out_path).unwrap().permissions().mode() & 0o777, 0o600);
    let names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["controlplane-v1.14.yaml"]);
}

#[test]
fn a_refused_rewrite_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out_path = dir.path().join("worker-v1.13.yaml");
    let out = labctl(&[
        "upgrade",
        "--from",
        "v1.14",
        "--to",
        "v1.13.9",
        V1_14_WORKER,
        "--rewrite",
        "-o",
        out_path.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let missing = [
        "DiscoveryServiceConfig",
        "DiscoveryIdentityConfig",
        "UnattendedInstallConfig",
        "field hostDNS in ResolverConfig",
        "FilesystemTrimConfig",
        "SecurityProfileConfig",
        "KubeClusterConfig",
        "KubeNodeConfig",
        "KubeletConfig",
        "KubeNetworkConfig",
        "KubeAPIServerCAConfig",
        "KubePrismConfig",
    ];
    let lines: Vec<String> = missing
        .iter()
        .map(|m| match m.strip_prefix("field ") {
            Some(field) => format!("Talos v1.13.9 has no field {field} documents"),
            None => format!("Talos v1.13.9 has no {m} document"),
        })
        .collect();
    let expected = format!(
        "labctl upgrade: Talos v1.13.9 cannot express this config: {}\nnothing was written to {}\n",
        lines.join("\n"),
        out_path.display()
    );
    assert_eq!(text(&out.stderr), expected);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn the_json_report() {
    let out = labctl(&["upgrade", "--from", "v1.14", "--to", "v1.13.9", V1_14_WORKER, "--output", "json"]);
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["summary"], serde_json::json!({"errors": 13, "warnings": 0, "infos": 0}));
    assert_eq!(
        report["findings"][0],
        serde_json::json!({
            "rule": "upgrade-unknown",
            "severity": "error",
            "message": "Talos v1.13.9 has no DiscoveryServiceConfig document",
            "document": "DiscoveryServiceConfig/default",
            "path": null,
            "location": {"file": V1_14_WORKER, "line": 17, "column": 1},
            "suggestion": "remove the document, or keep these nodes on a release that has it",
        })
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn usage_errors() {
    let out = labctl(&["upgrade", "fixtures/worker.yaml"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: the following required arguments were not provided:\n  --to <RELEASE>\n\nUsage: labctl upgrade --to <RELEASE> <CONFIG>\n\nFor more information, try '--help'.\n"
    );
    let out = labctl(&["upgrade", "--to", "v1.13.9", "fixtures/worker.yaml", "--rewrite"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: the following required arguments were not provided:\n  --output-file <OUT>\n\nUsage: labctl upgrade --to <RELEASE> --rewrite --output-file <OUT> <CONFIG>\n\nFor more information, try '--help'.\n"
    );
}

/// SARIF for code scanning: valid against the SARIF 2.1.0 schema, with the upgrade rules
/// described and every finding at its file and line.
#[test]
fn the_sarif_report() {
    let out = labctl(&["upgrade", "--from", "v1.14", "--to", "v1.13.9", V1_14_WORKER, "--output", "sarif"]);
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    crate::lint_cli::assert_valid_sarif(&log);
    let rules: Vec<&str> = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(rules, ["upgrade-unknown", "upgrade-new", "upgrade-merge", "upgrade-moves", "upgrade-gone"]);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 13);
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"],
        serde_json::json!({"artifactLocation": {"uri": V1_14_WORKER}, "region": {"startLine": 17, "startColumn": 1}})
    );
    assert_eq!(results[0]["ruleIndex"], 0);
    assert_eq!(out.status.code(), Some(1));
}
