//! The gRPC face of a simulated node: `machine.MachineService` and `cosi.resource.State`, with
//! apid's routing (docs/api.md §2): no metadata → served locally; `nodes` (MachineService only) →
//! one-to-many with every reply item wrapped in `metadata.hostname = <target>` and per-node
//! errors in-band; `node` (single value) → one-to-one, verbatim. A node that cannot forward
//! (the worker) serves targets naming itself and refuses others with
//! `PermissionDenied: no request forwarding`.
//!
//! Forwarding is in-process: the control plane calls the target node's state directly instead
//! of opening a second mTLS hop.
//!
//! `routing` resolves targets, `auth` reads the caller's roles, `machine` serves
//! MachineService (its logs in `logs`, ApplyConfiguration in `apply`), `cosi` serves the COSI
//! state from the resources `resources` converts.

use std::sync::Arc;

use tonic::Status;

use crate::node::{Node, NodeError};

mod apply;
mod auth;
mod cosi;
mod logs;
mod machine;
mod resources;
mod routing;

/// All simulated nodes, for resolving targets.
#[derive(Debug, Default)]
pub struct Cluster {
    pub nodes: Vec<Arc<Node>>,
}

impl Cluster {
    /// The node a target string names (its address or hostname).
    pub fn find(&self, target: &str) -> Option<Arc<Node>> {
        self.nodes.iter().find(|n| n.identity.address.to_string() == target || n.identity.hostname == target).cloned()
    }
}

/// One node's API endpoint.
#[derive(Clone, Debug)]
pub struct Api {
    pub node: Arc<Node>,
    pub cluster: Arc<Cluster>,
    /// Whether this node's apid can proxy to others (control planes only).
    pub can_forward: bool,
}

/// A node's refusal as the gRPC status the API answers with: its code, its text verbatim.
impl From<NodeError> for Status {
    fn from(e: NodeError) -> Status {
        match e {
            NodeError::InvalidArgument(msg) => Status::invalid_argument(msg),
            NodeError::FailedPrecondition(msg) => Status::failed_precondition(msg),
            NodeError::NotFound(msg) => Status::not_found(msg),
            NodeError::Unimplemented(msg) => Status::unimplemented(msg),
            NodeError::Unknown(msg) => Status::unknown(msg),
        }
    }
}

/// The status that ends a followed stream whose reader fell behind the broadcast buffer.
fn lagged(what: &str, missed: u64) -> Status {
    Status::data_loss(format!("{what} stream fell behind: {missed} updates were dropped"))
}
