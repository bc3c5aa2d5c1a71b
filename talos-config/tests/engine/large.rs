//! Large inputs still merge, with exact results (timing is measured by the benchmarks).

use talos_config::{Config, PatchSource, apply_patches, load_patches};

#[test]
fn ten_thousand_labels_merge() {
    let mut patch = String::from("machine:\n  nodeLabels:\n");
    for i in 0..10_000 {
        patch.push_str(&format!("    l{i:05}: v{i}\n"));
    }
    let patches = load_patches([PatchSource::new("labels", patch)]).unwrap();
    let out =
        String::from_utf8(apply_patches(b"version: v1alpha1\nmachine:\n  type: worker\n", &patches).unwrap()).unwrap();
    let labels: Vec<&str> = out.lines().filter(|l| l.starts_with("        l")).collect();
    assert_eq!(labels.len(), 10_000);
    assert_eq!(labels[0], "        l00000: v0");
    assert_eq!(labels[9_999], "        l09999: v9999");
}

#[test]
fn ten_mib_of_inline_manifests_merge() {
    let body: String = (0..160_000).map(|i| format!("  key{i}: value\n")).collect();
    assert!(body.len() > 2_500_000);
    let mut base = String::from("version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  inlineManifests:\n");
    for m in 0..4 {
        base.push_str(&format!("    - name: m{m}\n      contents: |\n"));
        for line in body.lines() {
            base.push_str("        ");
            base.push_str(line);
            base.push('\n');
        }
    }
    assert!(base.len() > 10 * 1024 * 1024);
    let patches = load_patches([PatchSource::new("p", "machine: {nodeLabels: {a: b}}")]).unwrap();
    let out = apply_patches(base.as_bytes(), &patches).unwrap();
    let cfg = Config::from_bytes(&out).unwrap();
    assert_eq!(cfg.encode().as_bytes(), out.as_slice());
    let text = String::from_utf8(out).unwrap();
    assert_eq!(text.matches("\n          contents: |\n").count(), 4);
    assert!(text.contains("\n            key159999: value\n        - name: m1\n"));
}

#[test]
fn three_thousand_documents_merge_three_thousand_patch_documents() {
    let link = |name: &str| format!("---\napiVersion: v1alpha1\nkind: DummyLinkConfig\nname: {name}\n");
    let mut base = String::from("version: v1alpha1\nmachine:\n  type: worker\n");
    for i in 0..3_000 {
        base.push_str(&link(&format!("d{i:04}")));
    }
    // A third of the patch documents merge into existing ones, a third delete existing ones and
    // a third are new; the patch lists them interleaved and from the end backwards.
    let mut patch = String::new();
    for i in (0..1_000).rev() {
        patch.push_str(&link(&format!("d{:04}", i * 3)));
        patch.push_str(&format!("hardwareAddr: 2e:3c:4d:5e:{:02x}:{:02x}\n", i / 256, i % 256));
        patch.push_str(&link(&format!("d{:04}", i * 3 + 1)));
        patch.push_str("$patch: delete\n");
        patch.push_str(&link(&format!("n{i:04}")));
    }
    let patches = load_patches([PatchSource::new("p", patch)]).unwrap();
    let out = String::from_utf8(apply_patches(base.as_bytes(), &patches).unwrap()).unwrap();
    let names: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("name: ")).collect();
    let mut expected: Vec<String> = (0..3_000).filter(|i| i % 3 != 1).map(|i| format!("d{i:04}")).collect();
    expected.extend((0..1_000).rev().map(|i| format!("n{i:04}")));
    assert_eq!(names, expected);
    assert_eq!(out.matches("\n---\n").count(), 3_000);
    let addrs: Vec<&str> = out.lines().filter(|l| l.starts_with("hardwareAddr: ")).collect();
    assert_eq!(addrs.len(), 1_000);
    assert_eq!(addrs[0], "hardwareAddr: 2e:3c:4d:5e:00:00");
    assert_eq!(addrs[999], "hardwareAddr: 2e:3c:4d:5e:03:e7");
    assert!(out.contains("\nname: d0003\nhardwareAddr: 2e:3c:4d:5e:00:01\n---\n"), "{}", &out[..400]);
}
