//! The connection (mutual TLS channel) and the typed calls.

use std::collections::BTreeMap;
use std::future::Future;
use std::io::Read as _;
use std::net::IpAddr;
use std::time::Duration;

use tonic::metadata::MetadataValue;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};

use crate::config::{Context, Endpoint, Talosconfig};
use crate::error::{Code, Error, Result, TlsRefusal};
use crate::proto::common;
use crate::proto::cosi::resource as cosi;
use crate::proto::cosi::resource::state_client::StateClient;
use crate::proto::machine::machine_service_client::MachineServiceClient;
use crate::proto::machine::{self, apply_configuration_request::Mode as ProtoMode};
use crate::proto::talos::resource::definitions::{cluster, enums, v1alpha1};
use crate::reply::{in_band_error, node_of, single_reply};

/// The receive limit talosctl uses (`constants.GRPCMaxMessageSize`).
pub const MAX_MESSAGE_SIZE: usize = 32 << 20;

/// Limit on the unpacked kubeconfig archive (a kubeconfig is a few KiB).
const MAX_KUBECONFIG: u64 = 16 << 20;

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

/// `talosctl version` for one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionInfo {
    /// The node (`metadata.hostname`, else the target or endpoint).
    pub node: String,
    /// Release tag, e.g. `v1.13.10`.
    pub tag: String,
    /// Git SHA.
    pub sha: String,
    /// Build date (empty in release builds).
    pub built: String,
    /// Go version.
    pub go_version: String,
    /// OS (`linux`).
    pub os: String,
    /// Architecture (`amd64`).
    pub arch: String,
    /// Platform name (`container` in Docker).
    pub platform_name: String,
    /// Platform (runtime) mode: `container`, `metal` or `cloud`.
    pub platform_mode: String,
    /// RBAC enabled.
    pub rbac: bool,
}

/// One service event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceEvent {
    /// Event message.
    pub msg: String,
    /// State at the event.
    pub state: String,
    /// Time of the event.
    pub ts: Option<prost_types::Timestamp>,
}

/// A service as `talosctl services`/`service <id>` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceInfo {
    /// The node.
    pub node: String,
    /// Service id (`kubelet`, ...).
    pub id: String,
    /// State (`Running`, `Waiting`, ...).
    pub state: String,
    /// Health is unknown (no health check).
    pub health_unknown: bool,
    /// Healthy.
    pub healthy: bool,
    /// Last health message.
    pub last_health_message: String,
    /// Events, oldest first as Talos sends them ([`ServiceInfo::events_newest_first`] reverses).
    pub events: Vec<ServiceEvent>,
}

impl ServiceInfo {
    /// The events newest first, as `talosctl service <id>` prints them.
    pub fn events_newest_first(&self) -> Vec<ServiceEvent> {
        self.events.iter().rev().cloned().collect()
    }

    /// `?`, `OK` or `Fail`, as the HEALTH column shows.
    pub fn health_text(&self) -> &'static str {
        if self.health_unknown {
            "?"
        } else if self.healthy {
            "OK"
        } else {
            "Fail"
        }
    }
}

/// Which log source to read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogsRequest {
    /// Service or container id (`kubelet`, `machined`, ...).
    pub id: String,
    /// Read Kubernetes containers (`-k`: namespace `k8s.io`, CRI) instead of Talos services.
    pub kubernetes: bool,
    /// Keep streaming (`-f`).
    pub follow: bool,
    /// Only the last N lines (`--tail`); `None` = everything (-1).
    pub tail: Option<u32>,
}

impl LogsRequest {
    /// All logs of a Talos service, no follow.
    pub fn service(id: impl Into<String>) -> LogsRequest {
        LogsRequest { id: id.into(), kubernetes: false, follow: false, tail: None }
    }
}

/// One log line and its node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// The node (`metadata.hostname`, else the target or endpoint).
    pub node: String,
    /// The line without its `\n` (lossy UTF-8).
    pub line: String,
}

/// Longest partial line kept per node: a peer sending more bytes without a `\n` gets them flushed as a line of
/// this size (so a misbehaving peer cannot grow the buffer without limit).
pub const MAX_PARTIAL_LINE: usize = 1 << 20;

/// Splits raw log chunks into lines, per node. Each byte is scanned once; a partial line longer than
/// [`MAX_PARTIAL_LINE`] is flushed as a line.
#[derive(Debug, Default)]
pub struct LineSplitter {
    partial: BTreeMap<String, Vec<u8>>,
}

impl LineSplitter {
    /// Feeds one chunk; returns the lines it completes.
    pub fn push(&mut self, node: &str, bytes: &[u8]) -> Vec<LogLine> {
        let buf = self.partial.entry(node.to_string()).or_default();
        let mut lines = Vec::new();
        let emit = |line: &[u8], lines: &mut Vec<LogLine>| {
            lines.push(LogLine { node: node.to_string(), line: String::from_utf8_lossy(line).into_owned() });
        };
        let mut rest = bytes;
        loop {
            let (piece, complete) = match rest.iter().position(|b| *b == b'\n') {
                Some(pos) => (&rest[..pos], Some(&rest[pos + 1..])),
                None => (rest, None),
            };
            let mut piece = piece;
            // Flush whole MAX_PARTIAL_LINE-sized pieces of an overlong line.
            while buf.len() + piece.len() > MAX_PARTIAL_LINE {
                let room = MAX_PARTIAL_LINE - buf.len();
                buf.extend_from_slice(&piece[..room]);
                piece = &piece[room..];
                emit(buf, &mut lines);
                buf.clear();
            }
            buf.extend_from_slice(piece);
            match complete {
                Some(after) => {
                    let line: &[u8] = buf;
                    emit(line.strip_suffix(b"\r").unwrap_or(line), &mut lines);
                    buf.clear();
                    rest = after;
                }
                None => break,
            }
        }
        lines
    }

    /// The unterminated last lines, at the end of the stream.
    pub fn finish(&mut self) -> Vec<LogLine> {
        std::mem::take(&mut self.partial)
            .into_iter()
            .filter(|(_, b)| !b.is_empty())
            .map(|(node, b)| LogLine { node, line: String::from_utf8_lossy(&b).into_owned() })
            .collect()
    }
}

/// A log stream, read line by line.
pub struct LogStream {
    stream: tonic::Streaming<common::Data>,
    fallback: String,
    splitter: LineSplitter,
    ready: std::collections::VecDeque<LogLine>,
    error_after: Option<Error>,
    done: bool,
}

impl std::fmt::Debug for LogStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogStream").field("fallback", &self.fallback).field("done", &self.done).finish()
    }
}

impl LogStream {
    /// The next line; `None` at the end of the stream. A node's in-band error ends the stream with that error
    /// (after the lines already received); `Canceled` ends it normally.
    pub async fn next_line(&mut self) -> Option<Result<LogLine>> {
        loop {
            if let Some(line) = self.ready.pop_front() {
                return Some(Ok(line));
            }
            if self.done {
                return self.error_after.take().map(Err);
            }
            match self.stream.message().await {
                Ok(Some(data)) => {
                    if let Some(err) = in_band_error(&data, &self.fallback) {
                        self.finish(Some(err));
                    } else {
                        let node = node_of(&data, &self.fallback);
                        self.ready.extend(self.splitter.push(&node, &data.bytes));
                    }
                }
                Ok(None) => self.finish(None),
                Err(status) if status.code() == Code::Cancelled => self.finish(None),
                Err(status) => self.finish(Some(Error::from_status(Some(&self.fallback), &status))),
            }
        }
    }

    fn finish(&mut self, error: Option<Error>) {
        self.done = true;
        self.ready.extend(self.splitter.finish());
        self.error_after = error;
    }

    /// Reads the stream to its end.
    pub async fn collect(mut self) -> Result<Vec<LogLine>> {
        let mut out = Vec::new();
        while let Some(item) = self.next_line().await {
            out.push(item?);
        }
        Ok(out)
    }
}

/// A COSI resource type: namespace and type name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResourceKind {
    /// Namespace (`cluster`, `config`, `runtime`).
    pub namespace: &'static str,
    /// Type (`Members.cluster.talos.dev`, ...).
    pub type_: &'static str,
}

/// `talosctl get members`.
pub const MEMBERS: ResourceKind = ResourceKind { namespace: "cluster", type_: "Members.cluster.talos.dev" };
/// `talosctl get machineconfig` (ids `v1alpha1`, `persistent`).
pub const MACHINE_CONFIG: ResourceKind = ResourceKind { namespace: "config", type_: "MachineConfigs.config.talos.dev" };
/// `talosctl get services`.
pub const SERVICES: ResourceKind = ResourceKind { namespace: "runtime", type_: "Services.v1alpha1.talos.dev" };
/// The active machine config's id.
pub const ACTIVE_CONFIG_ID: &str = "v1alpha1";

/// A COSI resource as received.
#[derive(Clone, PartialEq)]
pub struct Resource {
    /// The node (the target string, else the endpoint): COSI replies carry no metadata wrapper.
    pub node: String,
    /// Metadata (namespace, type, id, version, timestamps, labels, annotations).
    pub metadata: cosi::Metadata,
    /// `spec.proto_spec`: the protobuf-encoded spec.
    pub proto_spec: Vec<u8>,
    /// `spec.yaml_spec`: the YAML spec.
    pub yaml_spec: String,
}

impl std::fmt::Debug for Resource {
    // Specs may hold secrets (the machine config does): show only the metadata.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resource")
            .field("node", &self.node)
            .field("namespace", &self.metadata.namespace)
            .field("type", &self.metadata.r#type)
            .field("id", &self.metadata.id)
            .field("version", &self.metadata.version)
            .finish_non_exhaustive()
    }
}

impl Resource {
    fn from_proto(node: &str, r: Option<cosi::Resource>) -> Result<Resource> {
        let r = r.ok_or_else(|| Error::protocol(Some(node), "reply without a resource"))?;
        let metadata = r.metadata.ok_or_else(|| Error::protocol(Some(node), "resource without metadata"))?;
        let spec = r.spec.unwrap_or_default();
        Ok(Resource { node: node.to_string(), metadata, proto_spec: spec.proto_spec, yaml_spec: spec.yaml_spec })
    }

    /// The resource version as a number (`None` for `undefined` or garbage).
    pub fn version(&self) -> Option<u64> {
        self.metadata.version.parse().ok()
    }

    fn decode<M: prost::Message + Default>(&self) -> Result<M> {
        M::decode(self.proto_spec.as_slice())
            .map_err(|e| Error::protocol(Some(&self.node), format!("cannot decode {} spec: {e}", self.metadata.r#type)))
    }
}

/// A cluster member (`talosctl get members`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The node asked.
    pub node: String,
    /// Resource id (the member's hostname).
    pub id: String,
    /// Resource version.
    pub version: String,
    /// Discovery node id.
    pub node_id: String,
    /// Addresses.
    pub addresses: Vec<IpAddr>,
    /// Hostname.
    pub hostname: String,
    /// `controlplane`, `worker`, `init` or `unknown`.
    pub machine_type: String,
    /// e.g. `Talos (v1.13.10)`.
    pub operating_system: String,
    /// API server port (control planes only).
    pub api_server_port: Option<i64>,
}

impl Member {
    fn from_resource(r: &Resource) -> Result<Member> {
        let spec: cluster::MemberSpec = r.decode()?;
        let addresses = spec
            .addresses
            .iter()
            .filter_map(|a| match a.ip.len() {
                4 => <[u8; 4]>::try_from(a.ip.as_slice()).ok().map(IpAddr::from),
                16 => <[u8; 16]>::try_from(a.ip.as_slice()).ok().map(IpAddr::from),
                _ => None,
            })
            .collect();
        let machine_type = match enums::MachineType::try_from(spec.machine_type) {
            Ok(enums::MachineType::TypeInit) => "init",
            Ok(enums::MachineType::TypeControlPlane) => "controlplane",
            Ok(enums::MachineType::TypeWorker) => "worker",
            _ => "unknown",
        };
        Ok(Member {
            node: r.node.clone(),
            id: r.metadata.id.clone(),
            version: r.metadata.version.clone(),
            node_id: spec.node_id,
            addresses,
            hostname: spec.hostname,
            machine_type: machine_type.to_string(),
            operating_system: spec.operating_system,
            api_server_port: spec.control_plane.map(|c| c.api_server_port),
        })
    }
}

/// A `Services.v1alpha1.talos.dev` resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceResource {
    /// The node asked.
    pub node: String,
    /// Service id.
    pub id: String,
    /// Resource version.
    pub version: String,
    /// Running.
    pub running: bool,
    /// Healthy.
    pub healthy: bool,
    /// Health unknown.
    pub unknown: bool,
}

impl ServiceResource {
    fn from_resource(r: &Resource) -> Result<ServiceResource> {
        let spec: v1alpha1::ServiceSpec = r.decode()?;
        Ok(ServiceResource {
            node: r.node.clone(),
            id: r.metadata.id.clone(),
            version: r.metadata.version.clone(),
            running: spec.running,
            healthy: spec.healthy,
            unknown: spec.unknown,
        })
    }
}

/// A machine config resource: the exact bytes and the resource version. Debug hides the bytes (secrets).
#[derive(Clone, PartialEq, Eq)]
pub struct MachineConfig {
    /// The node asked.
    pub node: String,
    /// `v1alpha1` or `persistent`.
    pub id: String,
    /// Resource version (decimal string).
    pub version: String,
    /// The config exactly as submitted (`MachineConfigSpec.yaml_marshalled`).
    pub bytes: Vec<u8>,
}

impl std::fmt::Debug for MachineConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MachineConfig")
            .field("node", &self.node)
            .field("id", &self.id)
            .field("version", &self.version)
            .field("bytes", &format_args!("<{} bytes>", self.bytes.len()))
            .finish()
    }
}

impl MachineConfig {
    fn from_resource(r: &Resource) -> Result<MachineConfig> {
        let spec: crate::proto::resource::config::MachineConfigSpec = r.decode()?;
        Ok(MachineConfig {
            node: r.node.clone(),
            id: r.metadata.id.clone(),
            version: r.metadata.version.clone(),
            bytes: spec.yaml_marshalled,
        })
    }
}

/// A watch event type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventType {
    /// Created (also the bootstrap contents).
    Created,
    /// Updated.
    Updated,
    /// Destroyed.
    Destroyed,
    /// The bootstrap contents are complete.
    Bootstrapped,
    /// The watch failed (see [`WatchEvent::error`]).
    Errored,
    /// No-op (bookmarks).
    Noop,
    /// A value this client does not know.
    Unknown(i32),
}

/// One watch event.
#[derive(Clone, Debug)]
pub struct WatchEvent {
    /// What happened.
    pub event_type: EventType,
    /// The resource (absent for bootstrapped/no-op events).
    pub resource: Option<Resource>,
    /// The previous resource, for updates.
    pub old: Option<Resource>,
    /// The error text of an `Errored` event.
    pub error: Option<String>,
}

/// A COSI watch.
pub struct WatchStream {
    stream: tonic::Streaming<cosi::WatchResponse>,
    node: String,
    ready: std::collections::VecDeque<cosi::Event>,
}

impl std::fmt::Debug for WatchStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WatchStream").field("node", &self.node).finish_non_exhaustive()
    }
}

impl WatchStream {
    /// The next event; `None` when the stream ends (or is cancelled).
    pub async fn next_event(&mut self) -> Option<Result<WatchEvent>> {
        loop {
            if let Some(e) = self.ready.pop_front() {
                return Some(self.convert(e));
            }
            match self.stream.message().await {
                Ok(Some(resp)) => self.ready.extend(resp.event),
                Ok(None) => return None,
                Err(status) if status.code() == Code::Cancelled => return None,
                Err(status) => return Some(Err(Error::from_status(Some(&self.node), &status))),
            }
        }
    }

    fn convert(&self, e: cosi::Event) -> Result<WatchEvent> {
        let event_type = match cosi::EventType::try_from(e.event_type) {
            Ok(cosi::EventType::Created) => EventType::Created,
            Ok(cosi::EventType::Updated) => EventType::Updated,
            Ok(cosi::EventType::Destroyed) => EventType::Destroyed,
            Ok(cosi::EventType::Bootstrapped) => EventType::Bootstrapped,
            Ok(cosi::EventType::Errored) => EventType::Errored,
            Ok(cosi::EventType::Noop) => EventType::Noop,
            Err(_) => EventType::Unknown(e.event_type),
        };
        let resource = e.resource.map(|r| Resource::from_proto(&self.node, Some(r))).transpose()?;
        let old = e.old.map(|r| Resource::from_proto(&self.node, Some(r))).transpose()?;
        Ok(WatchEvent { event_type, resource, old, error: e.error })
    }
}

/// How to apply a configuration (`--mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ApplyMode {
    /// Live if possible, else with a reboot (talosctl's default).
    Auto,
    /// Live only; refused if the change needs a reboot.
    NoReboot,
    /// Persist and reboot.
    Reboot,
    /// Persist for the next boot.
    Staged,
    /// Live, rolled back after the try timeout unless confirmed by another apply.
    Try,
}

impl ApplyMode {
    /// The CLI name (`auto`, `no-reboot`, `reboot`, `staged`, `try`).
    pub fn as_str(self) -> &'static str {
        match self {
            ApplyMode::Auto => "auto",
            ApplyMode::NoReboot => "no-reboot",
            ApplyMode::Reboot => "reboot",
            ApplyMode::Staged => "staged",
            ApplyMode::Try => "try",
        }
    }

    /// The protobuf enum.
    pub fn to_proto(self) -> ProtoMode {
        match self {
            ApplyMode::Auto => ProtoMode::Auto,
            ApplyMode::NoReboot => ProtoMode::NoReboot,
            ApplyMode::Reboot => ProtoMode::Reboot,
            ApplyMode::Staged => ProtoMode::Staged,
            ApplyMode::Try => ProtoMode::Try,
        }
    }

    /// From the protobuf enum value (`None` if unknown).
    pub fn from_proto(value: i32) -> Option<ApplyMode> {
        Some(match ProtoMode::try_from(value).ok()? {
            ProtoMode::Auto => ApplyMode::Auto,
            ProtoMode::NoReboot => ApplyMode::NoReboot,
            ProtoMode::Reboot => ApplyMode::Reboot,
            ProtoMode::Staged => ApplyMode::Staged,
            ProtoMode::Try => ApplyMode::Try,
        })
    }
}

impl std::str::FromStr for ApplyMode {
    type Err = Error;

    fn from_str(s: &str) -> Result<ApplyMode> {
        match s {
            "auto" => Ok(ApplyMode::Auto),
            "no-reboot" => Ok(ApplyMode::NoReboot),
            "reboot" => Ok(ApplyMode::Reboot),
            "staged" => Ok(ApplyMode::Staged),
            "try" => Ok(ApplyMode::Try),
            other => Err(Error::config(format!(
                "invalid apply mode {other:?}: expected auto, no-reboot, reboot, staged or try"
            ))),
        }
    }
}

impl std::fmt::Display for ApplyMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// ApplyConfiguration options (talosctl's `--mode`, `--dry-run`, `--timeout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApplyOptions {
    /// The mode.
    pub mode: ApplyMode,
    /// Only report what would happen.
    pub dry_run: bool,
    /// Try-mode rollback timeout (always sent, as talosctl does; the node uses it only in try mode).
    pub try_timeout: Duration,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions { mode: ApplyMode::Auto, dry_run: false, try_timeout: Duration::from_secs(60) }
    }
}

impl ApplyOptions {
    /// Options with this mode, no dry run, 1m try timeout.
    pub fn mode(mode: ApplyMode) -> ApplyOptions {
        ApplyOptions { mode, ..ApplyOptions::default() }
    }
}

/// What a node said to an apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApplyResult {
    /// The node.
    pub node: String,
    /// The resolved mode (`None` if the node sent an unknown value).
    pub mode: Option<ApplyMode>,
    /// `mode_details` (e.g. `Applied configuration without a reboot`, or the dry-run summary).
    pub details: String,
    /// Validation warnings.
    pub warnings: Vec<String>,
}

/// The outcome of [`Client::patch_machine_config`].
#[derive(Clone, PartialEq, Eq)]
pub struct PatchOutcome {
    /// The node.
    pub node: String,
    /// Resource version of the active config before the patch.
    pub version_before: String,
    /// Resource version after the apply (`None` for a dry run or when nothing changed).
    pub version_after: Option<String>,
    /// The node's answer (`None` when the patched config equals the current one: nothing is sent).
    pub apply: Option<ApplyResult>,
    /// The warnings of the local check (the node's warnings are in `apply`).
    pub local_warnings: Vec<String>,
    /// The patched config sent (or that would have been sent).
    pub config: Vec<u8>,
}

impl std::fmt::Debug for PatchOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatchOutcome")
            .field("node", &self.node)
            .field("version_before", &self.version_before)
            .field("version_after", &self.version_after)
            .field("apply", &self.apply)
            .field("local_warnings", &self.local_warnings)
            .field("config", &format_args!("<{} bytes>", self.config.len()))
            .finish()
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

/// Appends a received kubeconfig chunk, refusing an archive larger than [`MAX_KUBECONFIG`].
fn append_archive(archive: &mut Vec<u8>, bytes: &[u8]) -> std::result::Result<(), String> {
    if (archive.len() as u64).saturating_add(bytes.len() as u64) > MAX_KUBECONFIG {
        return Err(format!("kubeconfig archive exceeds {MAX_KUBECONFIG} bytes"));
    }
    archive.extend_from_slice(bytes);
    Ok(())
}

/// Unpacks the kubeconfig from a gzip-compressed tar (the entry named `kubeconfig`).
pub fn extract_kubeconfig(archive: &[u8]) -> std::result::Result<Vec<u8>, String> {
    let gz = flate2::read::GzDecoder::new(archive);
    let mut tar = tar::Archive::new(gz.take(MAX_KUBECONFIG));
    let entries = tar.entries().map_err(|e| format!("invalid kubeconfig archive: {e}"))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| format!("invalid kubeconfig archive: {e}"))?;
        let path = entry.path().map_err(|e| format!("invalid kubeconfig archive: {e}"))?.into_owned();
        let name = path.to_string_lossy();
        if name.trim_start_matches("./") == "kubeconfig" {
            let mut out = Vec::new();
            entry.read_to_end(&mut out).map_err(|e| format!("invalid kubeconfig archive: {e}"))?;
            return Ok(out);
        }
    }
    Err("kubeconfig archive has no kubeconfig entry".to_string())
}

impl Client {
    /// Connects to the first reachable endpoint of the context chosen by `options.context`, with mutual TLS:
    /// the context's CA(s) verify the server (IP or DNS name of the endpoint), its certificate and key identify us.
    pub async fn connect(config: &Talosconfig, options: ClientOptions) -> Result<Client> {
        let context = config.context(options.context.as_deref())?;
        Client::connect_context(context, options).await
    }

    /// Like [`Client::connect`], with a context given directly.
    pub async fn connect_context(context: &Context, options: ClientOptions) -> Result<Client> {
        context.check_pki()?;
        let endpoints = context.parsed_endpoints()?;
        let mut last = None;
        for endpoint in endpoints {
            match Client::connect_endpoint(context, &endpoint, &options).await {
                Ok(channel) => return Ok(Client { channel, endpoint, options, refusal: Default::default() }),
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| Error::config("failed to determine endpoints")))
    }

    async fn connect_endpoint(context: &Context, endpoint: &Endpoint, options: &ClientOptions) -> Result<Channel> {
        let fail = |message: String| Error::Connect { endpoint: endpoint.to_string(), message };
        let mut tls = ClientTlsConfig::new()
            .identity(Identity::from_pem(context.crt_pem(), context.key_pem_for_rustls()))
            .domain_name(endpoint.host.clone());
        for ca in context.ca_certificates() {
            tls = tls.ca_certificate(Certificate::from_pem(ca));
        }
        let ep = tonic::transport::Endpoint::from_shared(endpoint.uri())
            .map_err(|e| fail(error_chain(&e)))?
            .tls_config(tls)
            .map_err(|e| fail(error_chain(&e)))?
            .connect_timeout(options.connect_timeout)
            .tcp_nodelay(true)
            // No HTTP/2 keepalive pings: apid answers pings more often than every 5 minutes with GOAWAY.
            .keep_alive_while_idle(false);
        match tokio::time::timeout(options.connect_timeout, ep.connect()).await {
            Ok(Ok(channel)) => Ok(channel),
            Ok(Err(e)) => match TlsRefusal::find(&endpoint.to_string(), &e) {
                Some(refusal) => Err(Error::TlsRefused(refusal)),
                None => Err(fail(error_chain(&e))),
            },
            Err(_) => Err(fail(format!("timed out after {:?}", options.connect_timeout))),
        }
    }

    /// The endpoint in use.
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// The underlying channel (for calls this crate does not wrap).
    pub fn channel(&self) -> Channel {
        self.channel.clone()
    }

    /// A raw MachineService client with the 32 MiB limit.
    pub fn machine(&self) -> MachineServiceClient<Channel> {
        MachineServiceClient::new(self.channel.clone())
            .max_decoding_message_size(MAX_MESSAGE_SIZE)
            .max_encoding_message_size(MAX_MESSAGE_SIZE)
    }

    /// A raw COSI State client with the 32 MiB limit.
    pub fn state(&self) -> StateClient<Channel> {
        StateClient::new(self.channel.clone())
            .max_decoding_message_size(MAX_MESSAGE_SIZE)
            .max_encoding_message_size(MAX_MESSAGE_SIZE)
    }

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

    /// `Version` for one target.
    pub async fn version(&self, target: &Target) -> Result<VersionInfo> {
        let fallback = self.fallback(target);
        let req = machine_request((), target)?;
        let reply = self
            .timed("Version", async {
                self.machine().version(req).await.map_err(|s| self.call_error(Some(&fallback), &s))
            })
            .await?
            .into_inner();
        let (node, v) = single_reply(reply.messages, &fallback)?;
        Ok(version_info(node, v))
    }

    /// `Version` fanned out to several nodes (one `nodes` header entry each): one result per reply item.
    pub async fn version_many(&self, nodes: &[&str]) -> Result<Vec<Result<VersionInfo>>> {
        let fallback = self.endpoint.to_string();
        let req = machine_request_many((), nodes)?;
        let reply = self
            .timed("Version", async { self.machine().version(req).await.map_err(|s| self.call_error(None, &s)) })
            .await?
            .into_inner();
        Ok(crate::reply::split_replies(reply.messages, &fallback)
            .into_iter()
            .map(|r| r.result.map(|v| version_info(r.node, v)))
            .collect())
    }

    /// `ServiceList`: every service of the target.
    pub async fn service_list(&self, target: &Target) -> Result<Vec<ServiceInfo>> {
        let fallback = self.fallback(target);
        let req = machine_request((), target)?;
        let reply = self
            .timed("ServiceList", async {
                self.machine().service_list(req).await.map_err(|s| self.call_error(Some(&fallback), &s))
            })
            .await?
            .into_inner();
        let (node, list) = single_reply(reply.messages, &fallback)?;
        Ok(list.services.into_iter().map(|s| service_info(&node, s)).collect())
    }

    /// One service (`talosctl service <id>`): ServiceList filtered by id. Use
    /// [`ServiceInfo::events_newest_first`] for talosctl's event order.
    pub async fn service(&self, target: &Target, id: &str) -> Result<ServiceInfo> {
        self.service_list(target).await?.into_iter().find(|s| s.id == id).ok_or_else(|| Error::NotFound {
            message: format!("service {} is not registered on any nodes", talos_go::quote(id)),
        })
    }

    /// `Logs`: a stream of lines (split per node). Without `follow` it ends when the log does.
    pub async fn logs(&self, target: &Target, request: &LogsRequest) -> Result<LogStream> {
        let fallback = self.fallback(target);
        let (namespace, driver) = if request.kubernetes {
            ("k8s.io", common::ContainerDriver::Cri)
        } else {
            ("system", common::ContainerDriver::Containerd)
        };
        let message = machine::LogsRequest {
            namespace: namespace.to_string(),
            id: request.id.clone(),
            driver: driver as i32,
            follow: request.follow,
            tail_lines: request.tail.map_or(-1, |t| i32::try_from(t).unwrap_or(i32::MAX)),
        };
        let req = machine_request(message, target)?;
        let stream = self
            .timed("Logs", async { self.machine().logs(req).await.map_err(|s| self.call_error(Some(&fallback), &s)) })
            .await?
            .into_inner();
        Ok(LogStream {
            stream,
            fallback,
            splitter: LineSplitter::default(),
            ready: Default::default(),
            error_after: None,
            done: false,
        })
    }

    /// `Logs` without follow, read to the end within the call timeout.
    pub async fn logs_lines(&self, target: &Target, request: &LogsRequest) -> Result<Vec<LogLine>> {
        let mut request = request.clone();
        request.follow = false;
        self.timed("Logs", async { self.logs(target, &request).await?.collect().await }).await
    }

    /// `Kubeconfig`: concatenates the chunks, gunzips, untars and returns the `kubeconfig` entry's bytes.
    pub async fn kubeconfig(&self, target: &Target) -> Result<Vec<u8>> {
        let fallback = self.fallback(target);
        let req = machine_request((), target)?;
        let archive = self
            .timed("Kubeconfig", async {
                let mut stream = self
                    .machine()
                    .kubeconfig(req)
                    .await
                    .map_err(|s| self.call_error(Some(&fallback), &s))?
                    .into_inner();
                let mut archive = Vec::new();
                while let Some(data) = stream.message().await.map_err(|s| self.call_error(Some(&fallback), &s))? {
                    if let Some(err) = in_band_error(&data, &fallback) {
                        return Err(err);
                    }
                    append_archive(&mut archive, &data.bytes).map_err(|m| Error::protocol(Some(&fallback), m))?;
                }
                Ok(archive)
            })
            .await?;
        extract_kubeconfig(&archive).map_err(|m| Error::protocol(Some(&fallback), m))
    }

    /// COSI `Get` (with the `node` header for a node target).
    pub async fn get(&self, target: &Target, kind: ResourceKind, id: &str) -> Result<Resource> {
        let node = self.fallback(target);
        let req = cosi_request(
            cosi::GetRequest {
                namespace: kind.namespace.into(),
                r#type: kind.type_.into(),
                id: id.into(),
                options: Some(cosi::GetOptions {}),
            },
            target,
        )?;
        let reply = self
            .timed("Get", async { self.state().get(req).await.map_err(|s| self.call_error(Some(&node), &s)) })
            .await?
            .into_inner();
        Resource::from_proto(&node, reply.resource)
    }

    /// COSI `List`, read to the end (sorted by id, as the server sends).
    pub async fn list(&self, target: &Target, kind: ResourceKind) -> Result<Vec<Resource>> {
        let node = self.fallback(target);
        let req = cosi_request(
            cosi::ListRequest {
                namespace: kind.namespace.into(),
                r#type: kind.type_.into(),
                options: Some(cosi::ListOptions::default()),
            },
            target,
        )?;
        self.timed("List", async {
            let mut stream = self.state().list(req).await.map_err(|s| self.call_error(Some(&node), &s))?.into_inner();
            let mut out = Vec::new();
            while let Some(item) = stream.message().await.map_err(|s| self.call_error(Some(&node), &s))? {
                out.push(Resource::from_proto(&node, item.resource)?);
            }
            Ok(out)
        })
        .await
    }

    /// COSI `Watch` of a type (or one id). With `bootstrap`, the existing resources arrive first as `Created`,
    /// then one `Bootstrapped` event (`talosctl get -w`).
    pub async fn watch(
        &self,
        target: &Target,
        kind: ResourceKind,
        id: Option<&str>,
        bootstrap: bool,
    ) -> Result<WatchStream> {
        let node = self.fallback(target);
        let req = cosi_request(
            cosi::WatchRequest {
                namespace: kind.namespace.into(),
                r#type: kind.type_.into(),
                id: id.map(str::to_owned),
                options: Some(cosi::WatchOptions { bootstrap_contents: bootstrap, ..Default::default() }),
                api_version: 1,
            },
            target,
        )?;
        let stream = self
            .timed("Watch", async { self.state().watch(req).await.map_err(|s| self.call_error(Some(&node), &s)) })
            .await?
            .into_inner();
        Ok(WatchStream { stream, node, ready: Default::default() })
    }

    /// `get members`.
    pub async fn members(&self, target: &Target) -> Result<Vec<Member>> {
        self.list(target, MEMBERS).await?.iter().map(Member::from_resource).collect()
    }

    /// `get services` (the resources, not ServiceList).
    pub async fn service_resources(&self, target: &Target) -> Result<Vec<ServiceResource>> {
        self.list(target, SERVICES).await?.iter().map(ServiceResource::from_resource).collect()
    }

    /// `get machineconfig <id>`: the exact config bytes and the resource version (`id`: `v1alpha1` or `persistent`).
    pub async fn machine_config(&self, target: &Target, id: &str) -> Result<MachineConfig> {
        MachineConfig::from_resource(&self.get(target, MACHINE_CONFIG, id).await?)
    }

    /// `ApplyConfiguration` of a full config. A node's in-band refusal becomes [`Error::Rpc`] with its code and
    /// Talos's text.
    pub async fn apply_configuration(
        &self,
        target: &Target,
        data: &[u8],
        options: ApplyOptions,
    ) -> Result<ApplyResult> {
        let fallback = self.fallback(target);
        let message = machine::ApplyConfigurationRequest {
            data: data.to_vec(),
            mode: options.mode.to_proto() as i32,
            dry_run: options.dry_run,
            try_mode_timeout: Some(duration_proto(options.try_timeout)),
        };
        let req = machine_request(message, target)?;
        let reply = self
            .timed("ApplyConfiguration", async {
                self.machine().apply_configuration(req).await.map_err(|s| self.call_error(Some(&fallback), &s))
            })
            .await?
            .into_inner();
        let (node, a) = single_reply(reply.messages, &fallback)?;
        Ok(ApplyResult { node, mode: ApplyMode::from_proto(a.mode), details: a.mode_details, warnings: a.warnings })
    }

    /// `talosctl patch mc`, done carefully: reads the node's platform mode (`Version`) and active machine config,
    /// merges the patches with `talos-config`, checks the result exactly as the node would
    /// ([`talos_config::node::check_apply`], installed) and fails with [`Error::Rejected`] (the node's
    /// text) without sending anything; otherwise applies it (nothing is sent if the config is unchanged) and reports
    /// the resource version before and after.
    pub async fn patch_machine_config(
        &self,
        node: &str,
        patches: &[talos_config::Patch],
        options: ApplyOptions,
    ) -> Result<PatchOutcome> {
        let target = Target::node(node);
        let version = self.version(&target).await?;
        let mode = local_check_mode(node, &version.platform_mode)?;
        let before = self.machine_config(&target, ACTIVE_CONFIG_ID).await?;
        let patched = talos_config::apply_patches(&before.bytes, patches)?;
        let local_warnings = talos_config::node::check_apply(&patched, mode, true).map_err(|r| Error::Rejected {
            node: node.to_string(),
            code: Code::from_i32(r.code.number()),
            message: r.message,
        })?;
        if patched == before.bytes {
            return Ok(PatchOutcome {
                node: node.to_string(),
                version_before: before.version,
                version_after: None,
                apply: None,
                local_warnings,
                config: patched,
            });
        }
        let apply = self.apply_configuration(&target, &patched, options).await?;
        let version_after =
            if options.dry_run { None } else { Some(self.machine_config(&target, ACTIVE_CONFIG_ID).await?.version) };
        Ok(PatchOutcome {
            node: node.to_string(),
            version_before: before.version,
            version_after,
            apply: Some(apply),
            local_warnings,
            config: patched,
        })
    }
}

/// The text Talos answers every MachineService call with in agent mode.
pub const AGENT_MODE_TEXT: &str = "API is not implemented in agent mode";

/// The validation mode for a node's reported platform mode, for [`Client::patch_machine_config`]'s local check.
/// A `metal-agent` node answers `ApplyConfiguration` with `Unimplemented` ([`AGENT_MODE_TEXT`]): refused as
/// [`Error::Rejected`] with that code and text.
fn local_check_mode(node: &str, platform_mode: &str) -> Result<talos_config::Mode> {
    use talos_config::Mode;
    match platform_mode.parse::<Mode>() {
        Ok(Mode::MetalAgent) => Err(Error::Rejected {
            node: node.to_string(),
            code: Code::Unimplemented,
            message: AGENT_MODE_TEXT.to_string(),
        }),
        Ok(mode) => Ok(mode),
        Err(m) => Err(Error::protocol(Some(node), format!("node reports an unusable platform mode: {m}"))),
    }
}

fn duration_proto(d: Duration) -> prost_types::Duration {
    prost_types::Duration {
        seconds: i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
        nanos: i32::try_from(d.subsec_nanos()).unwrap_or(0),
    }
}

fn version_info(node: String, v: machine::Version) -> VersionInfo {
    let info = v.version.unwrap_or_default();
    let platform = v.platform.unwrap_or_default();
    VersionInfo {
        node,
        tag: info.tag,
        sha: info.sha,
        built: info.built,
        go_version: info.go_version,
        os: info.os,
        arch: info.arch,
        platform_name: platform.name,
        platform_mode: platform.mode,
        rbac: v.features.is_some_and(|f| f.rbac),
    }
}

fn service_info(node: &str, s: machine::ServiceInfo) -> ServiceInfo {
    let health = s.health.unwrap_or_default();
    ServiceInfo {
        node: node.to_string(),
        id: s.id,
        state: s.state,
        health_unknown: health.unknown,
        healthy: health.healthy,
        last_health_message: health.last_message,
        events: s
            .events
            .unwrap_or_default()
            .events
            .into_iter()
            .map(|e| ServiceEvent { msg: e.msg, state: e.state, ts: e.ts })
            .collect(),
    }
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let t = s.to_string();
        if !t.is_empty() && !text.contains(&t) {
            text.push_str(": ");
            text.push_str(&t);
        }
        source = s.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_lines_per_node() {
        let mut s = LineSplitter::default();
        assert!(s.push("a", b"hel").is_empty());
        let got = s.push("b", b"x\ny");
        assert_eq!(got, vec![LogLine { node: "b".into(), line: "x".into() }]);
        let got = s.push("a", b"lo\r\nworld\n");
        assert_eq!(got.iter().map(|l| l.line.as_str()).collect::<Vec<_>>(), ["hello", "world"]);
        assert_eq!(s.finish(), vec![LogLine { node: "b".into(), line: "y".into() }]);
    }

    #[test]
    fn overlong_partial_lines_are_flushed() {
        let mut s = LineSplitter::default();
        let chunk = vec![b'x'; 4096];
        let mut got = Vec::new();
        for _ in 0..(3 * MAX_PARTIAL_LINE / chunk.len() + 1) {
            got.extend(s.push("a", &chunk));
        }
        assert_eq!(got.len(), 3);
        assert!(got.iter().all(|l| l.node == "a" && l.line.len() == MAX_PARTIAL_LINE));
        assert_eq!(s.partial.get("a").map(Vec::len), Some(4096));
        let got = s.push("a", b"y\nz");
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].line.len(), 4097);
        assert_eq!(s.finish(), vec![LogLine { node: "a".into(), line: "z".into() }]);

        // A line of exactly the limit stays one line.
        let mut line = vec![b'q'; MAX_PARTIAL_LINE];
        line.push(b'\n');
        let got = s.push("b", &line);
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].line.len(), MAX_PARTIAL_LINE);
        assert!(s.finish().is_empty());
    }

    #[test]
    fn kubeconfig_archive_is_capped() {
        let mut archive = Vec::new();
        let chunk = vec![0u8; 1 << 20];
        for _ in 0..16 {
            append_archive(&mut archive, &chunk).unwrap();
        }
        assert_eq!(append_archive(&mut archive, b"x").unwrap_err(), "kubeconfig archive exceeds 16777216 bytes");
        assert_eq!(archive.len() as u64, MAX_KUBECONFIG);
    }

    #[test]
    fn platform_modes_for_the_local_check() {
        use talos_config::Mode;
        assert_eq!(local_check_mode("n", "container").unwrap(), Mode::Container);
        assert_eq!(local_check_mode("n", "metal").unwrap(), Mode::Metal);
        assert_eq!(local_check_mode("n", "cloud").unwrap(), Mode::Cloud);
        let err = local_check_mode("10.5.0.3", "metal-agent").unwrap_err();
        assert_eq!(err.code(), Some(Code::Unimplemented));
        assert_eq!(err.message(), "API is not implemented in agent mode");
        assert_eq!(
            err.to_string(),
            "10.5.0.3: rpc error: code = Unimplemented desc = API is not implemented in agent mode"
        );
        let err = local_check_mode("n", "Metal").unwrap_err();
        assert!(matches!(err, Error::Protocol { .. }), "{err:?}");
        assert_eq!(err.code(), None);
    }

    #[test]
    fn apply_modes_round_trip() {
        for m in [ApplyMode::Auto, ApplyMode::NoReboot, ApplyMode::Reboot, ApplyMode::Staged, ApplyMode::Try] {
            assert_eq!(m.as_str().parse::<ApplyMode>().unwrap(), m);
            assert_eq!(ApplyMode::from_proto(m.to_proto() as i32), Some(m));
        }
        assert_eq!(ProtoMode::NoReboot as i32, 2);
        assert!("Auto".parse::<ApplyMode>().is_err());
        assert_eq!(ApplyMode::from_proto(99), None);
    }

    #[test]
    fn kubeconfig_archive() {
        let mut tarball = tar::Builder::new(Vec::new());
        let body = b"apiVersion: v1\nkind: Config\n";
        let mut header = tar::Header::new_gnu();
        header.set_size(body.len() as u64);
        header.set_mode(0o600);
        header.set_cksum();
        tarball.append_data(&mut header, "kubeconfig", &body[..]).unwrap();
        let tarred = tarball.into_inner().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, &tarred).unwrap();
        let archive = gz.finish().unwrap();
        assert_eq!(extract_kubeconfig(&archive).unwrap(), body);
        assert!(extract_kubeconfig(b"not gzip").is_err());
    }

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
