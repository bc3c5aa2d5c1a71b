//! `talos_config::upgrade::rewrite` against what Talos v1.14.0-rc.1's own code said of it
//! (`data/upgrade`, recorded by `scripts/record-upgrade-cases.py`): for the lab's configs, the
//! configs `gen config` makes for contracts v1.12 to v1.14, configs of our own and Talos's
//! stability configs, the rewrite is byte for byte the one the reference program validated and
//! whose Kubernetes settings (every `K8s*` accessor, through Talos's bridge) equal the original's;
//! it validates wherever the original does; a second rewrite changes nothing.

use std::path::{Path, PathBuf};

use talos_config::upgrade::{Move, UpgradeOptions, rewrite};
use talos_config::{Mode, PatchSource, Release, merge_sources_for};

use crate::common;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data/upgrade")
}

/// A case of `cases.tsv`.
struct Case {
    name: String,
    from: Release,
    mode: Mode,
    base: String,
    patches: Vec<String>,
}

fn cases() -> Vec<Case> {
    let text = std::fs::read_to_string(data().join("cases.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            Case {
                name: cols[0].to_string(),
                from: cols[1].parse().unwrap(),
                mode: cols[2].parse().unwrap(),
                base: cols[3].to_string(),
                patches: cols.get(4).map(|p| p.split_whitespace().map(str::to_string).collect()).unwrap_or_default(),
            }
        })
        .collect()
}

/// The recorded row of a case: the rewrite's hash, `moved/total`, the reference program's
/// validation of the rewrite and of the original, and the effective settings' comparison.
fn recorded(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(data().join("recorded.tsv")).unwrap();
    let line =
        text.lines().find(|l| l.split('\t').next() == Some(name)).unwrap_or_else(|| panic!("{name} not recorded"));
    line.split('\t').map(str::to_string).collect()
}

/// The file a case names: in the workspace, or (`peer:`) in Talos v1.13.9's test data.
fn source(spec: &str, peer: Option<&Path>) -> Option<PatchSource> {
    let path = match spec.strip_prefix("peer:") {
        Some(rest) => peer?.join(rest),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(spec),
    };
    Some(PatchSource::new(spec, std::fs::read(&path).unwrap()))
}

/// FNV-1a, 64 bits: the recorder's fingerprint of the rewrite.
fn fnv64(bytes: &[u8]) -> String {
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{hash:016x}")
}

#[test]
fn every_rewrite_is_the_one_talos_validated_with_equal_settings() {
    let peer = common::peer_dir();
    let mut checked = 0;
    for case in cases() {
        if case.base.starts_with("peer:") && peer.is_none() {
            continue;
        }
        let base = source(&case.base, peer.as_deref()).unwrap();
        let patches: Vec<PatchSource> = case.patches.iter().map(|p| source(p, peer.as_deref()).unwrap()).collect();
        let merged = merge_sources_for(&base, &patches, case.from).unwrap();
        let options =
            UpgradeOptions { from: case.from, to: Release::V1_14_0_RC1, mode: case.mode, ..UpgradeOptions::default() };
        let done = rewrite(&merged, &options).unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let row = recorded(&case.name);
        let moved = done.moves.iter().filter(|m| m.kept.is_none()).count();
        assert_eq!(fnv64(&done.bytes), row[1], "{}: the rewrite is not the recorded one (re-record)", case.name);
        assert_eq!(format!("{moved}/{}", done.moves.len()), row[2], "{}", case.name);
        assert_eq!(row[5], "equal", "{}: Talos's effective settings differ", case.name);
        if row[4].starts_with("exit 0") {
            assert!(row[3].starts_with("exit 0:"), "{}: the rewrite does not validate: {}", case.name, row[3]);
        }
        let again = UpgradeOptions { from: Release::V1_14_0_RC1, ..options };
        assert_eq!(
            rewrite(&done.bytes, &again).unwrap().bytes,
            done.bytes,
            "{}: a second rewrite changed it",
            case.name
        );
        checked += 1;
    }
    let expected = if peer.is_some() { 55 } else { 11 };
    assert_eq!(checked, expected);
}

/// Every setting that moves, where to, or why it stays: the lab's control plane and worker,
/// with steps 5 and 8 applied.
#[test]
fn the_lab_names_every_setting_that_moves() {
    for (case, base) in [("controlplane", "fixtures/controlplane.yaml"), ("worker", "fixtures/worker.yaml")] {
        let base = source(base, None).unwrap();
        let patches =
            [source("fixtures/05-labels.yaml", None).unwrap(), source("fixtures/08-kubelet.yaml", None).unwrap()];
        let merged = merge_sources_for(&base, &patches, Release::V1_13_9).unwrap();
        let options = UpgradeOptions { to: Release::V1_14_0_RC1, ..UpgradeOptions::default() };
        let done = rewrite(&merged, &options).unwrap();
        insta::assert_snapshot!(format!("lab_moves_{case}"), listing(&done.moves));
    }
}

fn listing(moves: &[Move]) -> String {
    let mut out = String::new();
    for m in moves {
        let what = m.kept.as_deref().map_or("moved".to_string(), |why| format!("kept: {why}"));
        out.push_str(&format!("{} -> {} {}: {what}\n", m.setting, m.kind, m.field));
    }
    out
}
