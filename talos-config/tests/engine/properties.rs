//! Property tests that need no Talos: decode/encode identity on encoder output, no-op patches,
//! failed patches that change nothing, determinism; and patches generated over the real schema
//! (round trips, spelling independence, idempotence, commutation on different fields,
//! idempotent deletes).

use proptest::prelude::*;
use talos_config::{Config, PatchSource, apply_patches, load_patches};

const BASE: &str = "version: v1alpha1\nmachine:\n  type: worker\n";

/// Label keys and values with characters that exercise quoting (but no line breaks, which
/// upstream itself cannot always read back: see W12).
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9./_-]{0,20}",
        "[ -~]{0,12}",
        Just("on".to_string()),
        Just("1.5".to_string()),
        Just("0x1F".to_string()),
        Just("- x".to_string()),
        Just("a: b".to_string()),
        Just("é日本".to_string()),
        Just("2024-01-01".to_string()),
        "\\PC{0,6}",
    ]
    // YAML also breaks lines at NEL, LS and PS: a quoted key holding one is no simple key, and
    // go-yaml (like our parser) rejects the JSON patch, so they are left out here.
    .prop_map(|s: String| s.replace(['\u{85}', '\u{2028}', '\u{2029}'], ""))
}

/// A strategic patch in JSON form setting labels, certSANs, a hostname and kubelet args.
fn strategic_patch() -> impl Strategy<Value = String> {
    (
        prop::collection::btree_map(text(), text(), 0..6),
        prop::collection::vec(text(), 0..4),
        text(),
        prop::collection::btree_map("[a-z-]{1,10}", text(), 0..4),
    )
        .prop_map(|(labels, sans, hostname, args)| {
            serde_json::json!({
                "machine": {
                    "nodeLabels": labels,
                    "certSANs": sans,
                    "network": {"hostname": hostname},
                    "kubelet": {"extraArgs": args},
                }
            })
            .to_string()
        })
}

fn apply(base: &[u8], patches: &[String]) -> Result<Vec<u8>, talos_config::Error> {
    let sources = patches.iter().enumerate().map(|(i, p)| PatchSource::new(format!("p{i}"), p.as_bytes()));
    apply_patches(base, &load_patches(sources)?)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn decode_then_encode_is_identity_on_encoder_output(p in strategic_patch()) {
        let out = apply(BASE.as_bytes(), &[p]).expect("patch applies");
        let again = Config::from_bytes(&out).expect("encoder output loads").encode();
        prop_assert_eq!(String::from_utf8_lossy(&out), again);
    }

    #[test]
    fn empty_strategic_patch_changes_nothing(p in strategic_patch()) {
        let out = apply(BASE.as_bytes(), &[p]).expect("patch applies");
        let same = apply(&out, &["machine: {}".to_string()]).expect("no-op applies");
        prop_assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&same));
    }

    #[test]
    fn failing_patch_leaves_no_trace(p in strategic_patch(), q in strategic_patch()) {
        let base = apply(BASE.as_bytes(), &[p]).expect("patch applies");
        let snapshot = base.clone();
        let bad = r#"{"machine": {"nodeLabels": {"a": "b"}, "unknownField": 1}}"#.to_string();
        let failed = apply(&base, &[q.clone(), bad.clone()]).map_err(|e| e.to_string());
        prop_assert!(failed.is_err());
        // The failure is the one the bad patch gives on the good patch's result...
        let after_q = apply(&base, std::slice::from_ref(&q)).expect("good patch applies");
        prop_assert_eq!(failed, apply(&after_q, &[bad]).map_err(|e| e.to_string()));
        // ...and the input is untouched.
        prop_assert_eq!(base, snapshot);
    }

    #[test]
    fn result_depends_only_on_inputs(p in strategic_patch(), q in strategic_patch()) {
        let a = apply(BASE.as_bytes(), &[p.clone(), q.clone()]).map_err(|e| e.to_string());
        let b = apply(BASE.as_bytes(), &[p, q]).map_err(|e| e.to_string());
        prop_assert_eq!(a, b);
    }
}

// ---- Patches over the real schema ----
//
// The leaf fields of the machine config (strings, booleans, integers, durations, string maps)
// come from the Go field table the model is checked against (`data/go_field_types.tsv`); a
// patch sets a few of them, in JSON (flow) or block YAML. None of these properties needs Talos.

const FIELDS: &str = include_str!("data/go_field_types.tsv");

/// A settable leaf of the v1alpha1 document: its path and what values it takes.
#[derive(Clone, Debug)]
struct Leaf {
    path: Vec<String>,
    go_type: String,
    go_kind: String,
}

/// Struct-field leaves that are not inside a list or a map value (setting those twice appends).
fn leaves() -> Vec<Leaf> {
    FIELDS
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let (kind, path, declared, deref, go_kind, flag) = (cols[0], cols[1], cols[2], cols[3], cols[4], cols[5]);
            let settable = matches!(go_kind, "string" | "bool" | "int" | "int64" | "uint" | "uint32" | "uint64")
                || deref == "map[string]string"
                || deref == "v1alpha1.Args";
            let top = ["version", "machine.type"].contains(&path);
            (kind == "v1alpha1/MachineConfig" && flag.is_empty() && settable && !top && !path.contains(['[', '{']))
                .then(|| Leaf {
                    path: path.split('.').map(String::from).collect(),
                    go_type: declared.to_string(),
                    go_kind: go_kind.to_string(),
                })
        })
        .collect()
}

/// A value the leaf's Go type takes.
fn leaf_value(leaf: &Leaf) -> BoxedStrategy<serde_json::Value> {
    use serde_json::Value as J;
    if leaf.go_type.trim_start_matches('*') == "time.Duration" {
        return prop::sample::select(vec!["1s", "5m0s", "250ms", "1h0m0s"]).prop_map(|d| J::String(d.into())).boxed();
    }
    match leaf.go_kind.as_str() {
        "string" => text().prop_map(J::String).boxed(),
        "bool" => any::<bool>().prop_map(J::Bool).boxed(),
        "int" | "int64" | "uint" | "uint32" | "uint64" => (0u32..5000).prop_map(J::from).boxed(),
        _ => prop::collection::btree_map("[a-z][a-z0-9.-]{0,8}", text(), 0..3)
            .prop_map(|m| J::Object(m.into_iter().map(|(k, v)| (k, J::String(v))).collect()))
            .boxed(),
    }
}

/// One to four distinct leaves, each with a value.
fn settings() -> impl Strategy<Value = Vec<(Leaf, serde_json::Value)>> {
    let all = leaves();
    prop::sample::subsequence(all, 1..5)
        .prop_flat_map(|picked| picked.into_iter().map(|l| (Just(l.clone()), leaf_value(&l))).collect::<Vec<_>>())
}

/// The nested patch document setting each leaf.
fn patch_doc(settings: &[(Leaf, serde_json::Value)]) -> serde_json::Value {
    let mut root = serde_json::json!({});
    for (leaf, value) in settings {
        let mut at = &mut root;
        for (i, key) in leaf.path.iter().enumerate() {
            let map = at.as_object_mut().expect("leaves are below structs");
            if i + 1 == leaf.path.len() {
                map.insert(key.clone(), value.clone());
                break;
            }
            at = map.entry(key.clone()).or_insert_with(|| serde_json::json!({}));
        }
    }
    root
}

/// The same patch in block YAML (JSON strings are YAML double-quoted scalars).
fn block_yaml(value: &serde_json::Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match value {
        serde_json::Value::Object(map) if !map.is_empty() => {
            for (k, v) in map {
                out.push_str(&format!("{pad}{}:", serde_json::Value::String(k.clone())));
                if matches!(v, serde_json::Value::Object(m) if !m.is_empty()) {
                    out.push('\n');
                    block_yaml(v, indent + 2, out);
                } else {
                    out.push(' ');
                    out.push_str(&v.to_string());
                    out.push('\n');
                }
            }
        }
        other => {
            out.push_str(&pad);
            out.push_str(&other.to_string());
            out.push('\n');
        }
    }
}

fn delete_patch(leaf: &Leaf) -> String {
    let mut doc = String::new();
    for (i, key) in leaf.path.iter().enumerate() {
        doc.push_str(&format!("{}{}:\n", "  ".repeat(i), serde_json::Value::String(key.clone())));
    }
    doc.push_str(&format!("{}$patch: delete\n", "  ".repeat(leaf.path.len())));
    doc
}

fn text_of(r: Result<Vec<u8>, talos_config::Error>) -> Result<String, String> {
    r.map(|b| String::from_utf8_lossy(&b).into_owned()).map_err(|e| e.to_string())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Whatever the patch sets, the result reads back to itself.
    #[test]
    fn schema_patch_result_round_trips(s in settings()) {
        if let Ok(out) = apply(BASE.as_bytes(), &[patch_doc(&s).to_string()]) {
            let again = Config::from_bytes(&out).expect("result loads").encode();
            prop_assert_eq!(String::from_utf8_lossy(&out), again);
        }
    }

    /// Flow (JSON) and block YAML spellings of a patch give the same bytes (or both fail: the
    /// error texts name different lines).
    #[test]
    fn schema_patch_spelling_does_not_matter(s in settings()) {
        let doc = patch_doc(&s);
        let mut block = String::new();
        block_yaml(&doc, 0, &mut block);
        let (flow, block) = (text_of(apply(BASE.as_bytes(), &[doc.to_string()])), text_of(apply(BASE.as_bytes(), &[block])));
        prop_assert_eq!(flow.ok(), block.ok());
    }

    /// Setting scalars and string-map entries is idempotent (no lists involved).
    #[test]
    fn schema_patch_applied_twice_is_applied_once(s in settings()) {
        let p = patch_doc(&s).to_string();
        prop_assert_eq!(
            text_of(apply(BASE.as_bytes(), std::slice::from_ref(&p))),
            text_of(apply(BASE.as_bytes(), &[p.clone(), p]))
        );
    }

    /// Patches on different leaves commute.
    #[test]
    fn schema_patches_on_different_leaves_commute(s in settings()) {
        let (first, rest) = s.split_at(1);
        let (a, b) = (patch_doc(first).to_string(), patch_doc(rest).to_string());
        prop_assert_eq!(
            text_of(apply(BASE.as_bytes(), &[a.clone(), b.clone()])),
            text_of(apply(BASE.as_bytes(), &[b, a]))
        );
    }

    /// A delete applied twice either does nothing more or fails; what the leaf held before does
    /// not matter.
    #[test]
    fn schema_deletes_are_idempotent(s in settings()) {
        let Ok(setup) = apply(BASE.as_bytes(), &[patch_doc(&s).to_string()]) else { return Ok(()) };
        let del = delete_patch(&s[0].0);
        let once = text_of(apply(&setup, std::slice::from_ref(&del)));
        if let Ok(once_text) = &once {
            let twice = text_of(apply(once_text.as_bytes(), std::slice::from_ref(&del)));
            prop_assert!(twice.is_err() || twice.as_ref() == Ok(once_text), "{twice:?}");
            let once = once.clone();
            // Whatever value the leaf had, deleting it gives the same result.
            let set_then_delete = text_of(apply(&setup, &[patch_doc(&s[..1]).to_string(), del]));
            prop_assert_eq!(set_then_delete, once);
        }
    }
}

#[test]
fn the_schema_has_leaves_of_every_kind() {
    let leaves = leaves();
    let types: std::collections::BTreeSet<&str> = leaves.iter().map(|l| l.go_type.as_str()).collect();
    assert!(leaves.len() > 90, "{}", leaves.len());
    for t in ["string", "bool", "time.Duration", "uint", "map[string]string", "v1alpha1.Args"] {
        assert!(types.iter().any(|x| x.trim_start_matches('*') == t), "no {t} leaf");
    }
}

/// The properties above skip patches that fail to decode; most must not, or they prove little.
#[test]
fn most_schema_patches_apply() {
    use proptest::strategy::ValueTree;
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = settings();
    let (mut applied, total) = (0, 300);
    for _ in 0..total {
        let s = strategy.new_tree(&mut runner).expect("a value").current();
        applied += usize::from(apply(BASE.as_bytes(), &[patch_doc(&s).to_string()]).is_ok());
    }
    assert!(applied * 10 >= total * 8, "{applied} of {total} applied");
}
