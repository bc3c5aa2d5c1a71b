//! `cosi.resource.State`: Get, List and Watch of a node's resources, after machined's role and
//! access checks; never one-to-many.

use std::pin::Pin;

use talos_client::proto::cosi::resource as cosi;
use tokio::sync::{broadcast, mpsc};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::{Request, Response, Status};

use super::auth::{authorize, caller};
use super::resources::to_proto;
use super::{Api, lagged};
use crate::node::{ChangeKind, Node};

/// What a COSI read of `r#type` in `namespace` returns, after machined's checks: the method
/// rule (Get, List and Watch are for `os:admin`, `os:operator` and `os:reader`), then the access
/// filter (`catalog::check_read`).
fn readable(n: &Node, namespace: &str, r#type: &str, roles: &[String]) -> Result<Vec<cosi::Resource>, Status> {
    authorize(roles, false)?;
    crate::catalog::check_read(r#type, namespace, roles)?;
    if namespace == crate::catalog::NS_META {
        return Ok(crate::catalog::meta_resources(r#type, n.booted()).unwrap_or_default());
    }
    if let Some(singletons) = crate::catalog::identity_resources(r#type, namespace, n) {
        return Ok(singletons);
    }
    Ok(n.list(namespace, r#type)?.iter().map(to_proto).collect())
}

type ListStream = Pin<Box<dyn Stream<Item = Result<cosi::ListResponse, Status>> + Send>>;
type WatchStream = Pin<Box<dyn Stream<Item = Result<cosi::WatchResponse, Status>> + Send>>;

#[tonic::async_trait]
impl cosi::state_server::State for Api {
    async fn get(&self, request: Request<cosi::GetRequest>) -> Result<Response<cosi::GetResponse>, Status> {
        let roles = caller(&request)?;
        let n = self.route_one(request.metadata(), "/cosi.resource.State/Get")?;
        let req = request.into_inner();
        let found = readable(&n, &req.namespace, &req.r#type, &roles)?
            .into_iter()
            .find(|r| r.metadata.as_ref().is_some_and(|m| m.id == req.id));
        match found {
            Some(resource) => Ok(Response::new(cosi::GetResponse { resource: Some(resource) })),
            None => Err(Status::not_found(format!(
                "resource {}({}/{}@undefined) doesn't exist",
                req.r#type, req.namespace, req.id
            ))),
        }
    }

    type ListStream = ListStream;

    async fn list(&self, request: Request<cosi::ListRequest>) -> Result<Response<ListStream>, Status> {
        let roles = caller(&request)?;
        let n = self.route_one(request.metadata(), "/cosi.resource.State/List")?;
        let req = request.into_inner();
        let items: Vec<Result<cosi::ListResponse, Status>> = readable(&n, &req.namespace, &req.r#type, &roles)?
            .into_iter()
            .map(|r| Ok(cosi::ListResponse { resource: Some(r) }))
            .collect();
        Ok(Response::new(Box::pin(tokio_stream::iter(items))))
    }

    type WatchStream = WatchStream;

    async fn watch(&self, request: Request<cosi::WatchRequest>) -> Result<Response<WatchStream>, Status> {
        let roles = caller(&request)?;
        let n = self.route_one(request.metadata(), "/cosi.resource.State/Watch")?;
        let req = request.into_inner();
        let mut changes = n.subscribe();
        let id = req.id.clone();
        let snapshot: Vec<cosi::Resource> = readable(&n, &req.namespace, &req.r#type, &roles)?
            .into_iter()
            .filter(|r| id.as_ref().is_none_or(|i| r.metadata.as_ref().is_some_and(|m| m.id == *i)))
            .collect();
        let bootstrap = req.options.as_ref().is_some_and(|o| o.bootstrap_contents);
        let (tx, rx) = mpsc::channel(64);
        let event = |r: Option<cosi::Resource>, t: cosi::EventType| cosi::WatchResponse {
            event: vec![cosi::Event { resource: r, event_type: t as i32, old: None, error: None, bookmark: None }],
        };
        tokio::spawn(async move {
            if bootstrap || id.is_some() {
                for r in snapshot {
                    if tx.send(Ok(event(Some(r), cosi::EventType::Created))).await.is_err() {
                        return;
                    }
                }
            }
            if bootstrap
                && req.api_version >= 1
                && tx.send(Ok(event(None, cosi::EventType::Bootstrapped))).await.is_err()
            {
                return;
            }
            loop {
                tokio::select! {
                    c = changes.recv() => match c {
                        Ok(c) => {
                            let r = &c.resource;
                            if r.namespace != req.namespace || r.r#type != req.r#type || id.as_ref().is_some_and(|i| *i != r.id) {
                                continue;
                            }
                            let t = match c.kind {
                                ChangeKind::Created => cosi::EventType::Created,
                                ChangeKind::Updated => cosi::EventType::Updated,
                                ChangeKind::Destroyed => cosi::EventType::Destroyed,
                            };
                            if tx.send(Ok(event(Some(to_proto(r)), t))).await.is_err() {
                                return;
                            }
                        }
                        Err(broadcast::error::RecvError::Lagged(n)) => {
                            let _ = tx.send(Err(lagged("watch", n))).await;
                            return;
                        }
                        Err(broadcast::error::RecvError::Closed) => return,
                    },
                    _ = tx.closed() => return,
                }
            }
        });
        Ok(Response::new(Box::pin(ReceiverStream::new(rx))))
    }
}
