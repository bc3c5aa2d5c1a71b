//! The HTTPS server: TLS with required client certificates, HTTP/1.1 or HTTP/2, one JSON reply
//! per request.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::{JoinHandle, JoinSet};

use super::KubeState;

/// How long a TLS handshake may take before the connection is dropped.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

async fn handle(state: Arc<KubeState>, req: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let (code, body) = state.route(req.method(), req.uri().path(), req.uri().query(), SystemTime::now());
    let mut text = serde_json::to_vec(&body).unwrap_or_default();
    text.push(b'\n');
    let mut resp = Response::new(Full::new(Bytes::from(text)));
    *resp.status_mut() = code;
    resp.headers_mut().insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static("application/json"));
    resp.headers_mut()
        .insert(hyper::header::CACHE_CONTROL, hyper::header::HeaderValue::from_static("no-cache, private"));
    Ok(resp)
}

/// Serves `state` on `listener` until the sender is used or dropped. Every connection task ends
/// with the server task.
pub(crate) fn serve(
    state: Arc<KubeState>,
    listener: TcpListener,
    tls: Arc<rustls::ServerConfig>,
) -> (oneshot::Sender<()>, JoinHandle<()>) {
    let (tx, mut rx) = oneshot::channel::<()>();
    let acceptor = tokio_rustls::TlsAcceptor::from(tls);
    let handle = tokio::spawn(async move {
        let mut conns = JoinSet::new();
        loop {
            tokio::select! {
                _ = &mut rx => break,
                accepted = listener.accept() => {
                    let Ok((tcp, _)) = accepted else {
                        // Out of descriptors or similar: back off instead of spinning.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    };
                    // Replies go out at once (no Nagle delay against the client's delayed ACK).
                    let _ = tcp.set_nodelay(true);
                    let acceptor = acceptor.clone();
                    let state = Arc::clone(&state);
                    conns.spawn(async move {
                        let Ok(Ok(stream)) = tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await else {
                            return;
                        };
                        let service = hyper::service::service_fn(move |req| handle(Arc::clone(&state), req));
                        let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                    while conns.try_join_next().is_some() {}
                }
            }
        }
        conns.abort_all();
    });
    (tx, handle)
}
