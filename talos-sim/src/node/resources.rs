//! The COSI resource model a node serves: namespaces and types, resource specs and change
//! events, and the machine config resources with Talos's version bookkeeping.

use std::net::IpAddr;
use std::time::SystemTime;

use super::{MachineType, Node};

// The kinds are the client's (one definition of each namespace and type name).

/// COSI namespace of the machine config resources.
pub const NS_CONFIG: &str = talos_client::MACHINE_CONFIG.namespace;
/// COSI namespace of the members.
pub const NS_CLUSTER: &str = talos_client::MEMBERS.namespace;
/// COSI namespace of the services.
pub const NS_RUNTIME: &str = talos_client::SERVICES.namespace;
/// Resource type of the machine config (ids `v1alpha1`, `persistent`).
pub const TYPE_MACHINE_CONFIG: &str = talos_client::MACHINE_CONFIG.type_;
/// Resource type of a cluster member.
pub const TYPE_MEMBER: &str = talos_client::MEMBERS.type_;
/// Resource type of a service.
pub const TYPE_SERVICE: &str = talos_client::SERVICES.type_;

/// A Member spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberSpec {
    /// Discovery node id.
    pub node_id: String,
    /// Addresses.
    pub addresses: Vec<IpAddr>,
    /// Hostname.
    pub hostname: String,
    /// Control plane or worker.
    pub machine_type: MachineType,
    /// e.g. `Talos (v1.13.10)`.
    pub operating_system: String,
    /// API server port (control planes only).
    pub control_plane_port: Option<i64>,
}

/// A resource spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// The config bytes exactly as applied.
    MachineConfig(Vec<u8>),
    /// A service's state.
    Service {
        /// Running.
        running: bool,
        /// Healthy.
        healthy: bool,
        /// Health unknown.
        unknown: bool,
    },
    /// A cluster member.
    Member(MemberSpec),
}

/// A COSI resource as the node holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// Namespace.
    pub namespace: &'static str,
    /// Type.
    pub r#type: &'static str,
    /// Id.
    pub id: String,
    /// Version (incremented on every update).
    pub version: u64,
    /// Creation time.
    pub created: SystemTime,
    /// Last update time.
    pub updated: SystemTime,
    /// The spec.
    pub spec: Spec,
}

/// What happened to a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    /// Created.
    Created,
    /// Updated.
    Updated,
    /// Destroyed.
    Destroyed,
}

/// A resource change, as COSI Watch reports it.
#[derive(Clone, Debug)]
pub struct Change {
    /// What happened.
    pub kind: ChangeKind,
    /// The resource after the change.
    pub resource: Resource,
}

/// One machine config resource (`v1alpha1` is the active config, `persistent` the one on disk).
#[derive(Clone)]
pub(super) struct ConfigRes {
    pub(super) bytes: Vec<u8>,
    pub(super) version: u64,
    pub(super) created: SystemTime,
    pub(super) updated: SystemTime,
}

impl Node {
    /// The machine config resource `id` holding `c`.
    pub(super) fn config_resource(id: &str, c: &ConfigRes) -> Resource {
        Resource {
            namespace: NS_CONFIG,
            r#type: TYPE_MACHINE_CONFIG,
            id: id.to_string(),
            version: c.version,
            created: c.created,
            updated: c.updated,
            spec: Spec::MachineConfig(c.bytes.clone()),
        }
    }
}
