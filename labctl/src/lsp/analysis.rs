//! What the language server says about one buffer: Talos's and the linter's diagnostics (a
//! config checked as it is, a patch checked onto a minimal config), the key path under the
//! cursor, and the schema's docs and keys at a path.

use talos_config::schema::{self, Flavour, Json};
use talos_config::{CheckOptions, Checks, PatchSource, Severity, check};
use talos_yaml::{Node, NodeValue};

/// A problem in the buffer: 0-based line and column (in characters), message, severity, rule.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Finding {
    pub line: usize,
    pub column: usize,
    pub severity: Severity,
    pub rule: String,
    pub message: String,
    /// The key a mechanical fix renames the reported key to.
    pub rename: Option<String>,
}

/// The config a lone patch is checked onto: the smallest worker config Talos validates.
const MINIMAL_BASE: &str = "version: v1alpha1\nmachine:\n  type: worker\n  token: aaaaaa.aaaaaaaaaaaaaaaa\n  ca:\n    crt: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==\n    key: \"\"\ncluster:\n  controlPlane:\n    endpoint: https://10.5.0.2:6443\n  network:\n    dnsDomain: cluster.local\n";

/// Whether the buffer is a whole config (some document has `version:` or a `kind:` of its own
/// besides `machine`/`cluster` patches): else it is a patch.
pub(crate) fn is_config(text: &str) -> bool {
    match talos_yaml::parse::parse_documents(text.as_bytes()) {
        Ok(docs) => docs.iter().any(|d| d.get("version").is_some()),
        Err(_) => false,
    }
}

/// The diagnostics of a buffer named `name`: a config checked alone, a patch onto a minimal
/// config (only what concerns the patch is kept).
pub(crate) fn findings(name: &str, text: &str) -> (Vec<Finding>, &'static str) {
    let options = CheckOptions { checks: Checks::Lint, ..CheckOptions::default() };
    let this = PatchSource::new(name, text.as_bytes());
    let (checked, how) = if is_config(text) {
        (check(&this, &[], &options), "checked as a config")
    } else {
        let base = PatchSource::new("(minimal worker config)", MINIMAL_BASE);
        (check(&base, std::slice::from_ref(&this), &options), "checked as a patch onto a minimal worker config")
    };
    let Ok(checked) = checked else { return (Vec::new(), how) };
    let findings = checked
        .diagnostics()
        .iter()
        .filter_map(|d| {
            let site = d.site()?;
            (*site.input == *name).then(|| Finding {
                line: site.line.saturating_sub(1),
                column: site.column.saturating_sub(1),
                severity: d.severity(),
                rule: d.rule().to_string(),
                rename: d.renamed_key().map(str::to_string),
                message: match d.fix() {
                    Some(fix) => format!("{}\n{fix}", d.message()),
                    None => d.message().to_string(),
                },
            })
        })
        .collect();
    (findings, how)
}

/// The path of keys to the mapping entry whose key holds the 0-based (line, column), or whose
/// value starts on that line: `(document kind, keys)`; `None` outside any key.
pub(crate) fn path_at(text: &str, line: usize, column: usize) -> Option<(String, Vec<String>)> {
    let docs = talos_yaml::parse::parse_documents(text.as_bytes()).ok()?;
    // The document whose lines hold the position: the last one starting at or before it.
    let doc = docs.iter().rev().find(|d| d.mark.line.saturating_sub(1) <= line)?;
    let kind = doc_kind(doc);
    let mut keys = Vec::new();
    descend(doc, line, column, &mut keys).then_some((kind, keys))
}

/// The kind of a document (`v1alpha1` without `kind:`).
fn doc_kind(doc: &Node) -> String {
    doc.get("kind").and_then(|k| k.as_scalar()).map_or_else(|| "v1alpha1".to_string(), |s| s.text.clone())
}

fn descend(node: &Node, line: usize, column: usize, keys: &mut Vec<String>) -> bool {
    let NodeValue::Mapping(entries, _) = &node.value else {
        if let NodeValue::Sequence(items, _) = &node.value {
            return items.iter().any(|item| descend(item, line, column, keys));
        }
        return false;
    };
    for (key, value) in entries {
        let Some(k) = key.as_scalar() else { continue };
        let key_line = key.mark.line.saturating_sub(1);
        let key_col = key.mark.column.saturating_sub(1);
        let on_key = key_line == line && column >= key_col && column <= key_col + k.text.chars().count();
        if on_key {
            keys.push(k.text.clone());
            return true;
        }
        keys.push(k.text.clone());
        if descend(value, line, column, keys) {
            return true;
        }
        keys.pop();
    }
    false
}

/// The schema of `kind` walked down `keys` (list items transparent).
pub(crate) fn schema_at(kind: &str, keys: &[String], flavour: Flavour) -> Option<Json> {
    let mut node = schema::kind_schema_json(kind, flavour)?;
    for key in keys {
        node = items_of(node);
        node = property(&node, key)?;
    }
    Some(node)
}

fn entry<'a>(node: &'a Json, name: &str) -> Option<&'a Json> {
    match node {
        Json::Obj(entries) => entries.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    }
}

/// A list's item schema, or the node itself.
fn items_of(node: Json) -> Json {
    entry(&node, "items").cloned().unwrap_or(node)
}

fn property(node: &Json, key: &str) -> Option<Json> {
    entry(node, "properties")
        .and_then(|props| entry(props, key))
        .or_else(|| entry(node, "additionalProperties").filter(|v| matches!(v, Json::Obj(_))))
        .cloned()
}

/// The description of a schema node.
pub(crate) fn description(node: &Json) -> Option<String> {
    match entry(node, "description") {
        Some(Json::Str(text)) => Some(text.clone()),
        _ => None,
    }
}

/// The keys a mapping at this schema node takes, with their descriptions.
pub(crate) fn keys_of(node: &Json) -> Vec<(String, Option<String>)> {
    let node = items_of(node.clone());
    match entry(&node, "properties") {
        Some(Json::Obj(props)) => {
            props.iter().filter(|(k, _)| k != "$patch").map(|(k, v)| (k.clone(), description(v))).collect()
        }
        _ => Vec::new(),
    }
}
