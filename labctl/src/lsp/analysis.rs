//! What the language server says about one buffer: Talos's and the linter's diagnostics (a
//! config checked as it is, a patch checked onto a minimal config), the key path under the
//! cursor, and the schema's docs and keys at a path.

use std::path::Path;

use talos_config::provenance::Provenance;
use talos_config::schema::{self, Flavour, Json};
use talos_config::{CheckOptions, Checks, DocumentId, FieldPath, PatchSource, Segment, Severity, check};
use talos_yaml::{Node, NodeValue};

use super::project::Project;

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

/// What a buffer is checked with: the inputs in merge order, which of them is the buffer, and
/// how that was decided (the server tells the user).
pub(crate) struct Context {
    pub base: PatchSource,
    pub patches: Vec<PatchSource>,
    pub name: String,
    pub options: CheckOptions,
    pub how: String,
}

/// Whether the buffer is a whole config (some document has `version:`): else it is a patch.
pub(crate) fn is_config(text: &str) -> bool {
    match talos_yaml::parse::parse_documents(text.as_bytes()) {
        Ok(docs) => docs.iter().any(|d| d.get("version").is_some()),
        Err(_) => false,
    }
}

/// The context of a buffer: its `[[config]]` of `.labctl.toml` when a project file lists it
/// (the other inputs from `buffer`, the editor's unsaved text, else from disk; every input named
/// by its path); else the buffer, named `name`, alone as a config, or as a patch onto a minimal
/// worker config.
pub(crate) fn context(
    path: Option<&Path>,
    name: &str,
    text: &str,
    buffer: &dyn Fn(&Path) -> Option<String>,
    release: talos_config::Release,
) -> Context {
    let mut options = CheckOptions { checks: Checks::Lint, release, ..CheckOptions::default() };
    let project = path.and_then(|p| Project::find(p).map(|found| (p, found)));
    // The project's release, mode and host ranges hold for every file under it, listed or not.
    if let Some((_, Ok(project))) = &project {
        if let Some(mode) = project.mode.as_deref().and_then(|m| m.parse().ok()) {
            options.mode = mode;
        }
        options.host_ranges = project.host_ranges.iter().filter_map(|r| r.parse().ok()).collect();
        options.release = project.release.unwrap_or(release);
    }
    // A project file that cannot be read is said, not silently passed over.
    let unread = match &project {
        Some((_, Err(e))) => format!(" ({} not used: {e})", super::project::FILE_NAME),
        _ => String::new(),
    };
    if let Some((path, Ok(project))) = project
        && let Some(set) = project.set_of(path)
    {
        let read = |p: &Path| -> PatchSource {
            let key = p.display().to_string();
            let bytes = if p == path {
                text.to_string()
            } else {
                buffer(p).or_else(|| std::fs::read_to_string(p).ok()).unwrap_or_default()
            };
            PatchSource::new(key, bytes)
        };
        let how = format!(
            "checked with {} ({}, then {} patches)",
            project.file.display(),
            set.base.display(),
            set.patches.len()
        );
        return Context {
            base: read(&set.base),
            patches: set.patches.iter().map(|p| read(p)).collect(),
            name: path.display().to_string(),
            options,
            how,
        };
    }
    let this = PatchSource::new(name, text.as_bytes());
    if is_config(text) {
        Context {
            base: this,
            patches: Vec::new(),
            name: name.to_string(),
            options,
            how: format!("checked alone as a config{unread}"),
        }
    } else {
        Context {
            base: PatchSource::new("(minimal worker config)", MINIMAL_BASE),
            patches: vec![this],
            name: name.to_string(),
            options,
            how: format!("checked as a patch onto a minimal worker config (no .labctl.toml lists it){unread}"),
        }
    }
}

/// The diagnostics of the buffer in its context (only those at the buffer's own lines).
pub(crate) fn findings(cx: &Context) -> Vec<Finding> {
    let Ok(checked) = check(&cx.base, &cx.patches, &cx.options) else { return Vec::new() };
    checked
        .diagnostics()
        .iter()
        .filter_map(|d| {
            let site = d.site()?;
            (*site.input == *cx.name).then(|| Finding {
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
        .collect()
}

/// Where the merged value at this place was last set (provenance): input name, 0-based line
/// and column.
pub(crate) fn origin(cx: &Context, at: &Place) -> Option<(String, usize, usize)> {
    let located = Provenance::trace(&cx.base, &cx.patches).locate(&at.document, &at.path)?;
    Some((located.site.input.to_string(), located.site.line.saturating_sub(1), located.site.column.saturating_sub(1)))
}

/// A key's place: its document and the path to it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Place {
    pub document: DocumentId,
    pub path: FieldPath,
}

impl Place {
    /// The keys only (list items left out): the schema's path.
    pub(crate) fn keys(&self) -> Vec<String> {
        self.path
            .segments()
            .iter()
            .filter_map(|s| if let Segment::Key(k) = s { Some(k.clone()) } else { None })
            .collect()
    }
}

/// The place of the key at the 0-based (line, column); `None` outside any key.
pub(crate) fn path_at(text: &str, line: usize, column: usize) -> Option<Place> {
    let docs = talos_yaml::parse::parse_documents(text.as_bytes()).ok()?;
    // The document whose lines hold the position: the last one starting at or before it.
    let doc = docs.iter().rev().find(|d| d.mark.line.saturating_sub(1) <= line)?;
    let text_of = |key: &str| doc.get(key).and_then(|k| k.as_scalar()).map(|s| s.text.clone());
    let kind = text_of("kind").unwrap_or_else(|| "v1alpha1".to_string());
    let document = DocumentId::new(kind, text_of("name").as_deref());
    let path = descend(doc, line, column, &FieldPath::root())?;
    Some(Place { document, path })
}

/// The path of the key at (line, column) below `node`, which is at `here`.
fn descend(node: &Node, line: usize, column: usize, here: &FieldPath) -> Option<FieldPath> {
    match &node.value {
        NodeValue::Sequence(items, _) => {
            items.iter().enumerate().find_map(|(i, item)| descend(item, line, column, &here.index(i)))
        }
        NodeValue::Mapping(entries, _) => entries.iter().find_map(|(key, value)| {
            let k = key.as_scalar()?;
            let path = here.key(k.text.as_str());
            let (key_line, key_col) = (key.mark.line.saturating_sub(1), key.mark.column.saturating_sub(1));
            if key_line == line && column >= key_col && column <= key_col + k.text.chars().count() {
                return Some(path);
            }
            descend(value, line, column, &path)
        }),
        NodeValue::Scalar(_) => None,
    }
}

/// The release a file is checked as: its project file's `talos_release`, else `fallback`
/// (`labctl lsp --talos-release`).
pub(crate) fn release_of(path: Option<&Path>, fallback: talos_config::Release) -> talos_config::Release {
    path.and_then(Project::find).and_then(Result::ok).and_then(|p| p.release).unwrap_or(fallback)
}

/// The runtime mode a file is validated for: its project file's `mode`, else container.
pub(crate) fn mode_of(path: Option<&Path>) -> talos_config::Mode {
    let project = path.and_then(Project::find).and_then(Result::ok);
    project.and_then(|p| p.mode?.parse().ok()).unwrap_or(talos_config::Mode::Container)
}

/// The schema of `kind` in `release` walked down `keys` (list items transparent).
pub(crate) fn schema_at(kind: &str, keys: &[String], flavour: Flavour, release: talos_config::Release) -> Option<Json> {
    let mut node = schema::kind_schema_json_for(kind, flavour, release)?;
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

/// What applying the buffer does to a running node (Talos's `--mode auto`): the merged config
/// without it against the one with it. `None` for a config checked alone.
pub(crate) fn reboot_effect(cx: &Context) -> Option<String> {
    let position = cx.patches.iter().position(|p| p.name == cx.name)?;
    let without: Vec<PatchSource> =
        cx.patches.iter().enumerate().filter(|(i, _)| *i != position).map(|(_, p)| p.clone()).collect();
    let merged = |patches: &[PatchSource]| -> Option<talos_config::Config> {
        let merged = talos_config::merge_sources_for(&cx.base, patches, cx.options.release).ok()?;
        talos_config::Config::from_vec_for(merged, cx.options.release).ok()
    };
    let plan = talos_config::plan::plan_apply(&merged(&without)?, &merged(&cx.patches)?).ok()?;
    Some(if plan.live_possible() {
        "Applying this file: no reboot.".to_string()
    } else {
        let fields: Vec<String> = plan.reboot_fields.iter().map(ToString::to_string).collect();
        format!("Applying this file reboots the node ({}).", fields.join(", "))
    })
}

/// The Go type a schema node's field decodes into.
pub(crate) fn go_type(node: &Json) -> Option<String> {
    match entry(node, "x-go-type") {
        Some(Json::Str(text)) => Some(text.clone()),
        _ => None,
    }
}

/// The values a schema node names (an enum's names).
pub(crate) fn values_of(node: &Json) -> Vec<String> {
    match entry(node, "examples") {
        Some(Json::Arr(items)) => {
            items.iter().filter_map(|i| if let Json::Str(s) = i { Some(s.clone()) } else { None }).collect()
        }
        _ => Vec::new(),
    }
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
