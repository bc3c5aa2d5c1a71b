//! Provenance (`talos_config::provenance`): which input and line set each value of a merged
//! config, for every merge rule the replay follows (replace, append, replace-lists, keyed lists,
//! new-style documents, `$patch: delete`, JSON6902), and the annotated merge output.

use talos_config::provenance::{Provenance, annotate};
use talos_config::{DocumentId, FieldPath};
use talos_config::{PatchSource, apply_patches, load_patches};

const BASE: &str = "version: v1alpha1\nmachine:\n  type: worker\n  certSANs: [a.example]\n  network:\n    hostname: one\n    interfaces:\n      - interface: eth0\n        mtu: 1500\ncluster:\n  network:\n    podSubnets: [10.244.0.0/16]\n";

fn trace(patches: &[&str]) -> (PatchSource, Vec<PatchSource>, Provenance) {
    let base = PatchSource::new("base.yaml", BASE);
    let sources: Vec<PatchSource> =
        patches.iter().enumerate().map(|(i, p)| PatchSource::new(format!("p{}.yaml", i + 1), *p)).collect();
    let t = Provenance::trace(&base, &sources);
    (base, sources, t)
}

fn render(t: &Provenance) -> String {
    let mut out = String::new();
    for leaf in t.leaves() {
        out.push_str(&format!("{}:{} = {}", leaf.document, leaf.path, leaf.site));
        for r in &leaf.replaced {
            out.push_str(&format!(" (replaced {r})"));
        }
        out.push('\n');
    }
    for d in t.deletions() {
        out.push_str(&format!("removed {}:{} (set at {}) by {}\n", d.document, d.path, d.removed, d.site));
    }
    out
}

#[test]
fn every_merge_rule() {
    let cases: [(&str, &[&str]); 9] = [
        (
            "scalars replace, twice",
            &["machine:\n  network:\n    hostname: two\n", "machine:\n  network:\n    hostname: three\n"],
        ),
        ("empty strings and nulls do not replace", &["machine:\n  network:\n    hostname: \"\"\n  type:\n"]),
        (
            "lists append, replace-lists replace",
            &["machine:\n  certSANs: [b.example]\ncluster:\n  network:\n    podSubnets: [10.200.0.0/16]\n"],
        ),
        (
            "keyed lists merge by key",
            &[
                "machine:\n  network:\n    interfaces:\n      - interface: eth0\n        addresses: [10.0.0.2/24]\n      - interface: eth1\n        dhcp: true\n",
            ],
        ),
        (
            "documents and deletes",
            &[
                "machine:\n  network:\n    hostname:\n      $patch: delete\n---\napiVersion: v1alpha1\nkind: HostnameConfig\nhostname: h\n",
                "apiVersion: v1alpha1\nkind: HostnameConfig\n$patch: delete\n",
            ],
        ),
        (
            "a list item deleted by its key",
            &[
                "machine:\n  network:\n    interfaces:\n      - interface: eth1\n        dhcp: true\n",
                "machine:\n  network:\n    interfaces:\n      - interface: eth0\n        $patch: delete\n",
            ],
        ),
        (
            "JSON6902 replace, move and copy on list items",
            &[
                "- op: add\n  path: /machine/certSANs/-\n  value: b.example\n- op: replace\n  path: /machine/certSANs/0\n  value: c.example\n- op: copy\n  from: /machine/certSANs/1\n  path: /machine/certSANs/-\n- op: move\n  from: /machine/certSANs/0\n  path: /machine/certSANs/-\n",
            ],
        ),
        (
            "a merged map keeps its own site",
            &["machine:\n  network:\n    interfaces:\n      - interface: eth0\n        mtu: 9000\n"],
        ),
        (
            "JSON6902",
            &[
                "- op: add\n  path: /machine/nodeLabels\n  value:\n    pool: blue\n- op: remove\n  path: /machine/certSANs/0\n- op: replace\n  path: /machine/type\n  value: controlplane\n",
            ],
        ),
    ];
    let mut out = String::new();
    for (name, patches) in cases {
        out.push_str(&format!("## {name}\n{}", render(&trace(patches).2)));
    }
    insta::assert_snapshot!("provenance_rules", out);
}

#[test]
fn locate_falls_back_to_the_closest_value() {
    let (_, _, t) = trace(&["machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n"]);
    let exact = t.locate(&DocumentId::legacy(), &FieldPath::parse("machine.kubelet.extraArgs.max-pod")).unwrap();
    assert_eq!((exact.site.to_string(), exact.exact), ("p1.yaml:4:7".to_string(), true));
    let near = t.locate(&DocumentId::legacy(), &FieldPath::parse("machine.kubelet.image")).unwrap();
    assert_eq!(
        (near.site.to_string(), near.path.to_string(), near.exact),
        ("p1.yaml:2:3".to_string(), "machine.kubelet".to_string(), false)
    );
    assert_eq!(t.locate(&DocumentId::new("LinkConfig", Some("eth0")), &FieldPath::root()), None);
}

#[test]
fn annotated_merge() {
    let (base, sources, t) =
        trace(&["machine:\n  network:\n    hostname: two\n  nodeLabels:\n    pool: blue\n    $patch: delete\n"]);
    let merged = apply_patches(&base.bytes, &load_patches(sources).unwrap());
    // A `$patch: delete` of the whole map: Talos removes nodeLabels, and so does the trace.
    let merged = merged.unwrap();
    insta::assert_snapshot!("provenance_annotated", annotate(&merged, &t).unwrap());
}

#[test]
fn deep_inputs_on_a_small_stack() {
    let depth = 10_000;
    let mut yaml = String::from("version: v1alpha1\nmachine:\n  type: worker\n  x: ");
    yaml.push_str(&"[".repeat(depth));
    yaml.push_str(&"]".repeat(depth));
    yaml.push('\n');
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let t =
                Provenance::trace(&PatchSource::new("deep.yaml", yaml.clone()), &[PatchSource::new("p.yaml", yaml)]);
            t.leaves().len()
        })
        .unwrap();
    // version, machine.type, and the innermost list of each input's `x` (lists append).
    assert_eq!(handle.join().unwrap(), 4);
}

#[test]
fn a_deep_copy_on_a_small_stack() {
    let depth = 9_000;
    let mut yaml = String::from("version: v1alpha1\nmachine:\n  type: worker\n  x: ");
    yaml.push_str(&"[".repeat(depth));
    yaml.push_str(&"]".repeat(depth));
    yaml.push('\n');
    let copy = "- op: copy\n  from: /machine/x\n  path: /machine/y\n";
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let t = Provenance::trace(&PatchSource::new("deep.yaml", yaml), &[PatchSource::new("copy.yaml", copy)]);
            let leaves = t.leaves();
            leaves.iter().map(|l| l.path.segments().len()).max()
        })
        .unwrap();
    assert_eq!(handle.join().unwrap(), Some(depth + 1));
}
