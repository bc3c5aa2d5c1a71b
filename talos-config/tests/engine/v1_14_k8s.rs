//! The `types/k8s` kinds of Talos v1.14.0-rc.1: the recorded `k8s-` cases (replayed by
//! `releases.rs`), merging onto existing documents, redaction, and the validation texts the recorded
//! cases cannot reach (a config without a v1alpha1 document). Every expected text was printed by
//! the v1.14.0-rc.1 reference program, except redaction (it has no command for it): those follow
//! the peer `_redacted.yaml` files and upstream's `Redact` methods.

use std::path::Path;

use talos_config::{Config, Mode, Options, Patch, Release, apply_patches_for};

use crate::releases::{cases, data, read};

const V1_14: Release = Release::V1_14_0_RC1;

fn k8s_cases(dir: &Path) -> Vec<std::path::PathBuf> {
    cases(dir)
        .into_iter()
        .filter(|c| c.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("k8s-")))
        .collect()
}

/// The recorded `k8s-` cases are there (`releases.rs` replays them with every other recorded
/// case, as every release): 3 merges and 33 validations, which only v1.14 records (older
/// releases do not register the kinds).
#[test]
fn the_recorded_k8s_cases_are_there() {
    assert_eq!(k8s_cases(&data()).len(), 3, "the recorded k8s merge cases are missing");
    let validations = k8s_cases(&data().join("validate"));
    assert_eq!(validations.len(), 33, "the recorded k8s validation cases are missing");
    for case in &validations {
        assert!(read(&case.join(format!("{V1_14}.stderr"))).is_some(), "{}: nothing recorded", case.display());
    }
}

fn k8s_data(name: &str) -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engine/data/k8s").join(name)).unwrap()
}

fn patch(name: &str) -> String {
    let patches = [Patch::load_for(&k8s_data(name), V1_14).unwrap()];
    String::from_utf8(apply_patches_for(&k8s_data("merge-base.yaml"), &patches, V1_14).unwrap()).unwrap()
}

/// Merging onto existing documents: maps and `extraArgs` merge key by key, lists append, the
/// `merge:"replace"` fields (`podSubnets`, `configuration`, `pod`) are replaced, a named kind
/// merges only into the document of the same name, and a new name is appended.
#[test]
fn patches_merge_into_k8s_documents_as_talos_merges_them() {
    assert_eq!(patch("merge-patch.yaml"), String::from_utf8(k8s_data("merge-patch.expected.yaml")).unwrap());
}

/// An empty replaced list clears it (written `[]`); an empty replaced or merged map keeps the
/// existing one.
#[test]
fn empty_patch_values_of_k8s_documents() {
    assert_eq!(
        patch("merge-patch-empty.yaml"),
        String::from_utf8(k8s_data("merge-patch-empty.expected.yaml")).unwrap()
    );
}

/// The not-omitempty fields are written even when empty (`config: {}`, `nodeIP: {}`,
/// `configuration: {}`, `issuer: ...`); the omitempty structs (`resources`, `accepted`) are not.
#[test]
fn empty_k8s_documents_encode_their_required_fields() {
    let yaml = "apiVersion: v1alpha1\nkind: KubeletConfig\n---\napiVersion: v1alpha1\nkind: KubeNodeConfig\n---\n\
                apiVersion: v1alpha1\nkind: KubeAuditPolicyConfig\n---\napiVersion: v1alpha1\nkind: KubeServiceAccountConfig\n\
                ---\napiVersion: v1alpha1\nkind: KubeSchedulerConfig\n---\napiVersion: v1alpha1\nkind: KubeNetworkConfig\n";
    let config = Config::from_bytes_for(yaml.as_bytes(), V1_14).unwrap();
    assert_eq!(
        config.encode(),
        "apiVersion: v1alpha1\nkind: KubeletConfig\nimage: \"\"\nconfig: {}\n---\napiVersion: v1alpha1\nkind: KubeNodeConfig\n\
         nodeIP: {}\n---\napiVersion: v1alpha1\nkind: KubeAuditPolicyConfig\nconfiguration: {}\n---\napiVersion: v1alpha1\n\
         kind: KubeServiceAccountConfig\nissuer:\n    privateKey: \"\"\n    issuerURL: \"\"\n---\napiVersion: v1alpha1\n\
         kind: KubeSchedulerConfig\nimage: \"\"\nconfig: {}\n---\napiVersion: v1alpha1\nkind: KubeNetworkConfig\n\
         dnsDomain: \"\"\npodSubnets: []\nserviceSubnets: []\n"
    );
}

/// Older releases do not register the kinds.
#[test]
fn k8s_kinds_exist_from_v1_14_on() {
    let yaml = b"apiVersion: v1alpha1\nkind: KubePrismConfig\nport: 7445\n";
    assert!(Config::from_bytes_for(yaml, V1_14).is_ok());
    assert_eq!(
        Config::from_bytes_for(yaml, Release::V1_13_9).unwrap_err().to_string(),
        "error decoding document v1alpha1/KubePrismConfig/ (line 1): \"KubePrismConfig\" \"v1alpha1\": not registered"
    );
}

/// Each `_redacted.yaml` peer file is what `RedactSecrets` makes of the same document with
/// real secrets in place of `REDACTED`.
#[test]
fn secret_k8s_kinds_redact_as_talos_does() {
    let Some(peer) = crate::common::peers().into_iter().find(|p| p.release == V1_14) else { return };
    let dir = peer.dir.join("types/k8s/testdata");
    for name in ["aggregatorcaconfig", "apiservercaconfig", "etcdencryptionconfig", "serviceaccountconfig"] {
        let redacted = std::fs::read_to_string(dir.join(format!("{name}_redacted.yaml"))).unwrap();
        let secret = redacted.replace("REDACTED", "s3cr3t");
        let config = Config::from_bytes_for(secret.as_bytes(), V1_14).unwrap();
        assert_eq!(config.encode_redacted(), redacted, "{name}");
    }
}

/// The CA kinds set the issuing CA's key even when it was empty; an etcd `secret` is found at
/// any depth of maps and of lists of maps, but not in lists of lists; an empty service-account
/// key stays empty.
#[test]
fn redaction_edges_of_k8s_kinds() {
    let yaml = "apiVersion: v1alpha1\nkind: KubeAPIServerCAConfig\nissuingCA:\n    cert: c\n---\napiVersion: v1alpha1\n\
                kind: KubeEtcdEncryptionConfig\nconfig:\n    secret: a\n    deep:\n        - secret: b\n          \
                list:\n            - - secret: c\n---\napiVersion: v1alpha1\nkind: KubeServiceAccountConfig\nissuer:\n    \
                privateKey: \"\"\n    issuerURL: https://a\n";
    let config = Config::from_bytes_for(yaml.as_bytes(), V1_14).unwrap();
    assert_eq!(
        config.encode_redacted(),
        "apiVersion: v1alpha1\nkind: KubeAPIServerCAConfig\nissuingCA:\n    cert: c\n    key: REDACTED\n---\n\
         apiVersion: v1alpha1\nkind: KubeEtcdEncryptionConfig\nconfig:\n    deep:\n        - list:\n            - - secret: c\n\
         \x20         secret: REDACTED\n    secret: REDACTED\n---\napiVersion: v1alpha1\nkind: KubeServiceAccountConfig\n\
         issuer:\n    privateKey: \"\"\n    issuerURL: https://a\n"
    );
}

/// An etcd `secret` is replaced whatever it holds (upstream assigns the replacement to the
/// map's key): empty, null, a map or a list.
#[test]
fn an_etcd_secret_of_any_shape_is_redacted() {
    let yaml = "apiVersion: v1alpha1\nkind: KubeEtcdEncryptionConfig\nconfig:\n    a:\n        secret: \"\"\n    \
                b:\n        secret: null\n    c:\n        secret:\n            key: v\n    d:\n        secret: [x]\n";
    let config = Config::from_bytes_for(yaml.as_bytes(), V1_14).unwrap();
    assert_eq!(
        config.encode_redacted(),
        "apiVersion: v1alpha1\nkind: KubeEtcdEncryptionConfig\nconfig:\n    a:\n        secret: REDACTED\n    b:\n        \
         secret: REDACTED\n    c:\n        secret: REDACTED\n    d:\n        secret: REDACTED\n"
    );
}

fn validate(yaml: &str) -> (Vec<String>, String) {
    let report = Config::from_bytes_for(yaml.as_bytes(), V1_14).unwrap().validate(Mode::Metal, Options::default());
    (report.warnings, report.error.map(|e| e.to_string()).unwrap_or_default())
}

/// Without a v1alpha1 document no conflict is looked for; these documents are valid.
#[test]
fn k8s_documents_alone_have_no_conflicts() {
    let yaml = "apiVersion: v1alpha1\nkind: KubeClusterConfig\nclusterName: c\nendpoint: https://[::1]:6443\n---\n\
                apiVersion: v1alpha1\nkind: KubeletConfig\nimage: kubelet:v1.0.0\nconfig:\n    serverTLSBootstrap: true\n---\n\
                apiVersion: v1alpha1\nkind: KubeNetworkConfig\npodSubnets:\n    - fd00::/56\nserviceSubnets:\n    - fd01::/108\n\
                ---\napiVersion: v1alpha1\nkind: KubeAPIServerCAConfig\n";
    assert_eq!(validate(yaml), (Vec::new(), String::new()));
}

/// Texts the recorded cases do not show: an IPv6 pod subnet too large for the per-node mask,
/// an endpoint without a host.
#[test]
fn k8s_validation_texts_without_v1alpha1() {
    let yaml = "apiVersion: v1alpha1\nkind: KubeNetworkConfig\npodSubnets:\n    - fd00::/40\nserviceSubnets:\n    - fd01::/108\n\
                ---\napiVersion: v1alpha1\nkind: KubeClusterConfig\nclusterName: c\nendpoint: https://:6443\n---\n\
                apiVersion: v1alpha1\nkind: KubeStaticPodConfig\nname: a\npod:\n    kind: Pod\n";
    assert_eq!(
        validate(yaml),
        (
            Vec::new(),
            "2 errors occurred:\n\t* KubeNetworkConfig: pod subnets: invalid subnet: fd00::/40 is too large for the \
             per-node pod CIDR mask size /64, the difference must be at most 16 bits\n\t* KubeClusterConfig: cluster \
             endpoint is invalid: hostname must not be blank\n\n"
                .to_string()
        )
    );
}

/// `$patch: delete` removes a field, a map key or a whole named document.
#[test]
fn deletes_in_k8s_documents() {
    assert_eq!(patch("delete-patch.yaml"), String::from_utf8(k8s_data("delete-patch.expected.yaml")).unwrap());
}
