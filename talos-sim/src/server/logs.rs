//! `Logs` as a stream: each node's log buffer, then (when following) its new lines, in chunks
//! of at most 4 KiB, per target wrapped with its hostname or as an in-band error.

use std::pin::Pin;
use std::sync::Arc;

use talos_client::proto::{common, machine};
use tokio::sync::{broadcast, mpsc};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Status;

use super::auth::authorize;
use super::lagged;
use super::routing::{Route, error_metadata, wrap};
use crate::node::Node;

pub(super) type DataStream = Pin<Box<dyn Stream<Item = Result<common::Data, Status>> + Send>>;

/// Log bytes are sent in chunks of at most this size (not aligned to lines, as Talos).
const CHUNK: usize = 4096;

/// The `Logs` reply stream for `req` on the route's nodes. Only the kubelet and the `system`
/// namespace's services are simulated; other containers are `NotFound`.
pub(super) async fn logs_stream(
    route: Route,
    roles: &[String],
    req: machine::LogsRequest,
) -> Result<DataStream, Status> {
    let read = |n: &Arc<Node>| {
        authorize(roles, false)?;
        if req.namespace != "system" && req.id != "kubelet" {
            return Err(Status::not_found(format!(
                "container logs are not simulated: {}/{}",
                talos_go::quote(&req.namespace),
                talos_go::quote(&req.id)
            )));
        }
        n.logs(&req.id, req.tail_lines, req.follow).map_err(Status::from)
    };
    let (tx, rx) = mpsc::channel(64);
    match route {
        Route::Local(n) => {
            let (snapshot, follow) = read(&n)?;
            tokio::spawn(pump_logs(tx, None, snapshot, follow));
        }
        Route::Fanout(targets) => {
            for (t, n) in targets {
                match n.and_then(|n| read(&n)) {
                    Ok((snapshot, follow)) => {
                        tokio::spawn(pump_logs(tx.clone(), wrap(&t), snapshot, follow));
                    }
                    Err(s) => {
                        let _ = tx.send(Ok(common::Data { metadata: error_metadata(&t, &s), bytes: Vec::new() })).await;
                    }
                }
            }
        }
    }
    Ok(Box::pin(ReceiverStream::new(rx)))
}

/// Splits `bytes` into data chunks.
fn chunks(bytes: &[u8], metadata: &Option<common::Metadata>) -> Vec<common::Data> {
    bytes.chunks(CHUNK).map(|c| common::Data { metadata: metadata.clone(), bytes: c.to_vec() }).collect()
}

/// Feeds one node's log (snapshot, then followed lines) into `tx`.
async fn pump_logs(
    tx: mpsc::Sender<Result<common::Data, Status>>,
    metadata: Option<common::Metadata>,
    snapshot: Vec<u8>,
    follow: Option<broadcast::Receiver<Vec<u8>>>,
) {
    for d in chunks(&snapshot, &metadata) {
        if tx.send(Ok(d)).await.is_err() {
            return;
        }
    }
    let Some(mut rx) = follow else { return };
    loop {
        tokio::select! {
            r = rx.recv() => match r {
                Ok(bytes) => {
                    for d in chunks(&bytes, &metadata) {
                        if tx.send(Ok(d)).await.is_err() {
                            return;
                        }
                    }
                }
                Err(broadcast::error::RecvError::Lagged(n)) => {
                    // Chunks were lost: end the stream rather than silently skip them.
                    let _ = tx.send(Err(lagged("log", n))).await;
                    return;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            _ = tx.closed() => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_lagging_log_follower_ends_with_data_loss() {
        let (btx, brx) = broadcast::channel(2);
        for i in 0..5u8 {
            btx.send(vec![b'0' + i, b'\n']).unwrap();
        }
        let (tx, mut rx) = mpsc::channel(8);
        pump_logs(tx, None, b"old\n".to_vec(), Some(brx)).await;
        assert_eq!(rx.recv().await.unwrap().unwrap().bytes, b"old\n");
        let err = rx.recv().await.unwrap().unwrap_err();
        assert_eq!(err.code(), tonic::Code::DataLoss);
        assert_eq!(err.message(), "log stream fell behind: 3 updates were dropped");
        assert!(rx.recv().await.is_none(), "the stream ends");
    }
}
