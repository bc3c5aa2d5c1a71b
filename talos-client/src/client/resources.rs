//! COSI resources: `Get`, `List` and `Watch`, and the typed members, services and machine configs.

use std::net::IpAddr;

use super::{Client, Target, cosi_metadata, request};
use crate::error::{Code, Error, Result, is_transport};
use crate::proto::cosi::resource as cosi;
use crate::proto::talos::resource::definitions::{cluster, enums, v1alpha1};

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
    /// Events handed out so far (said when the connection breaks).
    delivered: usize,
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
                let event = self.convert(e);
                self.delivered += usize::from(event.is_ok());
                return Some(event);
            }
            match self.stream.message().await {
                Ok(Some(resp)) => self.ready.extend(resp.event),
                Ok(None) => return None,
                Err(status) if status.code() == Code::Cancelled => return None,
                Err(status) if is_transport(&status) => {
                    let delivered = Some((self.delivered, "event"));
                    return Some(Err(Error::connection_lost("Watch", &self.node, delivered, false, status)));
                }
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

impl Client {
    /// COSI `Get` (with the `node` header for a node target).
    pub async fn get(&self, target: &Target, kind: ResourceKind, id: &str) -> Result<Resource> {
        let node = self.fallback(target);
        let metadata = &cosi_metadata(target)?;
        let message = &cosi::GetRequest {
            namespace: kind.namespace.into(),
            r#type: kind.type_.into(),
            id: id.into(),
            options: Some(cosi::GetOptions {}),
        };
        let reply = self
            .read("Get", Some(&node), || async move { self.state().get(request(metadata, message.clone())).await })
            .await?
            .into_inner();
        Resource::from_proto(&node, reply.resource)
    }

    /// COSI `List`, read to the end (sorted by id, as the server sends).
    pub async fn list(&self, target: &Target, kind: ResourceKind) -> Result<Vec<Resource>> {
        let node = self.fallback(target);
        let metadata = &cosi_metadata(target)?;
        let message = &cosi::ListRequest {
            namespace: kind.namespace.into(),
            r#type: kind.type_.into(),
            options: Some(cosi::ListOptions::default()),
        };
        let items = self
            .read("List", Some(&node), || async move {
                let mut stream = self.state().list(request(metadata, message.clone())).await?.into_inner();
                let mut items = Vec::new();
                while let Some(item) = stream.message().await? {
                    items.push(item.resource);
                }
                Ok(items)
            })
            .await?;
        items.into_iter().map(|r| Resource::from_proto(&node, r)).collect()
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
        let metadata = &cosi_metadata(target)?;
        let message = &cosi::WatchRequest {
            namespace: kind.namespace.into(),
            r#type: kind.type_.into(),
            id: id.map(str::to_owned),
            options: Some(cosi::WatchOptions { bootstrap_contents: bootstrap, ..Default::default() }),
            api_version: 1,
        };
        let stream = self
            .read("Watch", Some(&node), || async move { self.state().watch(request(metadata, message.clone())).await })
            .await?
            .into_inner();
        Ok(WatchStream { stream, node, ready: Default::default(), delivered: 0 })
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
}
