//! talosconfig: finding, parsing, choosing a context, endpoints, and writing one out.
// Here: the talosconfig and its contexts, and where the file is. Reading and writing the file are in `file`,
// endpoints in `endpoint`, the PEM key forms in `pem`.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Redacted, Result};

mod endpoint;
mod file;
mod pem;

pub use endpoint::Endpoint;
use pem::pem_blocks;
pub use pem::{ED25519_KEY_BEGIN, ED25519_KEY_END, PKCS8_KEY_BEGIN, PKCS8_KEY_END, rewrite_key_label};

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
