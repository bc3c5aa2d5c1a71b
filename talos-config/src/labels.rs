//! Kubernetes label, annotation and taint rules as Talos v1.13 checks `machine.nodeLabels`,
//! `machine.nodeAnnotations` and `machine.nodeTaints`, with Talos's own messages.
//! (Placeholder signatures; the implementation lands with the validation work.)

use std::collections::BTreeMap;

/// One problem with one entry of a label, annotation or taint map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelError {
    /// The map key the problem is about.
    pub key: String,
    /// Talos's message (e.g. `name "team name" is invalid`).
    pub message: String,
}

/// Checks a label key (a Kubernetes qualified name).
pub fn validate_qualified_name(_key: &str) -> Result<(), String> {
    Ok(())
}

/// Checks a label value.
pub fn validate_label_value(_value: &str) -> Result<(), String> {
    Ok(())
}

/// Checks a label map, keys in byte order, key error then value error per key.
pub fn validate_labels(_labels: &BTreeMap<String, String>) -> Vec<LabelError> {
    Vec::new()
}

/// Checks an annotation map.
pub fn validate_annotations(_annotations: &BTreeMap<String, String>) -> Vec<LabelError> {
    Vec::new()
}

/// Checks a taint map (`key: "[value:]effect"`).
pub fn validate_taints(_taints: &BTreeMap<String, String>) -> Vec<LabelError> {
    Vec::new()
}
