//! The connection (mutual TLS channel) and the typed calls.
// Here: the options, the node target, the client and the helpers every call shares. The calls live
// by concern in `connect`, `machine`, `logs`, `resources` and `apply`.

use std::future::Future;
use std::time::Duration;

use tonic::metadata::{MetadataMap, MetadataValue};
use tonic::transport::Channel;

use crate::config::Endpoint;
use crate::error::{Error, Result, TlsRefusal, is_transport};

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
    /// again for later transport failures on the same channel), else the node's gRPC status.
    fn call_error(&self, node: Option<&str>, status: &tonic::Status) -> Error {
        match self.refusal_in(status) {
            Some(refusal) => Error::tls_refused(refusal),
            None => Error::from_status(node, status),
        }
    }

    /// The certificate refusal a failed call shows, or showed earlier on this channel.
    fn refusal_in(&self, status: &tonic::Status) -> Option<TlsRefusal> {
        let transport = std::error::Error::source(status)?;
        let mut seen = self.refusal.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(refusal) = TlsRefusal::find(&self.endpoint.to_string(), transport) {
            *seen = Some(refusal);
        }
        seen.clone()
    }

    fn fallback(&self, target: &Target) -> String {
        match target {
            Target::Node(n) => n.clone(),
            Target::Endpoint => self.endpoint.to_string(),
        }
    }

    /// Runs one attempt within the call deadline ([`ClientOptions::call_timeout`]).
    async fn within<T, F>(&self, call: &'static str, node: &str, attempt: F) -> Result<Result<T, tonic::Status>>
    where
        F: Future<Output = Result<T, tonic::Status>>,
    {
        tokio::time::timeout(self.options.call_timeout, attempt)
            .await
            .map_err(|_| Error::timeout(call, node, self.options.call_timeout))
    }

    /// A call that changes nothing on the node. `attempt` sends the request and reads the whole
    /// answer; when the connection breaks (or was broken before the call), it runs once more on a
    /// fresh connection. A node's answer, a TLS refusal or a timeout is never retried.
    async fn read<T, F, Fut>(&self, call: &'static str, node: Option<&str>, attempt: F) -> Result<T>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, tonic::Status>>,
    {
        let shown = node.map_or_else(|| self.endpoint.to_string(), str::to_owned);
        match self.within(call, &shown, attempt()).await? {
            Err(status) if self.connection_broke(&status) => match self.within(call, &shown, attempt()).await? {
                Ok(answer) => Ok(answer),
                Err(status) => Err(self.read_error(call, node, &shown, &status, true)),
            },
            result => result.map_err(|status| self.read_error(call, node, &shown, &status, false)),
        }
    }

    /// A call that changes the node: sent at most once. Only a request the channel could not
    /// even start (the connection broke before it was sent) is sent on a fresh connection; a
    /// connection lost after sending, or no answer within the deadline, is
    /// [`crate::ErrorKind::OutcomeUnknown`].
    async fn write<T, F, Fut>(&self, call: &'static str, node: &str, attempt: F) -> Result<T>
    where
        F: Fn() -> Fut,
        Fut: Future<Output = Result<T, tonic::Status>>,
    {
        let deadline = crate::error::go_duration(self.options.call_timeout);
        let unanswered = |e: Error| match e.kind() {
            crate::ErrorKind::Timeout => {
                let cause = tonic::Status::deadline_exceeded(format!("no answer within {deadline}"));
                Error::outcome_unknown(call, node, cause)
            }
            _ => e,
        };
        let mut result = self.within(call, node, attempt()).await.map_err(unanswered)?;
        if matches!(&result, Err(status) if not_sent(status)) {
            result = self.within(call, node, attempt()).await.map_err(unanswered)?;
        }
        result.map_err(|status| {
            if self.connection_broke(&status) {
                Error::outcome_unknown(call, node, status)
            } else {
                self.call_error(Some(node), &status)
            }
        })
    }

    /// Whether a call failed because the connection broke (not by a node's answer, not by a
    /// refused certificate).
    fn connection_broke(&self, status: &tonic::Status) -> bool {
        (not_sent(status) || is_transport(status)) && self.refusal_in(status).is_none()
    }

    fn read_error(
        &self,
        call: &'static str,
        node: Option<&str>,
        shown: &str,
        status: &tonic::Status,
        retried: bool,
    ) -> Error {
        if self.connection_broke(status) {
            Error::connection_lost(call, shown, None, retried, status.clone())
        } else {
            self.call_error(node, status)
        }
    }
}

/// Whether the channel failed before sending the request: tonic's clients answer `Unknown`
/// with this text when the connection was not ready (it is re-established on the next call).
fn not_sent(status: &tonic::Status) -> bool {
    status.code() == tonic::Code::Unknown && status.message().starts_with("Service was not ready: ")
}

fn metadata_value(node: &str) -> Result<MetadataValue<tonic::metadata::Ascii>> {
    if node.is_empty() {
        return Err(Error::config("empty node target"));
    }
    MetadataValue::try_from(node).map_err(|_| Error::config(format!("invalid node target {node:?}")))
}

/// The routing metadata of a MachineService call: `nodes` for a node target.
fn machine_metadata(target: &Target) -> Result<MetadataMap> {
    match target {
        Target::Node(node) => machine_metadata_many(&[node]),
        Target::Endpoint => Ok(MetadataMap::new()),
    }
}

/// The routing metadata of a MachineService call fanned out to several nodes.
fn machine_metadata_many(nodes: &[&str]) -> Result<MetadataMap> {
    let mut metadata = MetadataMap::new();
    for node in nodes {
        metadata.append("nodes", metadata_value(node)?);
    }
    Ok(metadata)
}

/// The routing metadata of a COSI call: `node` for a node target.
fn cosi_metadata(target: &Target) -> Result<MetadataMap> {
    let mut metadata = MetadataMap::new();
    if let Target::Node(node) = target {
        metadata.insert("node", metadata_value(node)?);
    }
    Ok(metadata)
}

/// A request with routing metadata (made afresh for each attempt of a call).
fn request<T>(metadata: &MetadataMap, message: T) -> tonic::Request<T> {
    tonic::Request::from_parts(metadata.clone(), tonic::Extensions::default(), message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_become_metadata() {
        let req = request(&machine_metadata_many(&["10.5.0.2", "10.5.0.3"]).unwrap(), ());
        let nodes: Vec<_> = req.metadata().get_all("nodes").iter().map(|v| v.to_str().unwrap().to_string()).collect();
        assert_eq!(nodes, ["10.5.0.2", "10.5.0.3"]);
        let req = request(&cosi_metadata(&Target::node("10.5.0.3")).unwrap(), ());
        assert_eq!(req.metadata().get("node").unwrap(), "10.5.0.3");
        assert!(req.metadata().get("nodes").is_none());
        let req = request(&machine_metadata(&Target::Endpoint).unwrap(), ());
        assert!(req.metadata().is_empty());
        assert!(machine_metadata(&Target::node("bad\nnode")).is_err());
    }
}
