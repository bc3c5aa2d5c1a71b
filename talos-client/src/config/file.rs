//! The talosconfig file: reading it (with talosctl's checks and texts), choosing a context, writing it out.

use std::collections::BTreeMap;
use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use talos_yaml::node::{Node, NodeValue, ScalarStyle};

use super::{Context, Talosconfig, resolve_path};
use crate::error::{Error, Result};

impl Talosconfig {
    /// A talosconfig with one context, made current.
    pub fn new(context_name: impl Into<String>, context: Context) -> Self {
        let name = context_name.into();
        let mut contexts = BTreeMap::new();
        contexts.insert(name.clone(), context);
        Talosconfig { context: Some(name), contexts }
    }

    /// Resolves the path (see [`resolve_path`]) and reads the file.
    pub fn load(explicit: Option<&Path>) -> Result<Talosconfig> {
        Talosconfig::from_file(&resolve_path(explicit)?)
    }

    /// Reads and parses a talosconfig file.
    pub fn from_file(path: &Path) -> Result<Talosconfig> {
        let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
        Talosconfig::parse(&bytes).map_err(|e| e.with_config_prefix(&path.display().to_string()))
    }

    /// Parses talosconfig YAML. Unknown keys (`cluster`, `auth`, ...) are ignored; the legacy `target` is appended
    /// to the endpoints; `ca`, `crt` and `key` are standard base64 of PEM text.
    pub fn parse(bytes: &[u8]) -> Result<Talosconfig> {
        if bytes.iter().all(|b| b.is_ascii_whitespace()) {
            return Err(Error::config("talos config file is empty"));
        }
        let docs = talos_yaml::parse::parse_documents(bytes)
            .map_err(|e| Error::config(format!("invalid talosconfig: {}", e.message)))?;
        let Some(root) = docs.into_iter().next() else {
            return Err(Error::config("talos config file is empty"));
        };
        if is_null(&root) {
            return Err(Error::config("talos config file is empty"));
        }
        let entries = mapping(&root, "the top level")?;
        check_duplicates(&root)?;
        let mut cfg = Talosconfig::default();
        for (k, v) in entries {
            match scalar_text(k) {
                Some("context") => cfg.context = string(v, "context")?.filter(|s| !s.is_empty()),
                Some("contexts") => {
                    if is_null(v) {
                        continue;
                    }
                    for (name, ctx) in mapping(v, "contexts")? {
                        let name = scalar_text(name)
                            .ok_or_else(|| Error::config("invalid talosconfig: a context name is not a string"))?;
                        let ctx = parse_context(name, ctx)?;
                        cfg.contexts.insert(name.to_string(), ctx);
                    }
                }
                _ => {}
            }
        }
        Ok(cfg)
    }

    /// The context to use: `name` (e.g. `--context`) if given, else the config's current context.
    pub fn context(&self, name: Option<&str>) -> Result<&Context> {
        match name {
            Some(n) => self.contexts.get(n).ok_or_else(|| Error::config(format!("context {n:?} not found in config"))),
            None => match &self.context {
                Some(n) => self
                    .contexts
                    .get(n)
                    .ok_or_else(|| Error::config(format!("default context {n:?} not found in config"))),
                None => Err(Error::config("no context is set in the talosconfig")),
            },
        }
    }

    /// Serializes as talosctl writes it (YAML, 4-space indent; `ca`/`crt`/`key` base64).
    pub fn to_yaml(&self) -> String {
        let mut top = Vec::new();
        top.push((Node::go_string("context"), Node::go_string(self.context.clone().unwrap_or_default())));
        let mut contexts = Vec::new();
        for (name, c) in &self.contexts {
            let list = |items: &[String]| Node::sequence(items.iter().map(|s| Node::go_string(s.clone())).collect());
            let mut entries = vec![(Node::go_string("endpoints"), list(&c.endpoints))];
            if !c.nodes.is_empty() {
                entries.push((Node::go_string("nodes"), list(&c.nodes)));
            }
            for (key, value) in [("ca", &c.ca), ("crt", &c.crt), ("key", &c.key)] {
                if !value.is_empty() {
                    entries.push((Node::go_string(key), Node::go_string(STANDARD.encode(value))));
                }
            }
            contexts.push((Node::go_string(name.clone()), Node::mapping(entries)));
        }
        top.push((Node::go_string("contexts"), Node::mapping(contexts)));
        talos_yaml::emit_v4::emit_v4(&Node::mapping(top))
    }
}

/// go-yaml's duplicate-key check of one mapping (every later key equal to an earlier one), in its text.
fn duplicate_keys(entries: &[(Node, Node)], errors: &mut Vec<String>) -> bool {
    let before = errors.len();
    for (i, (a, _)) in entries.iter().enumerate() {
        let Some(x) = a.as_scalar() else { continue };
        for (b, _) in &entries[i + 1..] {
            if let Some(y) = b.as_scalar()
                && x.text == y.text
            {
                errors.push(format!(
                    "line {}: mapping key {} already defined at line {}",
                    b.mark.line,
                    talos_go::quote(&y.text),
                    a.mark.line
                ));
            }
        }
    }
    errors.len() > before
}

/// Duplicate keys where talosctl decodes: the top level, `contexts` and each context (go-yaml does not descend into
/// a mapping with duplicates).
fn check_duplicates(root: &Node) -> Result<()> {
    let mut errors = Vec::new();
    if let Some(top) = root.as_mapping()
        && !duplicate_keys(top, &mut errors)
    {
        for (k, v) in top {
            if scalar_text(k) == Some("contexts")
                && let Some(contexts) = v.as_mapping()
                && !duplicate_keys(contexts, &mut errors)
            {
                for (_, ctx) in contexts {
                    if let Some(ctx) = ctx.as_mapping() {
                        duplicate_keys(ctx, &mut errors);
                    }
                }
            }
        }
    }
    if errors.is_empty() {
        return Ok(());
    }
    let mut text = String::from("invalid talosconfig: yaml: unmarshal errors:");
    for e in errors {
        text.push_str("\n  ");
        text.push_str(&e);
    }
    Err(Error::config(text))
}

fn parse_context(name: &str, node: &Node) -> Result<Context> {
    let mut ctx = Context::default();
    if is_null(node) {
        return Ok(ctx);
    }
    let at = format!("context {name:?}");
    let mut target = None;
    for (k, v) in mapping(node, &at)? {
        let Some(key) = scalar_text(k) else { continue };
        match key {
            "endpoints" => ctx.endpoints = strings(v, &format!("{at}: endpoints"))?,
            "nodes" => ctx.nodes = strings(v, &format!("{at}: nodes"))?,
            "target" => target = string(v, &format!("{at}: target"))?,
            "ca" | "crt" | "key" => {
                let text = string(v, &format!("{at}: {key}"))?.unwrap_or_default();
                let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
                let decoded = STANDARD
                    .decode(compact.as_bytes())
                    .map_err(|_| Error::config(format!("{at}: {key} is not valid base64")))?;
                match key {
                    "ca" => ctx.ca = decoded,
                    "crt" => ctx.crt = decoded,
                    _ => ctx.key = decoded,
                }
            }
            _ => {}
        }
    }
    if let Some(t) = target.filter(|t| !t.is_empty()) {
        ctx.endpoints.push(t);
    }
    Ok(ctx)
}

fn is_null(node: &Node) -> bool {
    match &node.value {
        NodeValue::Scalar(s) => {
            s.style == ScalarStyle::Plain && matches!(s.text.as_str(), "" | "~" | "null" | "Null" | "NULL")
        }
        _ => false,
    }
}

fn scalar_text(node: &Node) -> Option<&str> {
    node.as_scalar().map(|s| s.text.as_str())
}

fn mapping<'a>(node: &'a Node, at: &str) -> Result<&'a [(Node, Node)]> {
    node.as_mapping().ok_or_else(|| Error::config(format!("invalid talosconfig: {at} must be a mapping")))
}

fn string(node: &Node, at: &str) -> Result<Option<String>> {
    if is_null(node) {
        return Ok(None);
    }
    match node.as_scalar() {
        Some(s) => Ok(Some(s.text.clone())),
        None => Err(Error::config(format!("invalid talosconfig: {at} must be a string"))),
    }
}

fn strings(node: &Node, at: &str) -> Result<Vec<String>> {
    if is_null(node) {
        return Ok(Vec::new());
    }
    let items = node.as_sequence().ok_or_else(|| Error::config(format!("invalid talosconfig: {at} must be a list")))?;
    items.iter().map(|i| string(i, at).map(Option::unwrap_or_default)).collect()
}
