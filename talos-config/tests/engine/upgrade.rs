//! `talos_config::upgrade`: a config set checked as two releases, the differences reported at the
//! input lines that wrote them. Each case prints every diagnostic (site, severity, rule, message,
//! document and field, fix) and whether the target release refuses the set.

use std::fmt::Write as _;
use std::path::Path;

use talos_config::upgrade::{UpgradeOptions, upgrade};
use talos_config::{PatchSource, Release};

fn fixture(name: &str) -> PatchSource {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(name);
    PatchSource::new(name, std::fs::read(path).unwrap())
}

/// The report as text: `refused: ...`, then one block per diagnostic.
fn report(base: &PatchSource, patches: &[PatchSource], from: Release, to: Release) -> String {
    let options = UpgradeOptions { from, to, ..UpgradeOptions::default() };
    let found = upgrade(base, patches, &options).unwrap();
    let mut out = format!("refused: {}\n", found.refused());
    for d in found.diagnostics() {
        writeln!(out, "{d}").unwrap();
        if let (Some(doc), Some(field)) = (d.document(), d.field()) {
            writeln!(out, "  field: {doc}: {field}").unwrap();
        }
        if let Some(fix) = d.fix() {
            writeln!(out, "  fix: {fix}").unwrap();
        }
    }
    out
}

const WORKER: &str = "version: v1alpha1\nmachine:\n  type: worker\n";

#[test]
fn the_same_release_reports_nothing() {
    let base = fixture("controlplane.yaml");
    let patches = [fixture("05-labels.yaml"), fixture("08-kubelet.yaml")];
    assert_eq!(report(&base, &patches, Release::V1_13_9, Release::V1_13_9), "refused: false\n");
}

/// Going back from v1.14 with its documents: each one is named at its `kind:` line, and an
/// unknown field of a kind both releases have, at its key; then the target's own refusal.
#[test]
fn going_back_names_each_document_the_target_lacks() {
    let base = PatchSource::new("worker.yaml", WORKER);
    let patch = PatchSource::new(
        "v1.14.yaml",
        "apiVersion: v1alpha1\nkind: KubeletConfig\nextraArgs:\n  max-pods: \"150\"\n---\napiVersion: v1alpha1\nkind: ResolverConfig\nhostDNS:\n  enabled: true\n---\napiVersion: v1alpha1\nkind: KubeNodeConfig\nlabels:\n  pool: blue\n",
    );
    insta::assert_snapshot!(report(&base, &[patch], Release::V1_14_0_RC1, Release::V1_13_9));
}

/// A field v1.12.11 does not have (the `mount` section of a user volume, v1.13) is named with
/// its path.
#[test]
fn going_back_names_a_field_the_target_lacks() {
    let base = PatchSource::new("worker.yaml", WORKER);
    let patch = PatchSource::new(
        "volume.yaml",
        "apiVersion: v1alpha1\nkind: UserVolumeConfig\nname: data\nprovisioning:\n  diskSelector:\n    match: system_disk\n  minSize: 1GiB\nmount:\n  secure: true\n",
    );
    insta::assert_snapshot!(report(&base, &[patch], Release::V1_13_9, Release::V1_12_11));
}

/// What only the target reports, and what it no longer reports, with the release's own texts.
#[test]
fn diagnostics_that_appear_and_disappear() {
    let base = fixture("worker.yaml");
    let patch =
        PatchSource::new("args.yaml", "machine:\n  kubelet:\n    extraArgs:\n      feature-gates: [A=true, B=true]\n");
    insta::assert_snapshot!(
        "appear_v1_12",
        report(&base, std::slice::from_ref(&patch), Release::V1_13_9, Release::V1_12_11)
    );
    insta::assert_snapshot!("appear_v1_14", report(&base, &[patch], Release::V1_13_9, Release::V1_14_0_RC1));
}

/// v1.14's patcher skips a `$patch: delete` of an absent document, where v1.13.9 refuses the
/// patch: the refusal is gone, and the tiny base's own problems appear.
#[test]
fn a_patch_only_the_target_release_accepts() {
    let base = PatchSource::new("worker.yaml", WORKER);
    let patch =
        PatchSource::new("delete.yaml", "apiVersion: v1alpha1\nkind: NetworkDefaultActionConfig\n$patch: delete\n");
    insta::assert_snapshot!(report(&base, &[patch], Release::V1_13_9, Release::V1_14_0_RC1));
}

/// v1.14 omits an empty `cluster.controlPlane` that v1.13.9 writes as `null`: the merged bytes
/// differ, the meaning does not: no `upgrade-merge` (the tiny base's own validation differs).
#[test]
fn an_encoding_only_difference_is_not_reported() {
    let base =
        PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  clusterName: demo\n");
    let patch = PatchSource::new("labels.yaml", "machine:\n  nodeLabels:\n    a: b\n");
    let options = UpgradeOptions { to: Release::V1_14_0_RC1, ..UpgradeOptions::default() };
    let found = upgrade(&base, &[patch], &options).unwrap();
    assert_ne!(found.before().merged(), found.after().merged());
    let rules: Vec<&str> = found.diagnostics().iter().map(|d| d.rule()).collect();
    assert_eq!(
        rules,
        ["upgrade-new", "upgrade-moves", "upgrade-moves", "upgrade-gone", "upgrade-gone", "upgrade-gone"]
    );
}
