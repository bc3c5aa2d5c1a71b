//! Helpers shared by the simulator's integration tests.

use std::process::Command;
use std::time::{Duration, Instant};

/// Polls `f` every 50 ms until it returns `Some`, for at most `limit`.
pub async fn eventually<T, F, Fut>(limit: Duration, mut f: F) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let start = Instant::now();
    loop {
        if let Some(v) = f().await {
            return Some(v);
        }
        if start.elapsed() > limit {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether `program` runs here (`version_arg` is how it prints its version); `false` (with a
/// note) only outside CI.
pub fn have(program: &str, version_arg: &str) -> bool {
    let found = Command::new(program).arg(version_arg).output().is_ok_and(|o| o.status.success());
    if !found {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{program} is missing on the CI machine");
        eprintln!("note: {program} is not installed: interop check skipped");
    }
    found
}

/// Python's `ssl` (OpenSSL) loads `ca`, `crt` and `key` (files; the key under the `PRIVATE KEY`
/// label, the only one it reads) and completes a handshake with 127.0.0.1:`port`, offering
/// `h2`; stdout is the TLS version and the protocol agreed.
pub async fn python_tls_handshake(ca: String, crt: String, key: String, port: u16) -> std::process::Output {
    let script = "import socket, ssl, sys\n\
        ca, crt, key, port = sys.argv[1:5]\n\
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)\n\
        ctx.load_verify_locations(cafile=ca)\n\
        ctx.load_cert_chain(certfile=crt, keyfile=key)\n\
        ctx.set_alpn_protocols(['h2'])\n\
        with socket.create_connection(('127.0.0.1', int(port)), timeout=10) as raw:\n\
        \x20   with ctx.wrap_socket(raw, server_hostname='127.0.0.1') as tls:\n\
        \x20       print(tls.version(), tls.selected_alpn_protocol())\n";
    let port = port.to_string();
    tokio::task::spawn_blocking(move || {
        Command::new("python3").args(["-c", script, &ca, &crt, &key, &port]).output().expect("python3 runs")
    })
    .await
    .expect("join")
}
