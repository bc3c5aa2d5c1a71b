//! End-to-end tests of `labctl diff` and `labctl merge --diff`: the two lab fixtures compared
//! without printing a secret (planted ones included), the removal summary, and JSON changes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn labctl(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_labctl")).args(args).current_dir(root()).output().expect("labctl runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Secrets planted in the worker config, beyond the fixtures' own.
const PLANTED: &str = "    registries:\n        config:\n            registry.example.com:\n                auth:\n                    username: ci\n                    password: PLANTED-registry-password\n";
const PLANTED_DOCS: &str = "---\napiVersion: v1alpha1\nkind: RegistryAuthConfig\nname: ghcr.io\nusername: u\npassword: PLANTED-auth-password\n---\napiVersion: v1alpha1\nkind: WireguardConfig\nname: wg0\nprivateKey: PLANTED-wireguard-key\npeers:\n  - publicKey: pub\n    presharedKey: PLANTED-preshared\n";

/// Every value of a secret-looking key in a config text (`token`, `secret`, `key`, `*Secret`).
fn secrets_of(config: &str) -> Vec<String> {
    config
        .lines()
        .filter_map(|l| l.trim_start().split_once(": "))
        .filter(|(k, v)| {
            (["token", "secret", "key", "password", "privateKey", "presharedKey"].contains(k) || k.ends_with("Secret"))
                && v.len() > 3
                && *v != "\"\""
        })
        .map(|(_, v)| v.to_string())
        .collect()
}

#[test]
fn the_fixtures_diff_prints_no_secret() {
    let dir = tempfile::tempdir().unwrap();
    let worker = std::fs::read_to_string(root().join("fixtures/worker.yaml")).unwrap();
    let planted = worker.replacen("    certSANs:\n", &format!("{PLANTED}    certSANs:\n"), 1) + PLANTED_DOCS;
    let worker_path = dir.path().join("worker.yaml");
    std::fs::write(&worker_path, &planted).unwrap();
    let controlplane = std::fs::read_to_string(root().join("fixtures/controlplane.yaml")).unwrap();
    let mut secrets = secrets_of(&planted);
    secrets.extend(secrets_of(&controlplane));
    assert!(secrets.len() >= 12, "the scan finds the secrets: {secrets:?}");
    assert!(secrets.iter().any(|s| s == "PLANTED-wireguard-key"));
    for args in [
        vec![worker_path.to_str().unwrap(), "fixtures/controlplane.yaml"],
        vec!["fixtures/controlplane.yaml", worker_path.to_str().unwrap()],
        vec![worker_path.to_str().unwrap(), "fixtures/controlplane.yaml", "--output", "json"],
    ] {
        let mut full = vec!["diff"];
        full.extend(args.iter().copied());
        let out = labctl(&full);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let shown = text(&out.stdout);
        assert!(shown.contains("REDACTED"), "{shown}");
        for s in &secrets {
            assert!(!shown.contains(s.as_str()), "secret {s} printed by {full:?}");
        }
    }
}

#[test]
fn the_fixtures_diff_exactly() {
    let out = labctl(&["diff", "fixtures/worker.yaml", "fixtures/controlplane.yaml"]);
    insta::assert_snapshot!("diff_fixtures", text(&out.stdout));
}

#[test]
fn removals_are_listed_and_json_is_typed() {
    let dir = tempfile::tempdir().unwrap();
    let merged = labctl(&["merge", "fixtures/worker.yaml", "-p", "@fixtures/05-labels.yaml"]);
    let with_label = dir.path().join("labelled.yaml");
    std::fs::write(&with_label, &merged.stdout).unwrap();
    let out = labctl(&["diff", with_label.to_str().unwrap(), "fixtures/worker.yaml"]);
    assert_eq!(
        text(&out.stdout),
        "# v1alpha1: changed\n--- a\n+++ b\n@@ -24,8 +24,6 @@\n         hostDNS:\n             enabled: true\n             forwardKubeDNSToHost: true\n-    nodeLabels:\n-        lab.talos.dev/pool: blue\n cluster:\n     id: 4JIwNQhSYzF6ly8gTpy9aTobKtEjsaUv5sw7tWNPiYM=\n     secret: REDACTED\n# removed (1):\n#   v1alpha1: machine.nodeLabels\n"
    );
    let out = labctl(&["diff", with_label.to_str().unwrap(), "fixtures/worker.yaml", "--output", "json"]);
    let json: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(
        json["changes"],
        serde_json::json!([{"document": "v1alpha1", "path": "machine.nodeLabels", "change": "removed", "old": "lab.talos.dev/pool: blue\n", "new": null}])
    );
    let same = labctl(&["diff", "fixtures/worker.yaml", "fixtures/worker.yaml"]);
    assert_eq!(text(&same.stdout), "No changes.\n");
}

#[test]
fn merge_diff_shows_what_the_patches_change() {
    let out = labctl(&["merge", "fixtures/worker.yaml", "-p", "@fixtures/05-labels.yaml", "--diff"]);
    assert_eq!(
        text(&out.stdout),
        "# v1alpha1: changed\n--- a\n+++ b\n@@ -24,6 +24,8 @@\n         hostDNS:\n             enabled: true\n             forwardKubeDNSToHost: true\n+    nodeLabels:\n+        lab.talos.dev/pool: blue\n cluster:\n     id: 4JIwNQhSYzF6ly8gTpy9aTobKtEjsaUv5sw7tWNPiYM=\n     secret: REDACTED\n"
    );
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn as_patch_round_trips_and_refuses_what_no_patch_expresses() {
    let dir = tempfile::tempdir().unwrap();
    let merged =
        labctl(&["merge", "fixtures/worker.yaml", "-p", "@fixtures/05-labels.yaml", "-p", "@fixtures/06-canary.yaml"]);
    let b = dir.path().join("b.yaml");
    std::fs::write(&b, &merged.stdout).unwrap();
    let out = labctl(&["diff", "fixtures/worker.yaml", b.to_str().unwrap(), "--as-patch"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let patch = dir.path().join("patch.yaml");
    std::fs::write(&patch, &out.stdout).unwrap();
    let again = labctl(&["merge", "fixtures/worker.yaml", "-p", &format!("@{}", patch.display())]);
    assert_eq!(again.stdout, merged.stdout, "merge A -p @patch gives B");

    let fewer =
        std::fs::read_to_string(root().join("fixtures/worker.yaml")).unwrap().replace("        - 127.0.0.1\n", "");
    let c = dir.path().join("c.yaml");
    std::fs::write(&c, fewer).unwrap();
    let out = labctl(&["diff", "fixtures/worker.yaml", c.to_str().unwrap(), "--as-patch"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        text(&out.stderr),
        format!(
            "labctl diff: fixtures/worker.yaml -> {}: no Talos patch turns the first config into the second: machine.certSANs (a list that loses, changes or reorders items, a value set back to empty or zero, or a change in how a value is written; apply a JSON6902 patch, or send the second config whole)\n",
            c.display()
        )
    );
}
