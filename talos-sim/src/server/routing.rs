//! apid's routing: `nodes` and `node` metadata resolved to the node that serves a call, and a
//! unary call run per target with the reply items wrapped (or the error in-band).

use std::sync::Arc;

use talos_client::error::code_name;
use talos_client::proto::common;
use tonic::Status;

use super::Api;
use crate::node::Node;

/// Where a call goes: one node, or every target of `nodes` (a target that cannot be reached is
/// its error).
pub(super) enum Route {
    Local(Arc<Node>),
    Fanout(Vec<(String, Result<Arc<Node>, Status>)>),
}

/// The metadata of a reply item from `target`.
pub(super) fn wrap(target: &str) -> Option<common::Metadata> {
    Some(common::Metadata { hostname: target.to_string(), error: String::new(), status: None })
}

/// apid's in-band error item metadata (`BuildError`).
pub(super) fn error_metadata(target: &str, status: &Status) -> Option<common::Metadata> {
    Some(common::Metadata {
        hostname: target.to_string(),
        error: format!("rpc error: code = {} desc = {}", code_name(status.code()), status.message()),
        status: Some(talos_client::proto::google::rpc::Status {
            code: status.code() as i32,
            message: status.message().to_string(),
            details: Vec::new(),
        }),
    })
}

/// Every value of a metadata key (a value that is not text reads as empty).
pub(super) fn values(md: &tonic::metadata::MetadataMap, key: &str) -> Vec<String> {
    md.get_all(key).iter().map(|v| v.to_str().map(str::to_string).unwrap_or_default()).collect()
}

impl Api {
    fn is_self(&self, target: &str) -> bool {
        self.node.identity.address.to_string() == target || self.node.identity.hostname == target
    }

    fn resolve(&self, target: &str) -> Result<Arc<Node>, Status> {
        if target.parse::<std::net::SocketAddr>().is_ok() {
            return Err(Status::invalid_argument(format!("invalid target {}", talos_go::quote(target))));
        }
        self.cluster.find(target).ok_or_else(|| {
            Status::unavailable(format!(
                "connection error: desc = \"transport: Error while dialing: dial tcp {target}:50000: connect: no route to host\""
            ))
        })
    }

    pub(super) fn route(
        &self,
        md: &tonic::metadata::MetadataMap,
        method: &str,
        machine: bool,
    ) -> Result<Route, Status> {
        let nodes = values(md, "nodes");
        if !nodes.is_empty() {
            if !machine {
                return Err(Status::invalid_argument(format!(
                    "one-2-many proxying is not supported for method {method}"
                )));
            }
            if !self.can_forward {
                if nodes.iter().all(|n| self.is_self(n)) {
                    return Ok(Route::Local(Arc::clone(&self.node)));
                }
                return Err(Status::permission_denied("no request forwarding"));
            }
            return Ok(Route::Fanout(nodes.into_iter().map(|t| (t.clone(), self.resolve(&t))).collect()));
        }
        let node = values(md, "node");
        match node.as_slice() {
            [] => Ok(Route::Local(Arc::clone(&self.node))),
            [target] if self.is_self(target) => Ok(Route::Local(Arc::clone(&self.node))),
            [_] if !self.can_forward => Err(Status::permission_denied("no request forwarding")),
            [target] => Ok(Route::Local(self.resolve(target)?)),
            _ => Err(Status::invalid_argument("node metadata must be single-valued")),
        }
    }

    /// COSI routing: never one-to-many (`route` refuses `nodes` for non-MachineService calls).
    pub(super) fn route_one(&self, md: &tonic::metadata::MetadataMap, method: &str) -> Result<Arc<Node>, Status> {
        match self.route(md, method, false)? {
            Route::Local(n) => Ok(n),
            Route::Fanout(_) => Err(Status::internal("one-2-many routing on a COSI method")),
        }
    }
}

/// Runs `f` per route: locally without metadata, or per target wrapped with its hostname and
/// with errors in-band.
pub(super) fn unary<M: Default>(
    route: Route,
    f: impl Fn(&Arc<Node>) -> Result<M, Status>,
    set: impl Fn(&mut M, Option<common::Metadata>),
) -> Result<Vec<M>, Status> {
    match route {
        Route::Local(n) => Ok(vec![f(&n)?]),
        Route::Fanout(targets) => Ok(targets
            .into_iter()
            .map(|(t, n)| match n.and_then(|n| f(&n)) {
                Ok(mut m) => {
                    set(&mut m, wrap(&t));
                    m
                }
                Err(s) => {
                    let mut m = M::default();
                    set(&mut m, error_metadata(&t, &s));
                    m
                }
            })
            .collect()),
    }
}
