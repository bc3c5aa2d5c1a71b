//! A patch from two configs (`talos_config::diff::patch_between`): the round trip
//! `merge(a, patch) == b` over Talos's stability configs taken pairwise between consecutive
//! versions (every exception listed with its reason), and as a property over generated changes.

use proptest::prelude::*;
use talos_config::diff::patch_between;
use talos_config::{Config, PatchSource, merge_sources};

use crate::common;

/// `merge(a, patch)` gives exactly `b`'s encoding.
fn round_trips(a: &Config, b: &Config, patch: &str) -> bool {
    if patch.is_empty() {
        return a.encode() == b.encode();
    }
    let base = PatchSource::new("a", a.encode());
    merge_sources(&base, &[PatchSource::new("patch", patch)]).is_ok_and(|out| out == b.encode().as_bytes())
}

#[test]
fn stability_configs_between_consecutive_versions() {
    let Some(peer) = common::peer_dir() else { return };
    let dir = peer.join("types/v1alpha1/testdata/stability");
    let mut versions: Vec<(u32, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            let minor = name.strip_prefix("v1.")?.parse().ok()?;
            Some((minor, name))
        })
        .collect();
    versions.sort();
    let mut out = String::new();
    for file in ["base-controlplane.yaml", "base-worker.yaml", "overrides-controlplane.yaml", "overrides-worker.yaml"] {
        for pair in versions.windows(2) {
            let load = |v: &str| Config::from_vec(std::fs::read(dir.join(v).join(file)).unwrap()).unwrap();
            let (a, b) = (load(&pair[0].1), load(&pair[1].1));
            let line = match patch_between(&a, &b) {
                Ok(patch) if patch.is_empty() => "same".to_string(),
                Ok(patch) => {
                    assert!(round_trips(&a, &b, &patch), "{file} {} -> {}", pair[0].1, pair[1].1);
                    format!("ok ({} lines)", patch.lines().count())
                }
                Err(e) => format!("exception: {e}"),
            };
            out.push_str(&format!("{file} {} -> {}: {line}\n", pair[0].1, pair[1].1));
        }
    }
    insta::assert_snapshot!("patch_between_stability", out);
}

const BASE: &str = "version: v1alpha1\nmachine:\n  type: worker\n  token: t\n  certSANs: [a.example]\n  nodeLabels:\n    keep: \"1\"\n    drop: \"2\"\n  network:\n    hostname: one\ncluster:\n  clusterName: c\n  network:\n    podSubnets: [10.244.0.0/16]\n";

/// A generated change of BASE: labels added and removed, a hostname, SANs appended, pod subnets
/// replaced, a new document.
fn changed_config() -> impl Strategy<Value = String> {
    (
        proptest::collection::btree_map("[a-z]{1,6}", "[a-z0-9]{1,6}", 0..4),
        any::<bool>(),
        proptest::option::of("[a-z]{1,8}"),
        proptest::collection::vec("[a-z]{1,5}\\.example", 0..3),
        proptest::option::of(0u8..=255),
        any::<bool>(),
    )
        .prop_map(|(labels, drop, hostname, sans, subnet, hostname_doc)| {
            let mut yaml =
                String::from("version: v1alpha1\nmachine:\n  type: worker\n  token: t\n  certSANs:\n    - a.example\n");
            for s in &sans {
                yaml.push_str(&format!("    - {s}\n"));
            }
            yaml.push_str("  nodeLabels:\n    keep: \"1\"\n");
            if !drop {
                yaml.push_str("    drop: \"2\"\n");
            }
            for (k, v) in &labels {
                yaml.push_str(&format!("    l{k}: v{v}\n"));
            }
            yaml.push_str(&format!("  network:\n    hostname: {}\n", hostname.unwrap_or_else(|| "one".into())));
            let pods = subnet.map_or_else(|| "10.244.0.0/16".to_string(), |o| format!("10.{o}.0.0/16"));
            yaml.push_str(&format!("cluster:\n  clusterName: c\n  network:\n    podSubnets: [{pods}]\n"));
            if hostname_doc {
                yaml.push_str("---\napiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n");
            }
            yaml
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Every such change has a patch, and the patch gives exactly the changed config back, in both
    /// directions except the SANs (a list that loses items, which no patch expresses).
    #[test]
    fn a_patch_reproduces_the_second_config(changed in changed_config()) {
        let a = Config::from_bytes(BASE.as_bytes()).unwrap();
        let b = Config::from_bytes(changed.as_bytes()).unwrap();
        let patch = patch_between(&a, &b).unwrap();
        prop_assert!(round_trips(&a, &b, &patch), "patch:\n{patch}");
        match patch_between(&b, &a) {
            Ok(back) => prop_assert!(round_trips(&b, &a, &back)),
            Err(e) => prop_assert!(e.fields.iter().all(|(_, p)| p.to_string().starts_with("machine.certSANs")), "{e}"),
        }
    }
}
