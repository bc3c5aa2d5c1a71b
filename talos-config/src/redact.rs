//! Talos's `RedactSecrets`: which fields of each document kind hold secrets, and an encoded
//! document with their values replaced by `REDACTED` (used by `diff`, `plan`, `lint` and
//! `Config::encode_redacted`).

use talos_yaml::node::deep;
use talos_yaml::{Node, NodeValue};

use crate::Segment;

mod k8s;

/// What replaces a secret's value.
pub(crate) const REDACTED: &str = "REDACTED";

/// The fields Talos's `RedactSecrets` replaces (v1alpha1 `Config.Redact` and every
/// `SecretDocument`, docs/explain.md), per document kind; `*` is any map key, `[]` any item.
const SECRETS: &[(&str, &str)] = &[
    ("v1alpha1", "machine.token"),
    ("v1alpha1", "machine.ca.key"),
    ("v1alpha1", "machine.registries.config.*.auth.password"),
    ("v1alpha1", "machine.registries.config.*.auth.auth"),
    ("v1alpha1", "machine.registries.config.*.auth.identityToken"),
    ("v1alpha1", "machine.registries.config.*.tls.clientIdentity.key"),
    ("v1alpha1", "machine.network.interfaces.[].wireguard.privateKey"),
    ("v1alpha1", "machine.network.interfaces.[].vip.equinixMetal.apiToken"),
    ("v1alpha1", "machine.network.interfaces.[].vip.hcloud.apiToken"),
    ("v1alpha1", "machine.network.interfaces.[].vlans.[].vip.equinixMetal.apiToken"),
    ("v1alpha1", "machine.network.interfaces.[].vlans.[].vip.hcloud.apiToken"),
    ("v1alpha1", "machine.systemDiskEncryption.*.keys.[].static.passphrase"),
    ("v1alpha1", "cluster.secret"),
    ("v1alpha1", "cluster.token"),
    ("v1alpha1", "cluster.aescbcEncryptionSecret"),
    ("v1alpha1", "cluster.secretboxEncryptionSecret"),
    ("v1alpha1", "cluster.serviceAccount.key"),
    ("v1alpha1", "cluster.ca.key"),
    ("v1alpha1", "cluster.aggregatorCA.key"),
    ("v1alpha1", "cluster.etcd.ca.key"),
    ("VolumeConfig", "encryption.keys.[].static.passphrase"),
    ("RawVolumeConfig", "encryption.keys.[].static.passphrase"),
    ("SwapVolumeConfig", "encryption.keys.[].static.passphrase"),
    ("UserVolumeConfig", "encryption.keys.[].static.passphrase"),
    ("RegistryAuthConfig", "password"),
    ("RegistryAuthConfig", "auth"),
    ("RegistryAuthConfig", "identityToken"),
    ("RegistryTLSConfig", "clientIdentity.key"),
    ("HCloudVIPConfig", "apiToken"),
    ("DiscoveryIdentityConfig", "clusterSecret"),
    ("WireguardConfig", "privateKey"),
    ("WireguardConfig", "peers.[].presharedKey"),
    ("SideroLinkConfig", "uniqueToken"),
    ("KubeAggregatorCAConfig", "issuingCA.key"),
    ("KubeAPIServerCAConfig", "issuingCA.key"),
    ("KubeServiceAccountConfig", "issuer.privateKey"),
];

/// Whether the path is one of `kind`'s secret fields (Talos's `RedactSecrets` list).
pub(crate) fn is_secret(kind: &str, path: &[Segment]) -> bool {
    let steps: Vec<String> = path
        .iter()
        .map(|s| match s {
            Segment::Key(k) => k.clone(),
            Segment::Index(_) => "[]".to_string(),
        })
        .collect();
    is_secret_shape(kind, &steps)
}

/// [`is_secret`] for a path written as keys with `[]` for items.
fn is_secret_shape(kind: &str, path: &[String]) -> bool {
    k8s::is_etcd_secret(kind, path)
        || SECRETS.iter().filter(|(k, _)| *k == kind).any(|(_, pattern)| {
            let parts: Vec<&str> = pattern.split('.').collect();
            parts.len() == path.len() && parts.iter().zip(path).all(|(p, s)| *p == "*" && s != "[]" || p == s)
        })
}

/// An encoded document of `kind` with its secret values replaced by `REDACTED`.
pub(crate) fn redact_document(kind: &str, node: &mut Node) {
    k8s::redact_absent_ca_key(kind, node, REDACTED);
    redact_at(kind, node, &mut Vec::new());
}

/// Replaces secret scalars (non-empty ones, as Talos does) in an encoded document, or in the
/// part of one at `path`.
pub(crate) fn redact_at(kind: &str, node: &mut Node, path: &mut Vec<String>) {
    deep(|| match &mut node.value {
        NodeValue::Scalar(s) => {
            if !s.text.is_empty() && is_secret_shape(kind, path) {
                s.text = REDACTED.to_string();
            } else if kind == "SideroLinkConfig" && path.len() == 1 && path[0] == "apiUrl" {
                s.text = redact_join_token(&s.text);
            }
        }
        NodeValue::Sequence(items, _) => {
            for item in items {
                path.push("[]".to_string());
                redact_at(kind, item, path);
                path.pop();
            }
        }
        NodeValue::Mapping(entries, _) => {
            for (k, v) in entries {
                path.push(k.as_scalar().map(|s| s.text.clone()).unwrap_or_default());
                if k8s::is_etcd_secret(kind, path) {
                    // The etcd encryption configuration is free-form: whatever a `secret` holds
                    // (empty, null, a map) is replaced, as upstream assigns to the map's key.
                    *v = Node::go_string(REDACTED);
                } else {
                    redact_at(kind, v, path);
                }
                path.pop();
            }
        }
    })
}

/// `...?jointoken=<secret>&...` with the token replaced.
fn redact_join_token(url: &str) -> String {
    let Some(start) = url.find("jointoken=").map(|i| i + "jointoken=".len()) else { return url.to_string() };
    let end = url[start..].find(['&', '#']).map_or(url.len(), |i| start + i);
    format!("{}{REDACTED}{}", &url[..start], &url[end..])
}
