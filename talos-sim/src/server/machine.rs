//! `machine.MachineService`: Version, ServiceList, Logs, Kubeconfig and ApplyConfiguration,
//! each after the caller's role check, on the node or nodes the metadata routes to.

use std::sync::Arc;

use talos_client::proto::{common, machine};
use tonic::{Request, Response, Status};

use super::Api;
use super::apply::{self, access_metadata, apply_configuration};
use super::auth::{authorize, caller};
use super::logs::{DataStream, logs_stream};
use super::routing::{Route, error_metadata, unary, wrap};
use crate::node::{self, Node};
use crate::util::timestamp;

fn version_of(_node: &Node) -> machine::Version {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "aarch64" => "arm64",
        other => other,
    };
    machine::Version {
        metadata: None,
        version: Some(machine::VersionInfo {
            tag: node::TAG.into(),
            sha: node::SHA.into(),
            built: String::new(),
            go_version: node::GO_VERSION.into(),
            os: "linux".into(),
            arch: arch.into(),
        }),
        platform: Some(machine::PlatformInfo { name: "container".into(), mode: "container".into() }),
        features: Some(machine::FeaturesInfo { rbac: true }),
    }
}

fn services_of(node: &Node) -> machine::ServiceList {
    machine::ServiceList {
        metadata: None,
        services: node
            .services()
            .into_iter()
            .map(|s| machine::ServiceInfo {
                id: s.id,
                state: s.state,
                events: Some(machine::ServiceEvents {
                    events: s
                        .events
                        .into_iter()
                        .map(|e| machine::ServiceEvent { msg: e.msg, state: e.state, ts: timestamp(e.ts) })
                        .collect(),
                }),
                health: Some(machine::ServiceHealth {
                    unknown: s.health.unknown,
                    healthy: s.health.healthy,
                    last_message: s.health.last_message,
                    last_change: timestamp(s.health.last_change),
                }),
            })
            .collect(),
    }
}

#[tonic::async_trait]
impl machine::machine_service_server::MachineService for Api {
    async fn version(&self, request: Request<()>) -> Result<Response<machine::VersionResponse>, Status> {
        let roles = caller(&request)?;
        let route = self.route(request.metadata(), "/machine.MachineService/Version", true)?;
        let messages = unary(route, |n| authorize(&roles, false).map(|()| version_of(n)), |m, md| m.metadata = md)?;
        Ok(Response::new(machine::VersionResponse { messages }))
    }

    async fn service_list(&self, request: Request<()>) -> Result<Response<machine::ServiceListResponse>, Status> {
        let roles = caller(&request)?;
        let route = self.route(request.metadata(), "/machine.MachineService/ServiceList", true)?;
        let messages = unary(route, |n| authorize(&roles, false).map(|()| services_of(n)), |m, md| m.metadata = md)?;
        Ok(Response::new(machine::ServiceListResponse { messages }))
    }

    type LogsStream = DataStream;

    async fn logs(&self, request: Request<machine::LogsRequest>) -> Result<Response<DataStream>, Status> {
        let roles = caller(&request)?;
        let route = self.route(request.metadata(), "/machine.MachineService/Logs", true)?;
        Ok(Response::new(logs_stream(route, &roles, request.into_inner()).await?))
    }

    type KubeconfigStream = DataStream;

    async fn kubeconfig(&self, request: Request<()>) -> Result<Response<DataStream>, Status> {
        let roles = caller(&request)?;
        let route = self.route(request.metadata(), "/machine.MachineService/Kubeconfig", true)?;
        let read = |n: &Arc<Node>| authorize(&roles, true).and_then(|()| n.kubeconfig().map_err(Status::from));
        let items: Vec<Result<common::Data, Status>> = match route {
            Route::Local(n) => vec![Ok(common::Data { metadata: None, bytes: read(&n)? })],
            Route::Fanout(targets) => targets
                .into_iter()
                .map(|(t, n)| match n.and_then(|n| read(&n)) {
                    Ok(bytes) => Ok(common::Data { metadata: wrap(&t), bytes }),
                    Err(s) => Ok(common::Data { metadata: error_metadata(&t, &s), bytes: Vec::new() }),
                })
                .collect(),
        };
        Ok(Response::new(Box::pin(tokio_stream::iter(items))))
    }

    async fn apply_configuration(
        &self,
        request: Request<machine::ApplyConfigurationRequest>,
    ) -> Result<Response<machine::ApplyConfigurationResponse>, Status> {
        let roles = caller(&request)?;
        let route = self.route(request.metadata(), apply::METHOD, true)?;
        let access_md = access_metadata(request.metadata());
        let messages = apply_configuration(route, &roles, &access_md, request.into_inner()).await?;
        Ok(Response::new(machine::ApplyConfigurationResponse { messages }))
    }
}
