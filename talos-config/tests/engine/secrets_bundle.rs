//! The secrets bundle (`talos_config::generate`): bundles talosctl v1.13.9 wrote read and written
//! back byte for byte, the bundle of a control-plane config, and Talos's load errors (issue 27,
//! first part; every expected text recorded from talosctl v1.13.9).

use std::path::Path;

use talos_config::Config;
use talos_config::generate::SecretsBundle;

fn data(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data/secrets").join(name)).unwrap()
}

#[test]
fn bundles_talosctl_wrote_round_trip_byte_for_byte() {
    for name in ["generated-v1.13.yaml", "generated-v1.2.yaml", "from-controlplane-fixture.yaml"] {
        let text = data(name);
        let bundle = SecretsBundle::from_yaml(&text).unwrap();
        assert_eq!(bundle.to_yaml(), String::from_utf8(text).unwrap(), "{name}");
    }
    let v12 = SecretsBundle::from_yaml(&data("generated-v1.2.yaml")).unwrap();
    let secrets = v12.secrets.unwrap();
    assert!(secrets.secretbox_encryption_secret.is_empty() && !secrets.aescbc_encryption_secret.is_empty());
}

#[test]
fn the_bundle_of_a_control_plane_config_is_talosctls() {
    let config = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/controlplane.yaml")).unwrap();
    let bundle = SecretsBundle::from_config(&Config::from_bytes(&config).unwrap()).unwrap();
    assert_eq!(bundle.to_yaml(), String::from_utf8(data("from-controlplane-fixture.yaml")).unwrap());
}

#[test]
fn a_config_without_sections_gives_empty_ones() {
    let config = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: controlplane\n").unwrap();
    assert_eq!(
        SecretsBundle::from_config(&config).unwrap().to_yaml(),
        "cluster:\n    id: \"\"\n    secret: \"\"\nsecrets:\n    bootstraptoken: .\ntrustdinfo:\n    token: \"\"\ncerts:\n    etcd: null\n    k8s: null\n    k8saggregator: null\n    k8sserviceaccount: null\n    os: null\n"
    );
    let only_kinds = Config::from_bytes(b"apiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n").unwrap();
    assert_eq!(SecretsBundle::from_config(&only_kinds), None);
}

#[test]
fn load_errors_are_talos_texts_and_unknown_keys_are_ignored() {
    let cases: [(&[u8], &str); 4] = [
        (b"", "EOF"),
        (b"cluster: [\n", "yaml: while parsing a flow node at line 1: did not find expected node content"),
        (b"cluster: [1]\n", "yaml: construct errors:\n  line 1: cannot construct !!seq into secrets.Cluster"),
        (
            b"certs:\n    os:\n        crt: \"!!\"\n",
            "yaml: construct errors:\n  line 3: illegal base64 data at input byte 0",
        ),
    ];
    for (text, error) in cases {
        assert_eq!(SecretsBundle::from_yaml(text).unwrap_err().to_string(), error);
    }
    let bundle = SecretsBundle::from_yaml(b"cluster:\n    id: x\n    extra: 1\nunknown: 2\n").unwrap();
    assert_eq!(bundle.cluster.map(|c| c.id).as_deref(), Some("x"));
}
