//! Kubernetes label, annotation and taint rules as Talos v1.13 checks `machine.nodeLabels`,
//! `machine.nodeAnnotations` and `machine.nodeTaints`, with Talos's own messages.
//!
//! Talos (`pkg/machinery/labels`) carries its own adaptation of Kubernetes'
//! `ValidateQualifiedName`, `IsDNS1123Subdomain` and `ValidateLabelValue`, with **short messages
//! of its own** (not apimachinery's long ones). This module reproduces those rules and messages
//! exactly; quoted parts use Go's `%q` ([`crate::gofmt::quote`]).
//!
//! The three map validators return one [`LabelError`] per Talos error, in Talos's order: keys
//! in byte order (the order of a [`BTreeMap<String, _>`](BTreeMap)), and per key the key
//! error before the value error. Talos wraps the list as `invalid machine node labels: <list>`
//! (likewise `annotations`, `taints`); that wrapping is the caller's job
//! (`Config::validate` does it).
//!
//! No reserved label prefixes are enforced (`kubernetes.io/…`, `node-role.kubernetes.io/…`
//! and `talos.dev/…` labels all pass), exactly like Talos.
//!
//! The patterns are matched by hand-written scanners (no regex engine), each following one of
//! Talos's regular expressions; every check is linear in the length of its input, and the map
//! validators are linear in the total size of the map.
//!
//! ```
//! use std::collections::BTreeMap;
//! use talos_config::labels::{LabelError, validate_labels};
//!
//! let labels = BTreeMap::from([("lab.talos.dev/team name".to_string(), "platform".to_string())]);
//! assert_eq!(
//!     validate_labels(&labels),
//!     [LabelError { key: "lab.talos.dev/team name".into(), message: r#"name "team name" is invalid"#.into() }]
//! );
//! ```

use std::collections::BTreeMap;

use crate::gofmt::quote;

/// One problem with one entry of a label, annotation or taint map.
///
/// ```
/// use talos_config::labels::LabelError;
///
/// let e = LabelError { key: "ok".into(), message: r#"label value "x y" is invalid"#.into() };
/// assert_eq!(e.to_string(), r#"label value "x y" is invalid"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelError {
    /// The map key the problem is about. For the annotation map's total-size error, which is
    /// about no single key, this is the empty string.
    pub key: String,
    /// Talos's message (e.g. `name "team name" is invalid`), without any key or path.
    pub message: String,
}

impl std::fmt::Display for LabelError {
    /// Writes [`message`](LabelError::message) alone, exactly as Talos prints the error.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for LabelError {}

/// Maximum length, in bytes, of the name part of a qualified name (Talos `qualifiedNameMaxLength`).
///
/// ```
/// assert_eq!(talos_config::labels::QUALIFIED_NAME_MAX_LENGTH, 63);
/// ```
pub const QUALIFIED_NAME_MAX_LENGTH: usize = 63;

/// Maximum length, in bytes, of a label value (Talos `labelValueMaxLength`).
///
/// ```
/// assert_eq!(talos_config::labels::LABEL_VALUE_MAX_LENGTH, 63);
/// ```
pub const LABEL_VALUE_MAX_LENGTH: usize = 63;

/// Maximum length, in bytes, of a DNS-1123 subdomain, i.e. of a qualified name's prefix.
///
/// ```
/// assert_eq!(talos_config::labels::DNS1123_SUBDOMAIN_MAX_LENGTH, 253);
/// ```
pub const DNS1123_SUBDOMAIN_MAX_LENGTH: usize = 253;

/// Limit, in bytes, on the sum of `len(key) + len(value)` over all annotations (256 KiB).
///
/// ```
/// assert_eq!(talos_config::labels::TOTAL_ANNOTATION_SIZE_LIMIT, 262_144);
/// ```
pub const TOTAL_ANNOTATION_SIZE_LIMIT: usize = 256 * 1024;

/// Annotation keys Talos keeps for itself (`annotation "<k>" is reserved`).
///
/// ```
/// assert!(talos_config::labels::RESERVED_ANNOTATIONS.contains(&"talos.dev/owned-labels"));
/// ```
pub const RESERVED_ANNOTATIONS: [&str; 3] =
    ["talos.dev/owned-annotations", "talos.dev/owned-labels", "talos.dev/owned-taints"];

/// The taint effects Talos accepts (`constants.ValidEffects`), matched exactly (case-sensitive).
///
/// ```
/// assert_eq!(talos_config::labels::VALID_TAINT_EFFECTS, ["NoSchedule", "PreferNoSchedule", "NoExecute"]);
/// ```
pub const VALID_TAINT_EFFECTS: [&str; 3] = ["NoSchedule", "PreferNoSchedule", "NoExecute"];

/// `[a-z0-9]`
fn is_dns_alnum(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit()
}

/// `[A-Za-z0-9]` (`qnameCharFmt`)
fn is_qname_char(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// `[-A-Za-z0-9_.]` (`qnameExtCharFmt`)
fn is_qname_ext_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.')
}

/// `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`: one or more
/// `.`-separated labels, each non-empty, made of `[-a-z0-9]`, starting and ending with `[a-z0-9]`.
fn matches_dns1123_subdomain(s: &str) -> bool {
    s.split('.').all(|label| {
        let b = label.as_bytes();
        match (b.first(), b.last()) {
            (Some(&first), Some(&last)) => {
                is_dns_alnum(first) && is_dns_alnum(last) && b.iter().all(|&c| is_dns_alnum(c) || c == b'-')
            }
            _ => false,
        }
    })
}

/// `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`: non-empty, made of `[-A-Za-z0-9_.]`, starting
/// and ending with `[A-Za-z0-9]`.
fn matches_qualified_name(s: &str) -> bool {
    let b = s.as_bytes();
    match (b.first(), b.last()) {
        (Some(&first), Some(&last)) => {
            is_qname_char(first) && is_qname_char(last) && b.iter().all(|&c| is_qname_ext_char(c))
        }
        _ => false,
    }
}

/// `^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`: empty, or a qualified-name-shaped string.
fn matches_label_value(s: &str) -> bool {
    s.is_empty() || matches_qualified_name(s)
}

/// Checks a DNS-1123 subdomain (a qualified name's prefix) like Talos's
/// `ValidateDNS1123Subdomain`: at most 253 bytes, lowercase `.`-separated labels of
/// `[-a-z0-9]` that start and end with a letter or digit.
///
/// ```
/// use talos_config::labels::validate_dns1123_subdomain;
///
/// assert_eq!(validate_dns1123_subdomain("lab.talos.dev"), Ok(()));
/// assert_eq!(
///     validate_dns1123_subdomain("Lab.Talos.dev"),
///     Err(r#"domain doesn't match required format: "Lab.Talos.dev""#.to_string())
/// );
/// assert_eq!(
///     validate_dns1123_subdomain(&"p".repeat(254)),
///     Err(format!("domain name length exceeds limit of 253: \"{}\"", "p".repeat(254)))
/// );
/// ```
pub fn validate_dns1123_subdomain(value: &str) -> Result<(), String> {
    if value.len() > DNS1123_SUBDOMAIN_MAX_LENGTH {
        return Err(format!("domain name length exceeds limit of {DNS1123_SUBDOMAIN_MAX_LENGTH}: {}", quote(value)));
    }
    if !matches_dns1123_subdomain(value) {
        return Err(format!("domain doesn't match required format: {}", quote(value)));
    }
    Ok(())
}

/// Checks a label key (a Kubernetes qualified name, `[prefix/]name`) like Talos's
/// `ValidateQualifiedName`; `Err` holds Talos's exact message.
///
/// In order: more than one `/` is an error; a prefix must be a non-empty DNS-1123 subdomain
/// (lowercase, ≤ 253 bytes; a prefix error is the only one reported); the name must be
/// non-empty, ≤ 63 bytes, and match `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`. The empty-name
/// and too-long messages quote the whole key; the format message quotes only the name.
///
/// ```
/// use talos_config::labels::validate_qualified_name;
///
/// assert_eq!(validate_qualified_name("lab.talos.dev/team"), Ok(()));
/// assert_eq!(validate_qualified_name("lab.talos.dev/team name"), Err(r#"name "team name" is invalid"#.into()));
/// assert_eq!(validate_qualified_name("talos.dev/"), Err(r#"name cannot be empty: "talos.dev/""#.into()));
/// assert_eq!(validate_qualified_name("/foo"), Err(r#"prefix cannot be empty: "/foo""#.into()));
/// assert_eq!(validate_qualified_name("a/b/c"), Err(r#"invalid format: too many slashes: "a/b/c""#.into()));
/// assert_eq!(
///     validate_qualified_name("Lab.Talos.dev/x"),
///     Err(r#"prefix "Lab.Talos.dev" is invalid: domain doesn't match required format: "Lab.Talos.dev""#.into())
/// );
/// ```
pub fn validate_qualified_name(key: &str) -> Result<(), String> {
    let mut parts = key.split('/');
    let first = parts.next().unwrap_or_default();
    let name = match (parts.next(), parts.next()) {
        (None, _) => first,
        (Some(name), None) => {
            let prefix = first;
            if prefix.is_empty() {
                return Err(format!("prefix cannot be empty: {}", quote(key)));
            }
            if let Err(e) = validate_dns1123_subdomain(prefix) {
                return Err(format!("prefix {} is invalid: {e}", quote(prefix)));
            }
            name
        }
        (Some(_), Some(_)) => return Err(format!("invalid format: too many slashes: {}", quote(key))),
    };
    if name.is_empty() {
        Err(format!("name cannot be empty: {}", quote(key)))
    } else if name.len() > QUALIFIED_NAME_MAX_LENGTH {
        Err(format!("name is too long: {} (limit is {QUALIFIED_NAME_MAX_LENGTH})", quote(key)))
    } else if !matches_qualified_name(name) {
        Err(format!("name {} is invalid", quote(name)))
    } else {
        Ok(())
    }
}

/// Checks a label value like Talos's `ValidateLabelValue`: at most 63 bytes, and empty or
/// matching `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`. `Err` holds Talos's exact message.
///
/// ```
/// use talos_config::labels::validate_label_value;
///
/// assert_eq!(validate_label_value("platform"), Ok(()));
/// assert_eq!(validate_label_value(""), Ok(()));
/// assert_eq!(validate_label_value("x y"), Err(r#"label value "x y" is invalid"#.into()));
/// assert_eq!(validate_label_value("v_"), Err(r#"label value "v_" is invalid"#.into()));
/// assert_eq!(
///     validate_label_value(&"a".repeat(64)),
///     Err(format!("label value length exceeds limit of 63: \"{}\"", "a".repeat(64)))
/// );
/// ```
pub fn validate_label_value(value: &str) -> Result<(), String> {
    if value.len() > LABEL_VALUE_MAX_LENGTH {
        return Err(format!("label value length exceeds limit of {LABEL_VALUE_MAX_LENGTH}: {}", quote(value)));
    }
    if !matches_label_value(value) {
        return Err(format!("label value {} is invalid", quote(value)));
    }
    Ok(())
}

fn push(out: &mut Vec<LabelError>, key: &str, result: Result<(), String>) -> bool {
    match result {
        Ok(()) => true,
        Err(message) => {
            out.push(LabelError { key: key.to_owned(), message });
            false
        }
    }
}

/// Checks a label map like Talos's `labels.Validate` (`machine.nodeLabels`): keys in byte
/// order, and for each key the key error (if any), then the value error (if any).
///
/// ```
/// use std::collections::BTreeMap;
/// use talos_config::labels::validate_labels;
///
/// let labels: BTreeMap<String, String> =
///     [("lab.talos.dev/team name", "platform"), ("ok", "x y"), ("kubernetes.io/hostname", "node-1")]
///         .into_iter()
///         .map(|(k, v)| (k.to_string(), v.to_string()))
///         .collect();
/// let messages: Vec<String> = validate_labels(&labels).into_iter().map(|e| e.message).collect();
/// assert_eq!(messages, [r#"name "team name" is invalid"#, r#"label value "x y" is invalid"#]);
/// ```
pub fn validate_labels(labels: &BTreeMap<String, String>) -> Vec<LabelError> {
    let mut out = Vec::new();
    for (key, value) in labels {
        push(&mut out, key, validate_qualified_name(key));
        push(&mut out, key, validate_label_value(value));
    }
    out
}

/// Checks an annotation map like Talos's `ValidateAnnotations` (`machine.nodeAnnotations`):
/// keys in byte order; each key must be a qualified name, then the reserved keys
/// ([`RESERVED_ANNOTATIONS`]) are refused; values are not checked, except that the sum of key
/// and value lengths must not exceed [`TOTAL_ANNOTATION_SIZE_LIMIT`] (that error comes last,
/// with an empty [`LabelError::key`]).
///
/// ```
/// use std::collections::BTreeMap;
/// use talos_config::labels::{LabelError, validate_annotations};
///
/// let annotations = BTreeMap::from([
///     ("talos.dev/owned-labels".to_string(), "x".to_string()),
///     ("a b".to_string(), "anything: goes".to_string()),
/// ]);
/// assert_eq!(
///     validate_annotations(&annotations),
///     [
///         LabelError { key: "a b".into(), message: r#"name "a b" is invalid"#.into() },
///         LabelError {
///             key: "talos.dev/owned-labels".into(),
///             message: r#"annotation "talos.dev/owned-labels" is reserved"#.into()
///         },
///     ]
/// );
///
/// let big = BTreeMap::from([("k".to_string(), "v".repeat(262_144))]);
/// assert_eq!(
///     validate_annotations(&big),
///     [LabelError { key: String::new(), message: "total annotation size exceeds limit of 262144 bytes".into() }]
/// );
/// ```
pub fn validate_annotations(annotations: &BTreeMap<String, String>) -> Vec<LabelError> {
    let mut out = Vec::new();
    let mut size: usize = 0;
    for (key, value) in annotations {
        push(&mut out, key, validate_qualified_name(key));
        if RESERVED_ANNOTATIONS.contains(&key.as_str()) {
            out.push(LabelError { key: key.clone(), message: format!("annotation {} is reserved", quote(key)) });
        }
        size = size.saturating_add(key.len()).saturating_add(value.len());
    }
    if size > TOTAL_ANNOTATION_SIZE_LIMIT {
        out.push(LabelError {
            key: String::new(),
            message: format!("total annotation size exceeds limit of {TOTAL_ANNOTATION_SIZE_LIMIT} bytes"),
        });
    }
    out
}

/// Checks a taint map (`key: "[value:]effect"`) like Talos's `ValidateTaints`
/// (`machine.nodeTaints`), keys in byte order:
///
/// - an invalid key gives its qualified-name error and the entry is skipped;
/// - the value is cut at the **first** `:`; without one the whole value is the effect;
/// - the effect is **required** and must be one of [`VALID_TAINT_EFFECTS`], otherwise
///   `invalid taint effect: "<effect>"` (and the value part is not checked);
/// - with a `:`, the part before it must be a valid label value ([`validate_label_value`]).
///
/// ```
/// use std::collections::BTreeMap;
/// use talos_config::labels::validate_taints;
///
/// let taints: BTreeMap<String, String> = [
///     ("t1", "NoSchedule"),
///     ("t2", "v:NoExecute"),
///     ("t3", "value"),
///     ("bad key", "x"),
///     ("t4", "a b:NoSchedule"),
///     ("t5", "bar:NoExecute:NoSchedule"),
/// ]
/// .into_iter()
/// .map(|(k, v)| (k.to_string(), v.to_string()))
/// .collect();
/// let messages: Vec<String> = validate_taints(&taints).into_iter().map(|e| e.message).collect();
/// assert_eq!(
///     messages,
///     [
///         r#"name "bad key" is invalid"#,
///         r#"invalid taint effect: "value""#,
///         r#"label value "a b" is invalid"#,
///         r#"invalid taint effect: "NoExecute:NoSchedule""#,
///     ]
/// );
/// ```
pub fn validate_taints(taints: &BTreeMap<String, String>) -> Vec<LabelError> {
    let mut out = Vec::new();
    for (key, taint) in taints {
        if !push(&mut out, key, validate_qualified_name(key)) {
            continue;
        }
        let (value, effect) = match taint.split_once(':') {
            Some((value, effect)) => (Some(value), effect),
            None => (None, taint.as_str()),
        };
        if !VALID_TAINT_EFFECTS.contains(&effect) {
            out.push(LabelError { key: key.clone(), message: format!("invalid taint effect: {}", quote(effect)) });
            continue;
        }
        if let Some(value) = value {
            push(&mut out, key, validate_label_value(value));
        }
    }
    out
}
