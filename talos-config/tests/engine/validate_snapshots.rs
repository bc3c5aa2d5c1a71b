//! Snapshots of whole-config validation: the lab's step-7 rejection reproduced offline, and a
//! realistic config with several errors at once (text as a node returns it, then the fields).

use talos_config::{Config, PatchSource, apply_patches, load_patches};
use talos_config::{Mode, Options, Report};

fn fixture(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The base fixture with patches applied, validated in container mode (as the lab's nodes).
fn validate_patched(base: &str, patches: &[&str]) -> Report {
    let sources = patches.iter().enumerate().map(|(i, p)| PatchSource::new(format!("p{i}"), *p));
    let merged = apply_patches(&fixture(base), &load_patches(sources).expect("patches load")).expect("patches apply");
    Config::from_bytes(&merged).expect("merged config loads").validate(Mode::Container, Options::default())
}

/// Talos's text, then one `path: message` line per problem.
fn render(report: &Report) -> String {
    let mut out = String::new();
    for w in &report.warnings {
        out.push_str(&format!("WARNING: {w}\n"));
    }
    match &report.error {
        None => out.push_str("valid\n"),
        Some(err) => {
            out.push_str(&err.to_string());
            out.push_str("---- fields ----\n");
            for (path, message) in crate::common::fields_of(&err.diagnostics()) {
                out.push_str(&format!("{}: {message}\n", path.as_deref().unwrap_or("-")));
            }
        }
    }
    out
}

#[test]
fn step7_label_with_a_space() {
    let patch = String::from_utf8(fixture("07-bad.yaml")).unwrap();
    let report = validate_patched("worker.yaml", &[&patch]);
    let err = report.error.as_ref().expect("rejected");
    assert_eq!(
        err.to_string(),
        "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* invalid machine node labels: 1 error occurred:\n\t* name \"team name\" is invalid\n\n\n\n\n\n"
    );
    assert_eq!(
        crate::common::fields_of(&err.diagnostics()),
        vec![(
            Some(r#"machine.nodeLabels["lab.talos.dev/team name"]"#.to_string()),
            "name \"team name\" is invalid".to_string()
        )]
    );
    insta::assert_snapshot!(render(&report));
}

#[test]
fn several_errors_at_once() {
    let report = validate_patched(
        "controlplane.yaml",
        &[
            "machine:\n  nodeLabels:\n    Bad.Prefix/x: ok\n    good: \"not ok\"\n  nodeTaints:\n    dedicated: gpu:NoWhere\n  network:\n    hostname: cp-1\ncluster:\n  network:\n    dnsDomain: \"bad domain\"\n",
            "apiVersion: v1alpha1\nkind: StaticHostConfig\nname: not-an-ip\n",
        ],
    );
    insta::assert_snapshot!(render(&report));
}

#[test]
fn fixtures_are_valid_in_container_mode() {
    for name in ["worker.yaml", "controlplane.yaml"] {
        let report = Config::from_bytes(&fixture(name)).unwrap().validate(Mode::Container, Options::default());
        assert_eq!(report, Report::default(), "{name}");
    }
}
