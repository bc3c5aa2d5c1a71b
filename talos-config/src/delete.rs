//! `$patch: delete`: finding delete markers in a patch's node tree (upstream
//! `AppendDeletesTo`) and applying the resulting selectors to documents (`ApplyTo`).

use crate::document::Document;
use crate::value::DeletePath;
use crate::yaml::{Node, NodeValue};

/// A delete selector: which document, which path in it, and for list elements which element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selector {
    /// YAML keys from the document root (`[i]` for list positions); empty = whole document.
    pub path: Vec<String>,
    /// Index of the YAML document of the patch it came from.
    pub doc_index: usize,
    pub api_version: String,
    /// `kind:` of the target (`v1alpha1` for the legacy document).
    pub kind: String,
    /// For list elements: the selecting field's key and value.
    pub key: String,
    pub value: String,
    /// `Some` for a named selector (the delete document had a non-empty `name:`).
    pub name: Option<String>,
}

impl Selector {
    /// The dotted path (`machine.network.interfaces.[0]`).
    pub fn path_string(&self) -> String {
        self.path.join(".")
    }

    /// Identity used to find the target document (`apiVersion/kind[/name]`).
    pub fn identity(&self) -> String {
        match &self.name {
            Some(n) => format!("{}/{}/{}", self.api_version, self.kind, n),
            None => format!("{}/{}", self.api_version, self.kind),
        }
    }

    /// Applies the selector to its document (upstream `ApplyTo`): `Ok(true)` when the whole
    /// document is to be removed.
    pub fn apply_to(&self, doc: &mut dyn Document) -> Result<bool, String> {
        if self.path.is_empty() {
            return Ok(true);
        }
        let element = if self.key.is_empty() && self.value.is_empty() {
            None
        } else {
            Some((self.key.as_str(), self.value.as_str()))
        };
        let path = DeletePath { segments: &self.path, element };
        doc.delete(path).map(|()| false).map_err(|cause| {
            let p = self.path_string();
            let api = if doc.kind() == "v1alpha1" { "" } else { "v1alpha1" };
            let kind = if doc.kind() == "v1alpha1" { "v1alpha1" } else { doc.kind() };
            match &self.name {
                None => {
                    format!("patch delete: path '{p}' in document '{api}/{kind}': failed to delete path '{p}': {cause}")
                }
                Some(_) => format!("named patch delete: document {api}/{kind}: failed to delete path '{p}': {cause}"),
            }
        })
    }
}

impl Selector {
    /// Upstream's text for this selector applied to another selector of the same identity,
    /// whose struct has no field its path could name.
    pub(crate) fn lookup_failed_in(&self, target: &Selector) -> String {
        let p = self.path_string();
        let (api, kind) = (&target.api_version, &target.kind);
        match &self.name {
            None => format!(
                "patch delete: path '{p}' in document '{api}/{kind}': failed to delete path '{p}': lookup failed"
            ),
            Some(_) => format!("named patch delete: document {api}/{kind}: failed to delete path '{p}': lookup failed"),
        }
    }

    /// Upstream's encoder panics on a named selector left in a container; this is our text.
    pub(crate) fn unmatched_text(&self) -> String {
        let name = self.name.as_deref().unwrap_or_default();
        format!("named patch delete: document {}/{}/{name} does not exist", self.api_version, self.kind)
    }
}

impl std::fmt::Display for Selector {
    /// The debug form upstream's tests pin: `{path:..., apiVersion:..., kind:..., idx:N[, name:...]}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let idx = self.doc_index.to_string();
        let path = self.path_string();
        let parts = [
            ("path", path.as_str()),
            ("apiVersion", self.api_version.as_str()),
            ("kind", self.kind.as_str()),
            ("key", self.key.as_str()),
            ("value", self.value.as_str()),
            ("idx", idx.as_str()),
        ];
        let mut items: Vec<String> =
            parts.iter().filter(|(_, v)| !v.is_empty()).map(|(k, v)| format!("{k}:{v}")).collect();
        if let Some(n) = &self.name {
            items.push(format!("name:{n}"));
        }
        write!(f, "{{{}}}", items.join(", "))
    }
}

/// A marker found while walking: its path and, for list elements, the element's first pair.
struct Marker {
    path: Vec<String>,
    element: Option<(String, String)>,
}

#[derive(Clone, Copy, PartialEq)]
enum Parent {
    Document,
    Mapping,
    Sequence,
}

/// Removes every `$patch: delete` marker from a patch document and returns the selectors.
/// The returned node is `None` when the document is to be dropped (deleted whole, emptied, or
/// left with only `version`/`kind`/`name`).
pub fn extract_deletes(mut root: Node, doc_index: usize) -> Result<(Option<Node>, Vec<Selector>), String> {
    let mut markers = Vec::new();
    let deleted = process(Parent::Document, &mut root, &mut Vec::new(), &mut markers)?;
    let mut selectors = Vec::with_capacity(markers.len());
    for m in markers {
        selectors.push(make_selector(&root, m, doc_index)?);
    }
    let keep = !deleted && !is_empty_doc(&root);
    Ok((keep.then_some(root), selectors))
}

fn is_delete_pair(k: &Node, v: &Node) -> bool {
    k.as_scalar().is_some_and(|s| s.text == "$patch") && v.as_scalar().is_some_and(|s| s.text == "delete")
}

/// Upstream `processNode`: true when `node` is to be removed from its parent.
fn process(parent: Parent, node: &mut Node, path: &mut Vec<String>, out: &mut Vec<Marker>) -> Result<bool, String> {
    crate::yaml::node::deep(|| process_at_depth(parent, node, path, out))
}

fn process_at_depth(
    parent: Parent,
    node: &mut Node,
    path: &mut Vec<String>,
    out: &mut Vec<Marker>,
) -> Result<bool, String> {
    match &mut node.value {
        NodeValue::Mapping(entries, _) => {
            let mut i = 0;
            while i < entries.len() {
                if is_delete_pair(&entries[i].0, &entries[i].1) {
                    let element = if parent == Parent::Sequence {
                        let pair = first_pair(entries)
                            .ok_or_else(|| format!("no key:val found in sequence node for path {}", path.join(".")))?;
                        Some(pair)
                    } else {
                        ensure_no_seq_in_chain(path)?;
                        None
                    };
                    out.push(Marker { path: path.clone(), element });
                    return Ok(true);
                }
                let key = entries[i].0.as_scalar().map(|s| s.text.clone()).unwrap_or_default();
                path.push(key);
                let remove = process(Parent::Mapping, &mut entries[i].1, path, out)?;
                path.pop();
                if remove {
                    entries.remove(i);
                    if entries.is_empty() {
                        return Ok(true);
                    }
                } else {
                    i += 1;
                }
            }
            Ok(false)
        }
        NodeValue::Sequence(items, _) => {
            let mut i = 0;
            while i < items.len() {
                // Upstream names the position after earlier removals, so indexes repeat.
                path.push(format!("[{i}]"));
                let remove = process(Parent::Sequence, &mut items[i], path, out)?;
                path.pop();
                if remove {
                    items.remove(i);
                    if items.is_empty() {
                        return Ok(true);
                    }
                } else {
                    i += 1;
                }
            }
            Ok(false)
        }
        NodeValue::Scalar(_) => Ok(false),
    }
}

/// The first `key: value` pair of a list element other than the marker.
fn first_pair(entries: &[(Node, Node)]) -> Option<(String, String)> {
    let (k, v) = entries.iter().find(|(k, v)| !is_delete_pair(k, v))?;
    let key = k.as_scalar().map(|s| s.text.clone()).unwrap_or_default();
    let value = v.as_scalar().map(|s| s.text.clone()).unwrap_or_default();
    Some((key, value))
}

/// Upstream looks at each segment's first byte in order: an empty segment (an empty YAML key) is
/// Go's index-out-of-range panic, which upstream recovers into this error text.
fn ensure_no_seq_in_chain(path: &[String]) -> Result<(), String> {
    for segment in path {
        match segment.as_bytes().first() {
            None => return Err("runtime error: index out of range [0] with length 0".into()),
            Some(b'[') => return Err(format!("cannot delete an inner key in '{}'", path.join("."))),
            Some(_) => {}
        }
    }
    Ok(())
}

fn find_value(root: &Node, key: &str, required: bool) -> Result<String, String> {
    let Some(entries) = root.as_mapping() else {
        return Err("expected a mapping node".into());
    };
    for (k, v) in entries {
        if k.as_scalar().is_some_and(|s| s.text == key) {
            return Ok(v.as_scalar().map(|s| s.text.clone()).unwrap_or_default());
        }
    }
    if required {
        return Err(format!("missing {key} in document for which $patch: delete is used"));
    }
    Ok(String::new())
}

fn make_selector(root: &Node, marker: Marker, doc_index: usize) -> Result<Selector, String> {
    let required = marker.path.is_empty();
    let api_version = find_value(root, "apiVersion", required)?;
    let mut kind = find_value(root, "kind", required)?;
    match (kind.is_empty(), api_version.is_empty()) {
        (true, true) => kind = "v1alpha1".into(),
        (false, false) => {}
        _ => {
            return Err(format!("kind and apiVersion must be both set for path {}", marker.path.join(".")));
        }
    }
    let name = find_value(root, "name", false)?;
    let (key, value) = marker.element.unwrap_or_default();
    Ok(Selector {
        path: marker.path,
        doc_index,
        api_version,
        kind,
        key,
        value,
        name: (!name.is_empty()).then_some(name),
    })
}

/// Upstream `isEmptyDoc`: a mapping with only scalar `version`/`kind`/`name` pairs.
fn is_empty_doc(root: &Node) -> bool {
    let Some(entries) = root.as_mapping() else {
        return false;
    };
    entries.iter().all(|(k, v)| {
        k.as_scalar().is_some_and(|s| matches!(s.text.as_str(), "version" | "kind" | "name")) && v.as_scalar().is_some()
    })
}
