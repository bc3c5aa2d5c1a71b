//! Which document of a config: [`DocumentId`].

use std::fmt;

use super::Document;

/// Which document of a config: its kind, and its name for the kinds that have one.
///
/// `Display` prints `v1alpha1` for the legacy document, `Kind` for an unnamed kind and
/// `Kind/name` for a named one, the way Talos names documents in its texts.
///
/// ```
/// use talos_config::DocumentId;
/// assert_eq!(DocumentId::legacy().to_string(), "v1alpha1");
/// assert_eq!(DocumentId::new("HostnameConfig", None).to_string(), "HostnameConfig");
/// let link = DocumentId::new("LinkConfig", Some("eth0"));
/// assert_eq!((link.kind(), link.name()), ("LinkConfig", Some("eth0")));
/// assert_eq!(link.to_string(), "LinkConfig/eth0");
/// ```
///
/// With the `serde` feature it serializes as that text, and reads it back (`Kind/name` splits
/// at the first `/`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DocumentId {
    kind: String,
    name: Option<String>,
}

impl DocumentId {
    /// The document of `kind` named `name` (`None`, or an empty name, for an unnamed kind).
    pub fn new(kind: impl Into<String>, name: Option<&str>) -> DocumentId {
        DocumentId { kind: kind.into(), name: name.filter(|n| !n.is_empty()).map(str::to_string) }
    }

    /// The legacy `v1alpha1` document (`machine`, `cluster`, ...).
    pub fn legacy() -> DocumentId {
        DocumentId::new("v1alpha1", None)
    }

    /// The identity `Display` prints (`Kind/name` splits at the first `/`).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn from_text(text: &str) -> DocumentId {
        match text.split_once('/') {
            Some((kind, name)) => DocumentId::new(kind, Some(name)),
            None => DocumentId::new(text, None),
        }
    }

    /// The identity of a loaded document.
    pub(crate) fn of(doc: &dyn Document) -> DocumentId {
        DocumentId::new(doc.kind(), doc.named().then(|| doc.name()))
    }

    /// The `kind:` (`v1alpha1` for the legacy document).
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The name, for named kinds.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Whether this is the legacy `v1alpha1` document.
    pub fn is_legacy(&self) -> bool {
        self.kind == "v1alpha1"
    }
}

impl fmt::Display for DocumentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{}/{name}", self.kind),
            None => f.write_str(&self.kind),
        }
    }
}
