//! `labctl schema` (issue 28): the JSON Schema, checked by validators we did not write (boon,
//! draft 2020-12, in process; and `check-jsonschema` from PyPI when `CHECK_JSONSCHEMA` names it,
//! as `.ci/run` does) over every config of Talos's own test data that Talos loads (no false
//! error), and against a table of bad documents (each refused).

use std::path::{Path, PathBuf};

use serde_json::Value;
use talos_yaml::NodeValue;
use talos_yaml::resolve::{Resolved, resolve_v4};

fn labctl(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_labctl")).args(args).output().expect("labctl runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The schema `labctl schema` prints, compiled.
fn compiled(args: &[&str]) -> (boon::Schemas, boon::SchemaIndex) {
    let out = labctl(&[&["schema"], args].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (mut schemas, mut compiler) = (boon::Schemas::new(), boon::Compiler::new());
    compiler.add_resource("file:///talos.json", schema).unwrap();
    let index = compiler.compile("file:///talos.json", &mut schemas).unwrap();
    (schemas, index)
}

/// A YAML document as JSON, scalars resolved as go-yaml v4 resolves them.
fn json(node: &talos_yaml::Node) -> Value {
    match &node.value {
        NodeValue::Scalar(s) if s.style != talos_yaml::ScalarStyle::Plain || node.tag.is_some() => {
            Value::String(s.text.clone())
        }
        NodeValue::Scalar(s) => match resolve_v4(&s.text) {
            Resolved::Null => Value::Null,
            Resolved::Bool(b) => Value::Bool(b),
            Resolved::Int(i) => serde_json::from_str(&i).unwrap_or(Value::String(i)),
            Resolved::Float(f) => serde_json::Number::from_f64(f).map_or(Value::String(s.text.clone()), Value::Number),
            _ => Value::String(s.text.clone()),
        },
        NodeValue::Sequence(items, _) => Value::Array(items.iter().map(json).collect()),
        NodeValue::Mapping(entries, _) => Value::Object(
            entries.iter().map(|(k, v)| (k.as_scalar().map(|s| s.text.clone()).unwrap_or_default(), json(v))).collect(),
        ),
    }
}

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries {
        let path = entry.unwrap().path();
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            out.push(path);
        }
    }
}

/// Every config of Talos's test data (`types/*/testdata`, the loader's and the patcher's) that
/// Talos loads validates, document by document.
#[test]
fn every_config_talos_loads_validates() {
    let Some(peer) = std::env::var_os("TALOS_PEER_DIR").map(PathBuf::from) else {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "TALOS_PEER_DIR is not set under CI=true");
        eprintln!("note: TALOS_PEER_DIR is not set: the schema's conformance test did not run");
        return;
    };
    let peer = if peer.is_absolute() { peer } else { Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(peer) };
    // Every release's data (the others next to the default release's), with its schema.
    for &release in talos_config::Release::ALL {
        let dir = match release {
            talos_config::Release::DEFAULT => peer.clone(),
            other => peer.parent().unwrap().join(format!("talos-{other}")),
        };
        assert!(dir.is_dir() || std::env::var("CI").as_deref() != Ok("true"), "{} is missing", dir.display());
        if dir.is_dir() {
            peer_configs_validate(&dir, release);
        }
    }
}

/// Every config of one release's peer data that the release loads validates against that
/// release's schema.
fn peer_configs_validate(peer: &Path, release: talos_config::Release) {
    let tag = release.to_string();
    let (schemas, index) = compiled(&["--talos-release", &tag]);
    let mut files = Vec::new();
    yaml_files(peer, &mut files);
    files.extend([Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/controlplane.yaml")]);
    let (mut checked, mut failures) = (0, Vec::new());
    let as_json = tempfile::tempdir().unwrap();
    for file in files {
        let bytes = std::fs::read(&file).unwrap();
        if talos_config::Config::from_bytes_for(&bytes, release).is_err() {
            continue;
        }
        for doc in talos_yaml::parse::parse_documents(&bytes).unwrap() {
            checked += 1;
            let doc = json(&doc);
            if let Err(e) = schemas.validate(&doc, index) {
                failures.push(format!("{}: {e:#}", file.display()));
            }
            std::fs::write(as_json.path().join(format!("{checked}.json")), doc.to_string()).unwrap();
        }
    }
    check_jsonschema(as_json.path(), &tag);
    eprintln!("schema: {checked} documents of Talos {tag}'s test data validated");
    assert!(checked >= 100, "only {checked} documents");
    assert!(failures.is_empty(), "{} of {checked} documents refused:\n{}", failures.len(), failures.join("\n"));
}

/// `check-jsonschema` (PyPI) over the documents written as JSON in `dir`, when `CHECK_JSONSCHEMA`
/// names it (required under `CI=true`).
fn check_jsonschema(dir: &Path, release: &str) {
    let Some(program) = std::env::var_os("CHECK_JSONSCHEMA") else {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CHECK_JSONSCHEMA is not set under CI=true");
        eprintln!("note: CHECK_JSONSCHEMA is not set: the schema was checked with boon only");
        return;
    };
    let schema = dir.join("schema.json");
    std::fs::write(&schema, labctl(&["schema", "--talos-release", release]).stdout).unwrap();
    let mut documents: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    documents.retain(|p| p != &schema);
    let out = std::process::Command::new(program).arg("--schemafile").arg(&schema).args(&documents).output().unwrap();
    assert!(out.status.success(), "check-jsonschema:\n{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(text(&out.stdout), "ok -- validation done\n");
}

/// Unknown keys, wrong types and bad enum values are refused; the patch schema takes
/// `$patch: delete`, the config schema does not.
#[test]
fn bad_documents_are_refused() {
    let (config, config_index) = compiled(&[]);
    let (patch, patch_index) = compiled(&["--patch"]);
    let check = |text: &str, patch_flavour: bool| -> bool {
        let doc = talos_yaml::parse::parse_documents(text.as_bytes()).unwrap().remove(0);
        let (schemas, index) = if patch_flavour { (&patch, patch_index) } else { (&config, config_index) };
        schemas.validate(&json(&doc), index).is_ok()
    };
    let cases = [
        ("version: v1alpha1\nmachine:\n  type: worker\n", true),
        ("version: v1alpha1\nmachine:\n  tpye: worker\n", false),
        ("version: v1alpha1\nmachine:\n  certSANs: a\n", false),
        ("version: v1alpha1\nmachine:\n  kubelet:\n    image: 5\n", true),
        // go-yaml takes YAML 1.1's `yes` for a bool, but not a quoted "true" (recorded with talosctl).
        ("version: v1alpha1\nmachine:\n  install:\n    wipe: yes\n", true),
        ("version: v1alpha1\nmachine:\n  install:\n    wipe: \"true\"\n", false),
        ("version: v1alpha1\nmachine:\n  install:\n    wipe: maybe\n", false),
        // An integral float goes into an int, 7445.5 does not (recorded with talosctl).
        ("version: v1alpha1\nmachine:\n  features:\n    kubePrism:\n      port: 7445.0\n", true),
        ("version: v1alpha1\nmachine:\n  features:\n    kubePrism:\n      port: 7445.5\n", false),
        ("apiVersion: v1alpha1\nkind: HostnameConfig\nauto: Stable\n", true),
        ("apiVersion: v1alpha1\nkind: HostnameConfig\nauto: sometimes\n", false),
        ("apiVersion: v1alpha1\nkind: HostnameConfig\nhostnmae: x\n", false),
        ("apiVersion: v1alpha1\nkind: NoSuchConfig\n", false),
        ("version: v1alpha1\nmachine:\n  network:\n    $patch: delete\n", false),
        ("version: v1alpha1\ncluster:\n  adminKubeconfig:\n    certLifetime: 1h30m\n", true),
        ("version: v1alpha1\ncluster:\n  adminKubeconfig:\n    certLifetime: 0\n", true),
        ("version: v1alpha1\ncluster:\n  adminKubeconfig:\n    certLifetime: soon\n", false),
        ("version: v1alpha1\ncluster:\n  adminKubeconfig:\n    certLifetime: 5\n", false),
        ("version: v1alpha1\nmachine:\n  kubelet:\n    extraArgs:\n      feature-gates: [A=true, B=false]\n", true),
        ("version: v1alpha1\nmachine:\n  kubelet:\n    extraArgs:\n      max-pods: {a: b}\n", false),
    ];
    for (text, valid) in cases {
        assert_eq!(check(text, false), valid, "config schema: {text}");
    }
    assert!(check("version: v1alpha1\nmachine:\n  network:\n    $patch: delete\n", true));
}

/// What each release's schema takes: its kinds, fields and types (the answers recorded with
/// Talos v1.12.11's and v1.13.9's own code), and, in a patch, `key: {$patch: delete}` in any map;
/// `machine.type` only as validation takes it in every mode.
#[test]
fn each_release_has_its_schema() {
    let (v12, v12_index) = compiled(&["--talos-release", "v1.12"]);
    let (v13, v13_index) = compiled(&[]);
    let (v12_patch, v12_patch_index) = compiled(&["--patch", "--talos-release", "v1.12.11"]);
    let (v13_patch, v13_patch_index) = compiled(&["--patch"]);
    let valid = |schemas: &boon::Schemas, index: boon::SchemaIndex, text: &str| -> bool {
        let doc = talos_yaml::parse::parse_documents(text.as_bytes()).unwrap().remove(0);
        schemas.validate(&json(&doc), index).is_ok()
    };
    // (document, v1.12.11 takes it, v1.13.9 takes it)
    let cases = [
        ("apiVersion: v1alpha1\nkind: VRFConfig\nname: vrf-blue\ntable: 123\n", false, true),
        (
            "version: v1alpha1\ncluster:\n  network:\n    cni:\n      name: flannel\n      flannel:\n        kubeNetworkPoliciesEnabled: true\n",
            false,
            true,
        ),
        ("version: v1alpha1\nmachine:\n  kubelet:\n    extraArgs:\n      feature-gates: [A=true]\n", false, true),
        ("version: v1alpha1\nmachine:\n  kubelet:\n    extraArgs:\n      v: \"2\"\n", true, true),
        ("version: v1alpha1\nmachine:\n  time:\n    bootTimeout: 0\n", false, true),
        ("version: v1alpha1\nmachine:\n  time:\n    bootTimeout: 2m\n", true, true),
        ("version: v1alpha1\nmachine:\n  features:\n    kubePrism:\n      port: 7445.5\n", true, false),
        ("apiVersion: v1alpha1\nkind: UserVolumeConfig\nname: data\nfilesystem:\n  type: swap\n", true, false),
        ("apiVersion: v1alpha1\nkind: UserVolumeConfig\nname: data\nfilesystem:\n  type: swapi\n", false, true),
        ("apiVersion: v1alpha1\nkind: UserVolumeConfig\nname: data\nmount:\n  secure: true\n", false, true),
        ("version: v1alpha1\nmachine:\n  type: cowboy\n", false, false),
        ("version: v1alpha1\nmachine:\n  type: Worker\n", false, false),
        ("version: v1alpha1\nmachine:\n  type: join\n", true, true),
        ("version: v1alpha1\nmachine:\n  type: controlplane\n", true, true),
    ];
    for (text, in_v12, in_v13) in cases {
        assert_eq!(valid(&v12, v12_index, text), in_v12, "v1.12.11 schema: {text}");
        assert_eq!(valid(&v13, v13_index, text), in_v13, "v1.13.9 schema: {text}");
    }
    let deletes = [
        "machine:\n  nodeLabels:\n    node.kubernetes.io/exclude-from-external-load-balancers:\n      $patch: delete\n",
        "machine:\n  kubelet:\n    extraArgs:\n      rotate-server-certificates:\n        $patch: delete\n",
        "machine:\n  sysctls:\n    net.ipv4.ip_forward:\n      $patch: delete\n",
    ];
    for text in deletes {
        assert!(valid(&v12_patch, v12_patch_index, text), "v1.12.11 patch schema: {text}");
        assert!(valid(&v13_patch, v13_patch_index, text), "v1.13.9 patch schema: {text}");
        assert!(!valid(&v13, v13_index, &format!("version: v1alpha1\n{text}")), "config schema: {text}");
    }
    assert!(!valid(&v13_patch, v13_patch_index, "machine:\n  nodeLabels:\n    a:\n      $patch: keep\n"));
}
