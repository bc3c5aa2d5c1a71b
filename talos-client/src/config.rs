//! talosconfig: finding, parsing, choosing a context, endpoints, and writing one out.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt;
use std::net::Ipv6Addr;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use talos_yaml::node::{Node, NodeValue, ScalarStyle};

use crate::error::{Error, Redacted, Result};

/// apid's port, added to endpoints without one.
pub const DEFAULT_PORT: u16 = 50000;

/// The read-only fallback path Talos mounts into pods.
pub const POD_TALOSCONFIG: &str = "/var/run/secrets/talos.dev/config";

/// A parsed talosconfig: the current context's name and every context.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Talosconfig {
    /// The `context:` value (the active context), if any.
    pub context: Option<String>,
    /// The contexts by name.
    pub contexts: BTreeMap<String, Context>,
}

/// One talosconfig context: endpoints, default nodes and the client's PKI (PEM, already base64-decoded).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Context {
    /// Endpoints as written (`host`, `host:port`, `[v6]:port`, `https://host`), legacy `target` appended.
    pub endpoints: Vec<String>,
    /// Default nodes (targets) for commands that take `--nodes`.
    pub nodes: Vec<String>,
    ca: Vec<u8>,
    crt: Vec<u8>,
    key: Vec<u8>,
}

impl fmt::Debug for Talosconfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Talosconfig").field("context", &self.context).field("contexts", &self.contexts).finish()
    }
}

impl fmt::Debug for Context {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Context")
            .field("endpoints", &self.endpoints)
            .field("nodes", &self.nodes)
            .field("ca", &Redacted(if self.ca.is_empty() { "<none>" } else { "<set>" }))
            .field("crt", &Redacted(if self.crt.is_empty() { "<none>" } else { "<set>" }))
            .field("key", &Redacted(if self.key.is_empty() { "<none>" } else { "<redacted>" }))
            .finish()
    }
}

impl Context {
    /// A context from PEM texts (the CA bundle may hold several certificates).
    pub fn new(
        endpoints: Vec<String>,
        nodes: Vec<String>,
        ca_pem: Vec<u8>,
        crt_pem: Vec<u8>,
        key_pem: Vec<u8>,
    ) -> Self {
        Context { endpoints, nodes, ca: ca_pem, crt: crt_pem, key: key_pem }
    }

    /// The CA bundle (PEM).
    pub fn ca_pem(&self) -> &[u8] {
        &self.ca
    }

    /// The client certificate (PEM).
    pub fn crt_pem(&self) -> &[u8] {
        &self.crt
    }

    /// The client key (PEM, as stored: possibly labelled `ED25519 PRIVATE KEY`). Secret: never log it.
    pub fn key_pem(&self) -> &[u8] {
        &self.key
    }

    /// The client key with the `ED25519 PRIVATE KEY` label rewritten to `PRIVATE KEY`, as rustls needs.
    pub fn key_pem_for_rustls(&self) -> Vec<u8> {
        rewrite_key_label(&self.key)
    }

    /// Every `CERTIFICATE` block of the CA bundle, each as its own PEM text.
    pub fn ca_certificates(&self) -> Vec<Vec<u8>> {
        pem_blocks(&self.ca, "CERTIFICATE")
    }

    /// The endpoints parsed, with the default port applied.
    pub fn parsed_endpoints(&self) -> Result<Vec<Endpoint>> {
        if self.endpoints.is_empty() {
            return Err(Error::config("failed to determine endpoints"));
        }
        self.endpoints.iter().map(|e| Endpoint::parse(e)).collect()
    }

    /// Checks that the PKI is present and looks like PEM (without revealing any of it).
    pub fn check_pki(&self) -> Result<()> {
        if self.ca_certificates().is_empty() {
            return Err(Error::config("talosconfig: ca holds no PEM CERTIFICATE block"));
        }
        if pem_blocks(&self.crt, "CERTIFICATE").is_empty() {
            return Err(Error::config("talosconfig: crt holds no PEM CERTIFICATE block"));
        }
        let key = self.key_pem_for_rustls();
        if pem_blocks(&key, "PRIVATE KEY").is_empty() {
            return Err(Error::config("talosconfig: key holds no PEM PRIVATE KEY block"));
        }
        Ok(())
    }
}

/// Rewrites `-----BEGIN/END ED25519 PRIVATE KEY-----` to the PKCS#8 `PRIVATE KEY` label; other input is unchanged.
///
/// ```
/// let fixed = talos_client::config::rewrite_key_label(b"-----BEGIN ED25519 PRIVATE KEY-----\nMC4=\n-----END ED25519 PRIVATE KEY-----\n");
/// assert_eq!(fixed, b"-----BEGIN PRIVATE KEY-----\nMC4=\n-----END PRIVATE KEY-----\n");
/// ```
pub fn rewrite_key_label(pem: &[u8]) -> Vec<u8> {
    let pem = replace_bytes(pem, ED25519_KEY_BEGIN.as_bytes(), PKCS8_KEY_BEGIN.as_bytes());
    replace_bytes(&pem, ED25519_KEY_END.as_bytes(), PKCS8_KEY_END.as_bytes())
}

/// The BEGIN line of a key as Talos writes it into a talosconfig.
pub const ED25519_KEY_BEGIN: &str = "-----BEGIN ED25519 PRIVATE KEY-----";
/// The END line of a key as Talos writes it into a talosconfig.
pub const ED25519_KEY_END: &str = "-----END ED25519 PRIVATE KEY-----";
/// The BEGIN line of a PKCS#8 key (what rustls reads).
pub const PKCS8_KEY_BEGIN: &str = "-----BEGIN PRIVATE KEY-----";
/// The END line of a PKCS#8 key (what rustls reads).
pub const PKCS8_KEY_END: &str = "-----END PRIVATE KEY-----";

fn replace_bytes(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut i = 0;
    while i < haystack.len() {
        if haystack[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(haystack[i]);
            i += 1;
        }
    }
    out
}

/// The PEM blocks with exactly `label`, each re-emitted as its own text (BEGIN line to END line).
fn pem_blocks(pem: &[u8], label: &str) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(pem);
    let begin = format!("-----BEGIN {label}-----");
    let end = format!("-----END {label}-----");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.trim() == begin {
            current = Some(format!("{begin}\n"));
        } else if line.trim() == end {
            if let Some(mut block) = current.take() {
                block.push_str(&end);
                block.push('\n');
                blocks.push(block.into_bytes());
            }
        } else if let Some(block) = current.as_mut() {
            block.push_str(line.trim());
            block.push('\n');
        }
    }
    blocks
}

/// An endpoint: host (IPv6 without brackets) and port.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// Host name or IP address (IPv6 without brackets).
    pub host: String,
    /// TCP port.
    pub port: u16,
}

impl Endpoint {
    /// Parses `host`, `host:port`, `[v6]`, `[v6]:port`, a bare IPv6 address, or `https://host[:port][/]`.
    /// A missing port is 50000, or 443 for an `https://` URL (as talosctl does).
    ///
    /// ```
    /// use talos_client::config::Endpoint;
    /// assert_eq!(Endpoint::parse("10.5.0.2").unwrap().to_string(), "10.5.0.2:50000");
    /// assert_eq!(Endpoint::parse("[::1]:6000").unwrap().to_string(), "[::1]:6000");
    /// assert_eq!(Endpoint::parse("https://talos.example").unwrap().port, 443);
    /// ```
    pub fn parse(text: &str) -> Result<Endpoint> {
        let bad = |why: &str| Error::config(format!("invalid endpoint {text:?}: {why}"));
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(bad("empty"));
        }
        let (rest, default_port) = match trimmed.split_once("://") {
            Some((scheme, rest)) if scheme.eq_ignore_ascii_case("https") => (rest, 443),
            Some((scheme, _)) => return Err(bad(&format!("unsupported scheme {scheme:?} (only https)"))),
            None => (trimmed, DEFAULT_PORT),
        };
        // Drop a URL path.
        let rest = rest.split('/').next().unwrap_or_default();
        if rest.contains('@') {
            return Err(bad("user info is not supported"));
        }
        let (host, port) = if let Some(after) = rest.strip_prefix('[') {
            let (host, tail) = after.split_once(']').ok_or_else(|| bad("missing ']'"))?;
            let port = match tail {
                "" => default_port,
                t => match t.strip_prefix(':') {
                    Some(p) => parse_port(p).ok_or_else(|| bad("invalid port"))?,
                    None => return Err(bad("unexpected text after ']'")),
                },
            };
            if host.parse::<Ipv6Addr>().is_err() {
                return Err(bad("not an IPv6 address inside brackets"));
            }
            (host.to_string(), port)
        } else if rest.parse::<Ipv6Addr>().is_ok() {
            (rest.to_string(), default_port)
        } else {
            match rest.rsplit_once(':') {
                Some((host, port)) => {
                    if host.contains(':') {
                        return Err(bad("IPv6 addresses with a port need brackets"));
                    }
                    (host.to_string(), parse_port(port).ok_or_else(|| bad("invalid port"))?)
                }
                None => (rest.to_string(), default_port),
            }
        };
        if host.is_empty() {
            return Err(bad("empty host"));
        }
        if host.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(bad("invalid host"));
        }
        Ok(Endpoint { host, port })
    }

    /// The `https://` URI tonic connects to.
    pub fn uri(&self) -> String {
        format!("https://{self}")
    }
}

fn parse_port(text: &str) -> Option<u16> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse::<u16>().ok().filter(|p| *p != 0)
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.host.contains(':') {
            write!(f, "[{}]:{}", self.host, self.port)
        } else {
            write!(f, "{}:{}", self.host, self.port)
        }
    }
}

/// Where the talosconfig is: the explicit path (`--talosconfig`) if given, else the first existing of
/// `$TALOSCONFIG`, `$TALOS_HOME/config` (absolute `TALOS_HOME` only) or `~/.talos/config`, and
/// `/var/run/secrets/talos.dev/config`. With none existing, the first candidate is returned (reading it then fails
/// with a clear error).
pub fn resolve_path(explicit: Option<&Path>) -> Result<PathBuf> {
    resolve_path_with(explicit, |name| std::env::var_os(name), |p| p.exists())
}

/// [`resolve_path`] with the environment and the file system supplied (for tests).
pub fn resolve_path_with(
    explicit: Option<&Path>,
    env: impl Fn(&str) -> Option<OsString>,
    exists: impl Fn(&Path) -> bool,
) -> Result<PathBuf> {
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    let mut candidates = Vec::new();
    if let Some(p) = env("TALOSCONFIG").filter(|v| !v.is_empty()) {
        candidates.push(PathBuf::from(p));
    }
    match env("TALOS_HOME").map(PathBuf::from).filter(|p| p.is_absolute()) {
        Some(home) => candidates.push(home.join("config")),
        None => {
            if let Some(home) = env("HOME").filter(|v| !v.is_empty()) {
                candidates.push(PathBuf::from(home).join(".talos").join("config"));
            }
        }
    }
    candidates.push(PathBuf::from(POD_TALOSCONFIG));
    if let Some(found) = candidates.iter().find(|p| exists(p)) {
        return Ok(found.clone());
    }
    candidates
        .into_iter()
        .next()
        .ok_or_else(|| Error::config("cannot determine the talosconfig path: no --talosconfig, TALOSCONFIG or HOME"))
}

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
