//! The model against Talos v1.13.9's Go structs (`data/go_field_types.tsv`): every document kind
//! has the same field set, and every field type names its Go type in decode errors exactly as
//! Talos's decoder does (one probe per field puts a mapping or sequence where the field cannot
//! take one and compares go-yaml's `cannot construct` text).

use std::collections::{BTreeMap, BTreeSet};

use talos_config::Config;

const TABLE: &str = include_str!("data/go_field_types.tsv");

/// One row: the document kind, the YAML path, and the expected error for the probe value.
struct Probe {
    kind: String,
    path: String,
    value: &'static str,
    want: String,
}

fn probes() -> Vec<Probe> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        // Types that decode themselves report their own errors; `interface{}` takes anything.
        .filter(|l| !l.ends_with("\tcustom") && !l.ends_with("\tany"))
        // The document's identity keys are read before decoding.
        .filter(|l| !["apiVersion", "kind", "version"].contains(&l.split('\t').nth(1).unwrap_or("")))
        .map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let (kind, path, declared, deref, go_kind, text) = (cols[0], cols[1], cols[2], cols[3], cols[4], cols[5]);
            // go-yaml refuses any collection for a TextUnmarshaler before following pointers;
            // otherwise it names the type it reached.
            let (value, want) = if text == "text" {
                ("[]", format!("cannot construct !!seq into {declared} (TextUnmarshaler)"))
            } else if go_kind == "slice" {
                ("{}", format!("cannot construct !!map into {deref}"))
            } else {
                ("[]", format!("cannot construct !!seq into {deref}"))
            };
            Probe { kind: kind.to_string(), path: path.to_string(), value, want }
        })
        .collect()
}

/// The path as nested flow YAML around `value` (`a.b[].c{}` is `{a: {b: [{c: {k: V}}]}}`).
fn nest(path: &str, value: &str) -> String {
    let mut steps = Vec::new();
    for segment in path.split('.') {
        let name = segment.trim_end_matches(['[', ']', '{', '}']);
        if !name.is_empty() {
            steps.push(format!("\"{name}\""));
        }
        let mut rest = &segment[name.len()..];
        while !rest.is_empty() {
            steps.push(rest[..2].to_string());
            rest = &rest[2..];
        }
    }
    let mut out = value.to_string();
    for step in steps.iter().rev() {
        out = match step.as_str() {
            "[]" => format!("[{out}]"),
            "{}" => format!("{{\"k\": {out}}}"),
            key => format!("{{{key}: {out}}}"),
        };
    }
    out
}

fn document(probe: &Probe) -> String {
    let (api, kind) = probe.kind.split_once('/').expect("kind column is apiVersion/kind");
    let body = nest(&probe.path, probe.value);
    let body = &body[1..body.len() - 1];
    if kind == "MachineConfig" {
        format!("{{\"version\": \"v1alpha1\", {body}}}")
    } else {
        format!("{{\"apiVersion\": \"{api}\", \"kind\": \"{kind}\", {body}}}")
    }
}

#[test]
fn nesting_builds_the_path() {
    assert_eq!(nest("a.b[].c{}", "[]"), r#"{"a": {"b": [{"c": {"k": []}}]}}"#);
}

#[test]
fn every_field_names_its_go_type() {
    let probes = probes();
    assert!(probes.len() > 800, "the table lost rows: {}", probes.len());
    let mut differ = Vec::new();
    for probe in &probes {
        let doc = document(probe);
        let got = match Config::from_bytes(doc.as_bytes()) {
            Ok(_) => "accepted".to_string(),
            Err(e) => match e.message().split_once(": yaml: construct errors:\n") {
                Some((_, list)) => list.to_string(),
                None => e.message().to_string(),
            },
        };
        let want = format!("  line 1: {}", probe.want);
        if got != want {
            differ.push(format!("{} {}:\n  want {want:?}\n  got  {got:?}", probe.kind, probe.path));
        }
    }
    assert!(differ.is_empty(), "{} of {} probes differ:\n{}", differ.len(), probes.len(), differ.join("\n"));
}

/// Per kind (`Kind` as registered; the legacy document is `v1alpha1`), the YAML paths of its
/// struct fields in the Go table.
fn go_field_sets() -> BTreeMap<String, BTreeSet<String>> {
    let mut sets: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in TABLE.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let mut cols = line.split('\t');
        let (kind, path) = (cols.next().unwrap(), cols.next().unwrap());
        let kind = kind.split_once('/').unwrap().1;
        let kind = if kind == "MachineConfig" { "v1alpha1" } else { kind };
        let set = sets.entry(kind.to_string()).or_default();
        if !path.ends_with(']') && !path.ends_with('}') {
            set.insert(path.to_string());
        }
    }
    sets
}

#[test]
fn every_kind_has_the_go_field_set() {
    let go = go_field_sets();
    assert_eq!(go.len(), 45, "kinds in the table");
    let mut differ = Vec::new();
    for (kind, want) in &go {
        let entry = talos_config::testing::lookup(kind).unwrap_or_else(|| panic!("{kind} is not registered"));
        let ours: BTreeSet<String> = (entry.schema_paths)().into_iter().collect();
        for missing in want.difference(&ours) {
            differ.push(format!("{kind}: Talos has {missing}, the model does not"));
        }
        for extra in ours.difference(want) {
            differ.push(format!("{kind}: the model has {extra}, Talos does not"));
        }
    }
    assert!(differ.is_empty(), "{} differences:\n{}", differ.len(), differ.join("\n"));
}
