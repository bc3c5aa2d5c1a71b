//! The `RedactSecrets` rules of the `types/k8s` secret kinds that a list of field paths cannot
//! say (the fixed paths are in the parent module).

use talos_yaml::{Node, NodeValue};

/// Whether `path` (keys, `[]` for items) is an etcd encryption secret: a `secret` key anywhere
/// under `config` of a `KubeEtcdEncryptionConfig`, in maps or in maps listed directly in a
/// list (upstream does not look into lists of lists).
pub(crate) fn is_etcd_secret(kind: &str, path: &[String]) -> bool {
    kind == "KubeEtcdEncryptionConfig"
        && path.len() > 1
        && path[0] == "config"
        && path.last().is_some_and(|k| k == "secret")
        && !path.windows(2).any(|w| w[0] == "[]" && w[1] == "[]")
}

/// The CA kinds set the issuing CA's key to the replacement even when it is empty (and thus
/// not written): an `issuingCA` without `key` gets `key: REDACTED`.
pub(crate) fn redact_absent_ca_key(kind: &str, node: &mut Node, replacement: &str) {
    if kind != "KubeAggregatorCAConfig" && kind != "KubeAPIServerCAConfig" {
        return;
    }
    let NodeValue::Mapping(entries, _) = &mut node.value else { return };
    let Some((_, ca)) = entries.iter_mut().find(|(k, _)| k.as_scalar().is_some_and(|s| s.text == "issuingCA")) else {
        return;
    };
    let NodeValue::Mapping(fields, _) = &mut ca.value else { return };
    if !fields.iter().any(|(k, _)| k.as_scalar().is_some_and(|s| s.text == "key")) {
        fields.push((Node::go_string("key"), Node::go_string(replacement)));
    }
}
