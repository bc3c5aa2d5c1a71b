//! Reboot prediction (`talos_config::plan`): Talos v1.13.9's `CanApplyImmediate`, case by case,
//! for every top-level area of the legacy document and for new-style documents, and the lab's
//! patches.

use std::path::Path;

use talos_config::plan::{Outcome, plan_apply};
use talos_config::{Config, PatchSource, merge_sources};

fn fixture(name: &str) -> PatchSource {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(name);
    PatchSource::new(name, std::fs::read(path).unwrap())
}

/// The prediction for `patches` applied to `base`.
fn predict(base: &PatchSource, patches: &[PatchSource]) -> talos_config::plan::ApplyPlan {
    let current = Config::from_bytes(&base.bytes).unwrap();
    let new = Config::from_vec(merge_sources(base, patches).unwrap()).unwrap();
    plan_apply(&current, &new).unwrap()
}

fn line(name: &str, plan: &talos_config::plan::ApplyPlan) -> String {
    let fields: Vec<String> = plan.reboot_fields.iter().map(ToString::to_string).collect();
    match plan.auto {
        Outcome::NoReboot => format!("{name}: no reboot\n"),
        Outcome::Reboot => format!("{name}: reboot because of {}\n", fields.join(", ")),
    }
}

/// One patch per area, against the lab's worker config.
const AREAS: &[(&str, &str)] = &[
    ("debug", "debug: true\n"),
    ("persist", "persist: false\n"),
    ("machine.type", "machine:\n  type: controlplane\n"),
    ("machine.token", "machine:\n  token: abcdef.0123456789abcdef\n"),
    ("machine.ca", "machine:\n  ca:\n    crt: bmV3\n"),
    ("machine.acceptedCAs", "machine:\n  acceptedCAs:\n    - crt: bmV3\n"),
    ("machine.certSANs", "machine:\n  certSANs: [lb.example.com]\n"),
    ("machine.controlPlane", "machine:\n  controlPlane:\n    scheduler:\n      disabled: true\n"),
    ("machine.kubelet", "machine:\n  kubelet:\n    extraArgs:\n      max-pods: \"150\"\n"),
    ("machine.pods", "machine:\n  pods:\n    - apiVersion: v1\n      kind: Pod\n"),
    ("machine.network", "machine:\n  network:\n    hostname: w1\n"),
    ("machine.disks", "machine:\n  disks:\n    - device: /dev/sdb\n"),
    ("machine.install", "machine:\n  install:\n    image: ghcr.io/siderolabs/installer:v1.13.9\n"),
    ("machine.files", "machine:\n  files:\n    - path: /var/f\n      content: x\n      op: create\n"),
    ("machine.env", "machine:\n  env:\n    HTTP_PROXY: http://proxy\n"),
    ("machine.time", "machine:\n  time:\n    servers: [time.cloudflare.com]\n"),
    ("machine.sysctls", "machine:\n  sysctls:\n    net.core.somaxconn: \"65535\"\n"),
    ("machine.sysfs", "machine:\n  sysfs:\n    devices.system.cpu.cpu0.cpufreq.scaling_governor: performance\n"),
    (
        "machine.registries",
        "machine:\n  registries:\n    mirrors:\n      docker.io:\n        endpoints: [http://mirror]\n",
    ),
    ("machine.systemDiskEncryption", "machine:\n  systemDiskEncryption:\n    ephemeral:\n      provider: luks2\n"),
    ("machine.features (kubePrism)", "machine:\n  features:\n    kubePrism:\n      port: 7446\n"),
    ("machine.features (hostDNS)", "machine:\n  features:\n    hostDNS:\n      resolveMemberNames: true\n"),
    ("machine.features (rbac)", "machine:\n  features:\n    rbac: false\n"),
    ("machine.features (stableHostname)", "machine:\n  features:\n    stableHostname: true\n"),
    ("machine.udev", "machine:\n  udev:\n    rules: [\"SUBSYSTEM==\\\"x\\\"\"]\n"),
    (
        "machine.logging",
        "machine:\n  logging:\n    destinations:\n      - endpoint: udp://127.0.0.1:12345/\n        format: json_lines\n",
    ),
    ("machine.kernel", "machine:\n  kernel:\n    modules:\n      - name: br_netfilter\n"),
    (
        "machine.seccompProfiles",
        "machine:\n  seccompProfiles:\n    - name: p.json\n      value:\n        defaultAction: SCMP_ACT_LOG\n",
    ),
    ("machine.nodeLabels", "machine:\n  nodeLabels:\n    pool: blue\n"),
    ("machine.nodeAnnotations", "machine:\n  nodeAnnotations:\n    a: b\n"),
    ("machine.nodeTaints", "machine:\n  nodeTaints:\n    a: b:NoSchedule\n"),
    ("machine.baseRuntimeSpecOverrides", "machine:\n  baseRuntimeSpecOverrides:\n    process:\n      rlimits: []\n"),
    ("cluster", "cluster:\n  clusterName: other\n  network:\n    podSubnets: [10.200.0.0/16]\n"),
    ("HostnameConfig", "apiVersion: v1alpha1\nkind: HostnameConfig\nauto: off\nhostname: w1\n"),
    (
        "a new VolumeConfig",
        "apiVersion: v1alpha1\nkind: UserVolumeConfig\nname: data\nprovisioning:\n  diskSelector:\n    match: disk.transport == \"nvme\"\n  minSize: 1GiB\n",
    ),
    (
        "a new RegistryMirrorConfig",
        "apiVersion: v1alpha1\nkind: RegistryMirrorConfig\nname: docker.io\nendpoints:\n  - url: http://mirror\n",
    ),
    ("a deleted HostnameConfig", "apiVersion: v1alpha1\nkind: HostnameConfig\n$patch: delete\n"),
];

#[test]
fn every_area() {
    let base = fixture("worker.yaml");
    let mut out = String::new();
    for (name, patch) in AREAS {
        out.push_str(&line(name, &predict(&base, &[PatchSource::new("patch.yaml", *patch)])));
    }
    insta::assert_snapshot!("plan_areas", out);
}

#[test]
fn features_added_where_there_were_none_reboot() {
    let base = PatchSource::new("base.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
    let plan =
        predict(&base, &[PatchSource::new("p.yaml", "machine:\n  features:\n    kubePrism:\n      enabled: true\n")]);
    assert_eq!(line("features", &plan), "features: reboot because of machine.features\n");
    let plan = predict(&base, &[PatchSource::new("p.yaml", "machine:\n  nodeLabels:\n    a: b\n")]);
    assert_eq!(plan.auto, Outcome::NoReboot);
}

#[test]
fn the_lab_patches_apply_live() {
    let base = fixture("worker.yaml");
    for patches in
        [&["05-labels.yaml"][..], &["06-canary.yaml"], &["08-kubelet.yaml"], &["08-kubelet.yaml", "08-fix.yaml"]]
    {
        let sources: Vec<PatchSource> = patches.iter().map(|p| fixture(p)).collect();
        let plan = predict(&base, &sources);
        assert_eq!((plan.auto, plan.refusal), (Outcome::NoReboot, None), "{patches:?}");
    }
}

#[test]
fn the_refusal_is_talos_text() {
    let base = PatchSource::new("base.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
    let plan = predict(&base, &[PatchSource::new("p.yaml", "machine:\n  env:\n    A: b\n")]);
    assert!(!plan.live_possible());
    assert_eq!(
        plan.refusal.as_deref(),
        Some(
            "this config change can't be applied in immediate mode\ndiff:\n--- a\n+++ b\n@@ -3,4 +3,6 @@\n     type: worker\n     token: \"\"\n     certSANs: []\n+    env:\n+        A: b\n cluster: null\n"
        )
    );
    let other = Config::from_bytes(b"apiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n").unwrap();
    let current = Config::from_bytes(&base.bytes).unwrap();
    assert_eq!(plan_apply(&current, &other).map_err(|e| e.to_string()), Err("new config is not v1alpha1".to_string()));
    assert_eq!(
        plan_apply(&other, &current).map_err(|e| e.to_string()),
        Err("current config is not v1alpha1".to_string())
    );
}

/// Every new-style document kind of Talos's own test data, added to the lab's worker config:
/// never a reboot (only the v1alpha1 document counts).
#[test]
fn every_new_style_kind_applies_live() {
    let Some(peer) = crate::common::peer_dir() else { return };
    let base = fixture("worker.yaml");
    let mut kinds = std::collections::BTreeSet::new();
    for dir in ["block", "cri", "hardware", "network", "runtime", "security", "siderolink"] {
        let Ok(entries) = std::fs::read_dir(peer.join("types").join(dir).join("testdata")) else { continue };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "yaml") {
                continue;
            }
            let doc = PatchSource::new(path.display().to_string(), std::fs::read(&path).unwrap());
            let Ok(merged) = merge_sources(&base, std::slice::from_ref(&doc)) else { continue };
            let new = Config::from_vec(merged).unwrap();
            let current = Config::from_bytes(&base.bytes).unwrap();
            let plan = plan_apply(&current, &new).unwrap();
            assert_eq!(plan.auto, Outcome::NoReboot, "{}", path.display());
            kinds.extend(new.docs().map(|d| d.kind()).filter(|k| *k != "v1alpha1"));
        }
    }
    insta::assert_snapshot!("plan_new_style_kinds", kinds.into_iter().collect::<Vec<_>>().join("\n"));
}

/// The refusal as Talos words it shows a changed token; the redacted one shows the same changed
/// line with `REDACTED` on both sides, and nothing else differs.
#[test]
fn the_redacted_refusal_hides_secrets_line_for_line() {
    let base = "version: v1alpha1\nmachine:\n  type: worker\n  token: aaaaaa.aaaaaaaaaaaaaaaa\n  env:\n    A: b\n";
    let new = "version: v1alpha1\nmachine:\n  type: worker\n  token: bbbbbb.bbbbbbbbbbbbbbbb\n  env:\n    A: c\n";
    let (a, b) = (Config::from_bytes(base.as_bytes()).unwrap(), Config::from_bytes(new.as_bytes()).unwrap());
    let plan = plan_apply(&a, &b).unwrap();
    let diff = |old: &str, new: &str| {
        format!(
            "--- a\n+++ b\n@@ -1,8 +1,8 @@\n version: v1alpha1\n machine:\n     type: worker\n-    token: {old}\n+    \
             token: {new}\n     certSANs: []\n     env:\n-        A: b\n+        A: c\n cluster: null\n"
        )
    };
    let refusal = |diff: String| format!("this config change can't be applied in immediate mode\ndiff:\n{diff}");
    let raw = diff("aaaaaa.aaaaaaaaaaaaaaaa", "bbbbbb.bbbbbbbbbbbbbbbb");
    assert_eq!(plan.refusal, Some(refusal(raw)));
    assert_eq!(plan.redacted_refusal, Some(refusal(diff("REDACTED", "REDACTED"))));
    assert_eq!(talos_config::diff::redacted_text_diff(&a, &b), diff("REDACTED", "REDACTED"));
}
