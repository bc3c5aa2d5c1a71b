//! The connection (mutual TLS channel) and the typed calls.
// Here: the options, the node target, the client and the helpers every call shares. The calls live
// by concern in `connect`, `machine`, `logs`, `resources` and `apply`.

use std::future::Future;
use std::time::Duration;

use tonic::metadata::MetadataValue;
use tonic::transport::Channel;

use crate::config::Endpoint;
use crate::error::{Error, Result, TlsRefusal};

mod apply;
mod connect;
mod logs;
mod machine;
mod resources;

pub use apply::{AGENT_MODE_TEXT, ApplyMode, ApplyOptions, ApplyResult, PatchOutcome};
pub use connect::MAX_MESSAGE_SIZE;
pub use logs::{LineSplitter, LogLine, LogStream, LogsRequest, MAX_PARTIAL_LINE};
pub use machine::{ServiceEvent, ServiceInfo, VersionInfo, extract_kubeconfig};
pub use resources::{
    ACTIVE_CONFIG_ID, EventType, MACHINE_CONFIG, MEMBERS, MachineConfig, Member, Resource, ResourceKind, SERVICES,
    ServiceResource, WatchEvent, WatchStream,
};

/// Connection settings.
#[derive(Clone, Debug)]
pub struct ClientOptions {
    /// The talosconfig context to use (`--context`); `None` means the current context.
    pub context: Option<String>,
    /// Limit for TCP connect plus TLS handshake, per endpoint.
    pub connect_timeout: Duration,
    /// Limit for a unary call, or for a finite stream to finish (not applied to `follow`/watch streams, only to
    /// their opening).
    pub call_timeout: Duration,
}

impl Default for ClientOptions {
    fn default() -> Self {
        ClientOptions { context: None, connect_timeout: Duration::from_secs(10), call_timeout: Duration::from_secs(60) }
    }
}

/// Which node a call is for, as apid routes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// No routing metadata: the endpoint node serves the call itself.
    Endpoint,
    /// A node address or name as apid knows it (e.g. `10.5.0.3`, no port): sent as `nodes` for MachineService calls
    /// (apid wraps the reply and reports errors in-band) and as `node` for COSI calls.
    Node(String),
}

impl Target {
    /// A node target.
    pub fn node(node: impl Into<String>) -> Target {
        Target::Node(node.into())
    }
}

impl From<&str> for Target {
    fn from(node: &str) -> Target {
        Target::Node(node.to_string())
    }
}

impl From<String> for Target {
    fn from(node: String) -> Target {
        Target::Node(node)
    }
}

impl From<&String> for Target {
    fn from(node: &String) -> Target {
        Target::Node(node.clone())
    }
}

/// A connected Talos API client (cheap to clone; clones share the HTTP/2 connection).
#[derive(Clone)]
pub struct Client {
    channel: Channel,
    endpoint: Endpoint,
    options: ClientOptions,
    /// The server's refusal of our certificate, once seen: later calls on the broken channel
    /// report it again instead of a bare `Canceled`.
    refusal: std::sync::Arc<std::sync::Mutex<Option<TlsRefusal>>>,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client").field("endpoint", &self.endpoint).field("options", &self.options).finish()
    }
}

impl Client {
    /// The error for a failed call: a TLS refusal of our certificate (remembered, and reported
    /// again for later transport failures on the same channel), else the gRPC status.
    fn call_error(&self, node: Option<&str>, status: &tonic::Status) -> Error {
        let endpoint = self.endpoint.to_string();
        let transport = std::error::Error::source(status);
        let mut seen = self.refusal.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(refusal) = transport.and_then(|source| TlsRefusal::find(&endpoint, source)) {
            *seen = Some(refusal.clone());
            return Error::TlsRefused(refusal);
        }
        match (&*seen, transport) {
            (Some(refusal), Some(_)) => Error::TlsRefused(refusal.clone()),
            _ => Error::from_status(node, status),
        }
    }

    fn fallback(&self, target: &Target) -> String {
        match target {
            Target::Node(n) => n.clone(),
            Target::Endpoint => self.endpoint.to_string(),
        }
    }

    async fn timed<T, F>(&self, what: &str, fut: F) -> Result<T>
    where
        F: Future<Output = Result<T>>,
    {
        match tokio::time::timeout(self.options.call_timeout, fut).await {
            Ok(r) => r,
            Err(_) => Err(Error::Timeout { what: what.to_string(), after: self.options.call_timeout }),
        }
    }
}

fn metadata_value(node: &str) -> Result<MetadataValue<tonic::metadata::Ascii>> {
    if node.is_empty() {
        return Err(Error::config("empty node target"));
    }
    MetadataValue::try_from(node).map_err(|_| Error::config(format!("invalid node target {node:?}")))
}

fn machine_request<T>(message: T, target: &Target) -> Result<tonic::Request<T>> {
    let mut req = tonic::Request::new(message);
    if let Target::Node(node) = target {
        req.metadata_mut().append("nodes", metadata_value(node)?);
    }
    Ok(req)
}

fn machine_request_many<T>(message: T, nodes: &[&str]) -> Result<tonic::Request<T>> {
    let mut req = tonic::Request::new(message);
    for node in nodes {
        req.metadata_mut().append("nodes", metadata_value(node)?);
    }
    Ok(req)
}

fn cosi_request<T>(message: T, target: &Target) -> Result<tonic::Request<T>> {
    let mut req = tonic::Request::new(message);
    if let Target::Node(node) = target {
        req.metadata_mut().insert("node", metadata_value(node)?);
    }
    Ok(req)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_become_metadata() {
        let req = machine_request_many((), &["10.5.0.2", "10.5.0.3"]).unwrap();
        let nodes: Vec<_> = req.metadata().get_all("nodes").iter().map(|v| v.to_str().unwrap().to_string()).collect();
        assert_eq!(nodes, ["10.5.0.2", "10.5.0.3"]);
        let req = cosi_request((), &Target::node("10.5.0.3")).unwrap();
        assert_eq!(req.metadata().get("node").unwrap(), "10.5.0.3");
        assert!(req.metadata().get("nodes").is_none());
        let req = machine_request((), &Target::Endpoint).unwrap();
        assert!(req.metadata().is_empty());
        assert!(machine_request((), &Target::node("bad\nnode")).is_err());
    }
}
