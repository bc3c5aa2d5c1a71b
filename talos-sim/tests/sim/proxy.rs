//! A fault-injecting TCP proxy between a client and a simulated node's endpoint, for the fault
//! tests: it forwards the (TLS) bytes both ways and, on command, resets every connection (a node
//! restart), stalls (a node that stops answering), or resets a connection instead of passing on
//! the node's next answers (the request reached the node; its answer never reaches the client).

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// The running proxy; dropping it stops accepting (open connections end with their peers).
pub struct Proxy {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept: tokio::task::JoinHandle<()>,
}

struct Shared {
    target: SocketAddr,
    /// Connections accepted so far.
    accepted: AtomicUsize,
    /// Node answers still to be dropped (each resets its connection instead).
    drop_answers: AtomicUsize,
    /// Bumped to reset every open connection.
    resets: watch::Sender<u64>,
    /// While true, no byte is passed on either way.
    stalled: watch::Sender<bool>,
}

impl Proxy {
    /// Listens on 127.0.0.1 (an ephemeral port) and forwards to `target`.
    pub async fn start(target: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let shared = Arc::new(Shared {
            target,
            accepted: AtomicUsize::new(0),
            drop_answers: AtomicUsize::new(0),
            resets: watch::channel(0).0,
            stalled: watch::channel(false).0,
        });
        let accepting = Arc::clone(&shared);
        let accept = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                accepting.accepted.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(forward(client, Arc::clone(&accepting)));
            }
        });
        Proxy { addr, shared, accept }
    }

    /// Where clients connect.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Connections accepted so far.
    pub fn accepted(&self) -> usize {
        self.shared.accepted.load(Ordering::SeqCst)
    }

    /// Resets every open connection (TCP RST to the client), as a node restart does.
    pub fn reset_all(&self) {
        self.shared.resets.send_modify(|n| *n += 1);
    }

    /// Resets the connection instead of passing on each of the node's next `n` answers (the
    /// first bytes the node sends after a request).
    pub fn drop_next_answers(&self, n: usize) {
        self.shared.drop_answers.store(n, Ordering::SeqCst);
    }

    /// Stops (or resumes) passing bytes on, both ways.
    pub fn stall(&self, stalled: bool) {
        self.shared.stalled.send_replace(stalled);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

/// One connection: both directions pumped until either side closes or a fault ends it. Ending
/// drops the client socket with linger 0, so the client sees a reset.
async fn forward(client: TcpStream, shared: Arc<Shared>) {
    let Ok(server) = TcpStream::connect(shared.target).await else { return };
    // Linger 0 (a reset on drop) never blocks; tokio deprecates linger for the blocking kind.
    #[allow(deprecated)]
    let _ = client.set_linger(Some(std::time::Duration::ZERO));
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let mut resets = shared.resets.subscribe();
    resets.mark_unchanged();
    let (mut client_read, mut client_write) = client.into_split();
    let (mut server_read, mut server_write) = server.into_split();
    let upstream = pump(&mut client_read, &mut server_write, &shared, false);
    let downstream = pump(&mut server_read, &mut client_write, &shared, true);
    tokio::select! {
        _ = upstream => {}
        _ = downstream => {}
        _ = resets.changed() => {}
    }
}

/// Copies chunks from `from` to `to`, waiting while stalled; on the answer side, a chunk that
/// arrives while answers are to be dropped ends the connection instead.
async fn pump<R, W>(from: &mut R, to: &mut W, shared: &Shared, answers: bool)
where
    R: AsyncReadExt + Unpin,
    W: AsyncWriteExt + Unpin,
{
    let mut buf = vec![0u8; 64 * 1024];
    let mut stalled = shared.stalled.subscribe();
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        if answers && take_one(&shared.drop_answers) {
            return;
        }
        if stalled.wait_for(|s| !*s).await.is_err() {
            return;
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

/// Takes one from a positive counter.
fn take_one(counter: &AtomicUsize) -> bool {
    counter.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok()
}
