//! `talos_config::check`, the front door: what each group of checks reports, in which order, at
//! which input line, and that the merged bytes are `talosctl machineconfig patch`'s.

use std::path::Path;

use talos_config::{
    CheckOptions, Checked, Checks, Config, DocumentId, ErrorKind, FieldPath, Mode, PatchSource, Severity,
    apply_patches, check, load_patches,
};

fn fixture(name: &str) -> PatchSource {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(name);
    PatchSource::new(format!("fixtures/{name}"), std::fs::read(path).unwrap())
}

fn run(base: &str, patches: &[&str], checks: Checks) -> Checked {
    let patches: Vec<PatchSource> = patches.iter().map(|p| fixture(p)).collect();
    let options = CheckOptions { checks, ..CheckOptions::default() };
    check(&fixture(base), &patches, &options).unwrap()
}

/// Every diagnostic's `Display`, then its document, field and fix.
fn render(checked: &Checked) -> String {
    let mut out = String::new();
    for d in checked.diagnostics() {
        out.push_str(&format!("{d}\n"));
        let document = d.document().map_or_else(|| "-".to_string(), ToString::to_string);
        let field = d.field().map_or_else(|| "-".to_string(), ToString::to_string);
        out.push_str(&format!("  {document} {field}\n"));
        if let Some(fix) = d.fix() {
            out.push_str(&format!("  fix: {fix}\n"));
        }
    }
    out
}

#[test]
fn the_lab_step7_patch_is_one_validation_error_at_its_line() {
    let checked = run("worker.yaml", &["07-bad.yaml"], Checks::Validation);
    assert_eq!(
        render(&checked),
        "fixtures/07-bad.yaml:3:5: error[talos-validation]: name \"team name\" is invalid\n  v1alpha1 machine.nodeLabels[\"lab.talos.dev/team name\"]\n"
    );
    assert!(checked.has_errors());
    assert_eq!((checked.count(Severity::Error), checked.count(Severity::Warning)), (1, 0));
    // Talos's whole text is there too, as a node answers it.
    let report = checked.validation().unwrap();
    assert_eq!(
        report.error.as_ref().unwrap().to_string(),
        "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* invalid machine node labels: 1 error occurred:\n\t* name \"team name\" is invalid\n\n\n\n\n\n"
    );
}

#[test]
fn merged_bytes_are_talosctl_patch_output() {
    for checks in [Checks::MergeOnly, Checks::Validation, Checks::Lint] {
        let checked = run("worker.yaml", &["05-labels.yaml", "06-canary.yaml"], checks);
        let patches = load_patches([fixture("05-labels.yaml"), fixture("06-canary.yaml")]).unwrap();
        let expected = apply_patches(&fixture("worker.yaml").bytes, &patches).unwrap();
        assert_eq!(checked.merged(), Some(expected.as_slice()), "{checks:?}");
        assert_eq!(checked.merge_error(), None);
        assert_eq!(render(&checked), "", "{checks:?}");
    }
}

#[test]
fn merge_only_decodes_and_validates_nothing() {
    let checked = run("worker.yaml", &["07-bad.yaml"], Checks::MergeOnly);
    assert!(checked.merged().is_some());
    assert!(checked.config().is_none());
    assert!(checked.validation().is_none());
    assert_eq!(checked.diagnostics(), []);
}

#[test]
fn lint_adds_the_rules_after_talos_validation() {
    let checked = run("worker.yaml", &["07-bad.yaml", "08-kubelet.yaml"], Checks::Lint);
    insta::assert_snapshot!("check_lint_step7_step8", render(&checked));
    let rules: Vec<&str> = checked.diagnostics().iter().map(|d| d.rule()).collect();
    assert_eq!(rules, ["talos-validation", "kubelet-unknown-flag"]);
    let kubelet = &checked.diagnostics()[1];
    assert_eq!(kubelet.site().unwrap().to_string(), "fixtures/08-kubelet.yaml:4:7");
    // Without lint, only Talos's own error.
    let validation = run("worker.yaml", &["07-bad.yaml", "08-kubelet.yaml"], Checks::Validation);
    assert_eq!(validation.diagnostics(), &checked.diagnostics()[..1]);
}

#[test]
fn a_patch_that_does_not_apply_is_one_merge_diagnostic() {
    let checked = run("worker.yaml", &["08-fix.yaml"], Checks::Lint);
    assert_eq!(
        render(&checked),
        "fixtures/08-fix.yaml:1:1: error[talos-merge]: patch delete: path 'machine.kubelet.extraArgs.max-pod' in document '/v1alpha1': failed to delete path 'machine.kubelet.extraArgs.max-pod': lookup failed\n  - -\n  fix: fix the input named here as the message says; nothing else was checked\n"
    );
    let err = checked.merge_error().unwrap();
    assert_eq!(err.kind(), ErrorKind::Delete);
    assert_eq!((err.input(), err.line(), err.column()), (Some("fixtures/08-fix.yaml"), None, None));
    assert!(checked.merged().is_none() && checked.config().is_none() && checked.validation().is_none());
}

#[test]
fn a_patch_that_does_not_load_points_at_its_line() {
    let base = fixture("worker.yaml");
    let bad = PatchSource::new("bad.yaml", "machine:\n  kubelet:\n    extraArgz: {}\n");
    let checked = check(&base, &[bad], &CheckOptions::default()).unwrap();
    assert_eq!(
        checked.diagnostics()[0].to_string(),
        "bad.yaml:3:5: error[talos-merge]: error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    kubelet:\n        extraArgz: {}\n"
    );
    assert_eq!(checked.merge_error().map(|e| e.kind()), Some(ErrorKind::PatchLoad));
}

#[test]
fn a_base_that_does_not_load_is_named() {
    let base = PatchSource::new("node.yaml", "version: v1alpha1\nmachine:\n  type: [\n");
    let checked = check(&base, &[], &CheckOptions::default()).unwrap();
    let d = &checked.diagnostics()[0];
    assert_eq!((d.rule(), d.site().map(|s| s.input.to_string())), ("talos-merge", Some("node.yaml".to_string())));
    assert_eq!(checked.merge_error().map(|e| e.kind()), Some(ErrorKind::Decode));
}

#[test]
fn strict_turns_v1alpha1_warnings_into_talos_errors() {
    let base = fixture("controlplane.yaml");
    let patch = PatchSource::new("cni.yaml", "cluster:\n  network:\n    cni:\n      name: custom\n");
    let lenient = check(&base, std::slice::from_ref(&patch), &CheckOptions::default()).unwrap();
    assert_eq!(
        render(&lenient),
        // `urls` is not written: the site is the closest value the patch set, `cni`.
        "cni.yaml:3:5: warning[talos-warning]: \"urls\" field should not be empty for \"custom\" CNI\n  v1alpha1 cluster.network.cni.urls\n"
    );
    let strict = check(&base, &[patch], &CheckOptions { strict: true, ..CheckOptions::default() }).unwrap();
    insta::assert_snapshot!("check_strict", render(&strict));
    assert_eq!(strict.count(Severity::Warning), 0);
}

#[test]
fn a_value_no_input_wrote_still_names_its_document_and_field() {
    let base = PatchSource::new("node.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
    let checked = check(&base, &[], &CheckOptions { mode: Mode::Container, ..CheckOptions::default() }).unwrap();
    let host_dns =
        checked.diagnostics().iter().find(|d| d.message().starts_with("feature HostDNS should be enabled")).unwrap();
    assert_eq!(host_dns.document(), Some(&DocumentId::legacy()));
    assert_eq!(host_dns.field(), Some(&FieldPath::parse("machine.features.hostDNS.enabled")));
    // The closest value an input wrote: `machine`.
    assert_eq!(host_dns.site().unwrap().to_string(), "node.yaml:2:1");
}

#[test]
fn new_style_documents_are_named_by_kind_and_name() {
    let base = fixture("worker.yaml");
    let patch = PatchSource::new(
        "vip.yaml",
        "apiVersion: v1alpha1\nkind: HCloudVIPConfig\nname: vip1\nlink: \"\"\napiToken: \"\"\n",
    );
    let checked = check(&base, &[patch], &CheckOptions::default()).unwrap();
    insta::assert_snapshot!("check_new_style_document", render(&checked));
    let link = checked.diagnostics().iter().find(|d| d.message() == "link must be specified").unwrap();
    assert_eq!(link.document(), Some(&DocumentId::new("HCloudVIPConfig", Some("vip1"))));
    assert_eq!(link.field().unwrap().to_string(), "link");
}

#[test]
fn the_checked_config_is_the_merged_one() {
    let checked = run("worker.yaml", &["05-labels.yaml"], Checks::Validation);
    let config = checked.config().unwrap();
    let merged = Config::from_bytes(checked.merged().unwrap()).unwrap();
    assert_eq!(config.encode(), merged.encode());
    let label = FieldPath::parse("machine.nodeLabels");
    assert_eq!(config.value(&DocumentId::legacy(), &label), merged.value(&DocumentId::legacy(), &label));
}

/// A merge that works but whose result does not load: the bytes are kept, and the first patch
/// after which the result no longer loads is blamed, at no line (the text that failed is the
/// engine's output, no input's).
#[test]
fn merged_bytes_that_do_not_load_blame_the_patch_that_broke_them() {
    let base = PatchSource::new("base.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
    let ok = PatchSource::new("ok.yaml", "machine:\n  nodeLabels:\n    a: b\n");
    let typo = PatchSource::new("typo.json", r#"[{"op": "add", "path": "/machine/typo", "value": 1}]"#);
    let harmless = PatchSource::new("later.json", r#"[{"op": "add", "path": "/machine/nodeLabels/c", "value": "d"}]"#);
    let inputs = [ok, typo, harmless];
    let checked = check(&base, &inputs, &CheckOptions::default()).unwrap();
    insta::assert_snapshot!("check_merged_but_not_loading", render(&checked));
    let err = checked.merge_error().unwrap();
    assert_eq!((err.kind(), err.input(), err.line()), (ErrorKind::Decode, Some("typo.json"), None));
    // `talosctl machineconfig patch` prints these bytes; only loading them fails.
    let patches = load_patches(inputs.iter().cloned()).unwrap();
    assert_eq!(checked.merged(), Some(apply_patches(&base.bytes, &patches).unwrap().as_slice()));
    assert!(checked.config().is_none() && checked.validation().is_none());
}

#[test]
fn a_patch_deleting_every_document_is_blamed() {
    let base = PatchSource::new("base.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
    let delete = PatchSource::new("delete.yaml", "apiVersion: v1alpha1\nkind: v1alpha1\n$patch: delete\n");
    let checked = check(&base, &[delete], &CheckOptions::default()).unwrap();
    // The selector matches no document (the legacy one has no `kind:`): Talos appends it, and
    // the result does not load. Talos's text names a line of the merged text, not of an input.
    assert_eq!(
        render(&checked),
        "delete.yaml:1:1: error[talos-merge]: duplicate document /v1alpha1/ is not allowed (line 8)\n  v1alpha1 -\n  fix: the merged config does not load (Talos would refuse it): fix the value named here\n"
    );
    assert_eq!(checked.merge_error().map(|e| e.line()), Some(None));
}

#[test]
fn a_named_kind_with_an_empty_name_is_named_by_its_kind() {
    let base = fixture("worker.yaml");
    let link = PatchSource::new("link.yaml", "apiVersion: v1alpha1\nkind: LinkConfig\nname: \"\"\n");
    let checked = check(&base, &[link], &CheckOptions::default()).unwrap();
    insta::assert_snapshot!("check_empty_name", render(&checked));
    assert!(checked.diagnostics().iter().all(|d| d.document() == Some(&DocumentId::new("LinkConfig", None))));
}

#[test]
fn lint_findings_come_in_the_order_of_the_rules() {
    let patch = PatchSource::new(
        "many.yaml",
        "machine:\n  certSANs: [\"https://x:6443\"]\n  kubelet:\n    extraArgs:\n      max-pod: \"1\"\n  files:\n    - content: x\n      path: /etc/x\n      op: create\ncluster:\n  secretboxEncryptionSecret: c2VjcmV0\n  network:\n    podSubnets: [10.0.0.0/8]\n    serviceSubnets: [10.96.0.0/12]\n  apiServer:\n    extraArgs:\n      etcd-servers: x\n",
    );
    let options = CheckOptions { checks: Checks::Lint, ..CheckOptions::default() };
    let checked = check(&fixture("controlplane.yaml"), &[patch], &options).unwrap();
    let order: Vec<&str> = talos_config::lint::rules().iter().map(|r| r.id).collect();
    let found: Vec<usize> =
        checked.diagnostics().iter().map(|d| order.iter().position(|id| *id == d.rule()).unwrap()).collect();
    let mut sorted = found.clone();
    sorted.sort();
    assert_eq!(found, sorted, "{}", render(&checked));
    let mut rules: Vec<&str> = checked.diagnostics().iter().map(|d| d.rule()).collect();
    rules.dedup();
    assert_eq!(
        rules,
        [
            "kubelet-unknown-flag",
            "subnet-overlap",
            "extra-args-denied",
            "files",
            "endpoint-certsans",
            "secret-in-patch"
        ]
    );
}

#[test]
fn a_base_that_does_not_load_is_blamed_even_behind_a_json6902_patch() {
    // A JSON6902 step works on the text, so the base's own error shows only once the result is
    // loaded: it is still the base's, at its own line.
    let base = PatchSource::new("base.yaml", "version: v1alpha1\nmachine:\n  type: worker\n  typo: 1\n");
    let patch =
        PatchSource::new("labels.json", r#"[{"op": "add", "path": "/machine/nodeLabels", "value": {"a": "b"}}]"#);
    let checked = check(&base, &[patch], &CheckOptions::default()).unwrap();
    assert_eq!(
        render(&checked),
        "base.yaml:4:3: error[talos-merge]: error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    typo: 1\n\n  - -\n  fix: fix the input named here as the message says; nothing else was checked\n"
    );
}
