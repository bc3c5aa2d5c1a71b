//! siderolabs/crypto's PEM types as Talos v1.13.9 decodes them (issue 26, items 1 and 2): a key
//! that reads `******` (a redacted config, as Omni and `talosctl get mc` write it) is kept as is,
//! and decode errors name the anonymous struct crypto's `UnmarshalYAML` decodes into. Every
//! expected text was recorded from Talos v1.13.9's own code (`talosctl validate` and
//! `talosctl machineconfig patch`).

use talos_config::{
    CheckOptions, Config, DocumentId, FieldPath, Mode, Options, PatchSource, apply_patches, check, load_patches,
};

/// Every key field of the legacy document redacted, as a redacted control-plane config has them.
const REDACTED: &str = "version: v1alpha1
machine:
  type: controlplane
  ca:
    crt: \"\"
    key: '******'
  registries:
    config:
      reg.example:
        tls:
          clientIdentity:
            crt: \"\"
            key: '******'
cluster:
  controlPlane:
    endpoint: https://1.2.3.4:6443
  ca:
    crt: \"\"
    key: '******'
  aggregatorCA:
    crt: \"\"
    key: '******'
  serviceAccount:
    key: '******'
  etcd:
    ca:
      crt: \"\"
      key: '******'
";

#[test]
fn a_redacted_config_is_valid_and_merges_with_its_markers_kept() {
    let config = Config::from_bytes(REDACTED.as_bytes()).unwrap();
    // talosctl validate: `is valid for cloud mode`.
    let report = config.validate(Mode::Cloud, Options::default());
    assert_eq!((report.error, report.warnings), (None, Vec::<String>::new()));
    let patches = load_patches([PatchSource::new("labels", "machine: {nodeLabels: {a: b}}")]).unwrap();
    let merged = apply_patches(REDACTED.as_bytes(), &patches).unwrap();
    assert_eq!(
        String::from_utf8(merged).unwrap(),
        "version: v1alpha1
machine:
    type: controlplane
    token: \"\"
    ca:
        crt: \"\"
        key: '******'
    certSANs: []
    registries:
        config:
            reg.example:
                tls:
                    clientIdentity:
                        crt: \"\"
                        key: '******'
    nodeLabels:
        a: b
cluster:
    controlPlane:
        endpoint: https://1.2.3.4:6443
    ca:
        crt: \"\"
        key: '******'
    aggregatorCA:
        crt: \"\"
        key: '******'
    serviceAccount:
        key: '******'
    etcd:
        ca:
            crt: \"\"
            key: '******'
"
    );
    let key = config.value(&DocumentId::legacy(), &FieldPath::parse("cluster.serviceAccount.key"));
    assert_eq!(key.as_deref(), Some("******"));
}

#[test]
fn a_patch_that_redacts_a_key_also_clears_the_certificate() {
    // crypto's `UnmarshalYAML` decodes an absent `crt` as the empty text, base64 of which is an
    // empty (not nil) slice: the merge then overwrites the base's certificate with it.
    let base = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/controlplane.yaml")).unwrap();
    let patches = load_patches([PatchSource::new("p1.yaml", "machine:\n  ca:\n    key: \"******\"\n")]).unwrap();
    let merged = String::from_utf8(apply_patches(&base, &patches).unwrap()).unwrap();
    let before = Config::from_bytes(&base).unwrap().encode();
    let at = before.find("\n    ca:\n").unwrap() + "\n    ca:\n".len();
    let end = at + before[at..].find("\n    certSANs:").unwrap();
    let expected = format!("{}        crt: \"\"\n        key: '******'{}", &before[..at], &before[end..]);
    assert_eq!(merged, expected);
}

#[test]
fn only_a_key_may_be_redacted() {
    // crypto reads `******` literally only in `key`; a certificate goes through base64.
    for config in [
        "version: v1alpha1\nmachine: {type: worker, ca: {crt: \"******\"}}\n",
        "version: v1alpha1\nmachine: {type: worker, acceptedCAs: [{crt: \"******\"}]}\n",
        "version: v1alpha1\nmachine: {type: worker, ca: {key: \"*****\"}}\n",
    ] {
        assert_eq!(
            Config::from_bytes(config.as_bytes()).unwrap_err().to_string(),
            "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: construct errors:\n  line 2: illegal base64 data at input byte 0",
            "{config}"
        );
    }
}

#[test]
fn decode_errors_name_cryptos_helper_structs() {
    let cases = [
        (
            "machine: {type: worker, ca: bad}",
            r#"line 2: cannot construct !!str `bad` into struct { Crt string "yaml:\"crt\""; Key string "yaml:\"key\"" }"#,
        ),
        (
            "machine: {type: worker, ca: [1]}",
            r#"line 2: cannot construct !!seq into struct { Crt string "yaml:\"crt\""; Key string "yaml:\"key\"" }"#,
        ),
        (
            "machine: {type: worker, acceptedCAs: [bad]}",
            r#"line 2: cannot construct !!str `bad` into struct { Crt string "yaml:\"crt\"" }"#,
        ),
        (
            "cluster: {serviceAccount: bad}",
            r#"line 2: cannot construct !!str `bad` into struct { Key string "yaml:\"key\"" }"#,
        ),
        // The strings first: their errors end the mapping before any base64 is read.
        ("machine: {type: worker, ca: {crt: \"!!\", key: [1]}}", "line 2: cannot construct !!seq into string"),
        (
            "machine: {type: worker, ca: {crt: [1], key: {a: 1}}}",
            "line 2: cannot construct !!seq into string\n  line 2: cannot construct !!map into string",
        ),
    ];
    for (body, error) in cases {
        let config = format!("version: v1alpha1\n{body}\n");
        assert_eq!(
            Config::from_bytes(config.as_bytes()).unwrap_err().to_string(),
            format!(
                "error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: construct errors:\n  {error}"
            ),
            "{body}"
        );
    }
}

#[test]
fn a_redaction_marker_is_no_secret_in_a_patch() {
    let base = PatchSource::new("cp.yaml", REDACTED);
    let patch = PatchSource::new("p.yaml", "cluster:\n  ca:\n    key: '******'\n");
    let options = CheckOptions { checks: talos_config::Checks::Lint, mode: Mode::Cloud, ..CheckOptions::default() };
    let checked = check(&base, &[patch], &options).unwrap();
    assert_eq!(checked.diagnostics(), []);
}
