//! End-to-end mutual TLS and roles: a server or client certificate the other side must refuse
//! (another CA, no client-auth usage, expired), unreachable endpoints within the timeout, a
//! `labctl sim up` talosconfig, the reader role's limits, and a saved PKI's identities.

use std::time::{Duration, Instant};

use talos_client::{ApplyMode, ApplyOptions, Client, ClientOptions, Code, Error, ErrorKind, RefusedBy, Target};
use talos_sim::{ClientUsage, Pki, Sim, SimOptions, Validity};

use crate::e2e::{CONTROLPLANE, WORKER, options, sim};

/// Connects and makes one call: TLS failures surface at connect or (TLS 1.3 client-certificate
/// rejection) at the first call.
async fn first_call(cfg: &talos_client::Talosconfig) -> Result<(), Error> {
    let c = Client::connect(cfg, options()).await?;
    c.version(&Target::Endpoint).await.map(|_| ())
}

#[tokio::test]
async fn server_cert_from_another_ca_is_refused() {
    let sim = sim().await;
    let other = Pki::new().expect("pki");
    let cfg = Sim::talosconfig_with(&sim.controlplane.endpoint.to_string(), other.ca_pem(), sim.admin());
    let started = Instant::now();
    let err = first_call(&cfg).await.expect_err("untrusted server");
    let endpoint = sim.controlplane.endpoint.to_string();
    // The foreign CA has the same subject (O=talos): rustls finds it as issuer and the signature check fails.
    let Some(refusal) = err.tls_refusal() else { panic!("{err:?}") };
    assert_eq!(refusal.refused_by, RefusedBy::Client);
    assert_eq!(
        err.to_string(),
        format!(
            "the certificate of {endpoint} is not trusted (its signature does not verify against the CA): it is not signed by the talosconfig's CA: the endpoint is another cluster's node, or the talosconfig's `ca` is out of date"
        )
    );
    assert!(started.elapsed() < Duration::from_secs(3));
}

/// apid refuses a client certificate in the handshake with the alert Go sends, and the client
/// says so on the first call and on every later one (the channel is broken; no bare `Canceled`).
async fn refused(sim: &Sim, cert: &talos_sim::CertKey) -> Vec<String> {
    let cfg = Sim::talosconfig_with(&sim.controlplane.endpoint.to_string(), sim.pki().ca_pem(), cert);
    let c = match Client::connect(&cfg, options()).await {
        Ok(c) => c,
        Err(e) => return vec![e.to_string()],
    };
    let mut texts = Vec::new();
    for _ in 0..2 {
        let err = c.version(&Target::Endpoint).await.expect_err("refused");
        assert!(err.tls_refusal().is_some_and(|r| r.refused_by == RefusedBy::Server), "{err:?}");
        texts.push(err.to_string());
    }
    texts
}

#[tokio::test]
async fn client_cert_without_client_auth_is_refused() {
    let sim = sim().await;
    let endpoint = sim.controlplane.endpoint;
    let expected = format!(
        "{endpoint} refused our client certificate (TLS alert: bad certificate): Talos accepts only client certificates whose extended key usage is exactly client authentication, as `talosctl config new` makes them"
    );
    for usage in [ClientUsage::ServerAuthOnly, ClientUsage::NoExtendedUsage] {
        let cert = sim.pki().client_cert(&["os:admin"], usage, Validity::Current).expect("cert");
        assert_eq!(refused(&sim, &cert).await, [expected.clone(), expected.clone()], "{usage:?}");
    }
}

#[tokio::test]
async fn expired_client_cert_is_refused() {
    let sim = sim().await;
    let endpoint = sim.controlplane.endpoint;
    let cert = sim.pki().client_cert(&["os:admin"], ClientUsage::ClientAuth, Validity::Expired).expect("cert");
    let expired = format!(
        "{endpoint} refused our client certificate (TLS alert: expired certificate): it has expired or is not valid yet: make a new one (`talosctl config new` with a working talosconfig) and check the clock"
    );
    assert_eq!(refused(&sim, &cert).await, [expired.clone(), expired]);
    // A client certificate from another CA of the same name: Go's `unknown certificate authority`.
    let other = Pki::new().expect("pki");
    let foreign = other.admin_cert().expect("cert");
    let unknown = format!(
        "{endpoint} refused our client certificate (TLS alert: unknown certificate authority): the cluster does not know the CA that signed it: this talosconfig is for another cluster or an older CA; use a current talosconfig"
    );
    assert_eq!(refused(&sim, &foreign).await, [unknown.clone(), unknown]);
}

#[tokio::test]
async fn unreachable_endpoints_fail_clearly_within_the_timeout() {
    let sim = sim().await;
    // A port held by a bound socket that never listens: nobody else can take it, and connecting is refused at once.
    let reserved = tokio::net::TcpSocket::new_v4().expect("socket");
    reserved.bind("127.0.0.1:0".parse().expect("addr")).expect("bind");
    let closed = reserved.local_addr().expect("addr");
    let cfg = Sim::talosconfig_with(&closed.to_string(), sim.pki().ca_pem(), sim.admin());
    let started = Instant::now();
    let err = first_call(&cfg).await.expect_err("refused");
    assert_eq!(err.kind(), ErrorKind::Connect, "{err:?}");
    assert_eq!(
        err.to_string(),
        format!(
            "failed to connect to {closed}: transport error: tcp connect error: Connection refused (os error 111) \
             (check that the node is up and that {closed} is its Talos API address)"
        )
    );
    assert!(started.elapsed() < Duration::from_secs(3));
    drop(reserved);

    // A listener that never accepts: the kernel completes the TCP handshake, nobody speaks TLS, the connect
    // timeout ends it.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = silent.local_addr().expect("addr");
    let cfg = Sim::talosconfig_with(&addr.to_string(), sim.pki().ca_pem(), sim.admin());
    let quick = ClientOptions {
        context: None,
        connect_timeout: Duration::from_millis(500),
        call_timeout: Duration::from_secs(1),
    };
    let started = Instant::now();
    let err = Client::connect(&cfg, quick).await.expect_err("times out");
    let elapsed = started.elapsed();
    assert_eq!(
        err.to_string(),
        format!(
            "failed to connect to {addr}: timed out after 500ms (check that the node is up and that {addr} is its \
             Talos API address)"
        )
    );
    assert!(elapsed >= Duration::from_millis(500) && elapsed < Duration::from_secs(5), "{elapsed:?}");
    drop(silent);
}

#[tokio::test]
/// The talosconfig a `labctl sim up` directory holds loads and connects (its file mode is
/// labctl's business: `labctl/tests/cli/lab_cli.rs` checks 0600).
async fn talosconfig_file_loads() {
    let sim = sim().await;
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("talosconfig");
    std::fs::write(&path, sim.talosconfig_yaml()).expect("written");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(!text.contains("PRIVATE KEY"), "PEMs are base64-encoded");
    let cfg = talos_client::Talosconfig::from_file(&path).expect("parses");
    let c = Client::connect(&cfg, options()).await.expect("connects");
    assert_eq!(c.version(&Target::node(WORKER)).await.expect("version").node, WORKER);
}

#[tokio::test]
async fn reader_role_is_limited() {
    let sim = sim().await;
    let cert = sim.pki().client_cert(&["os:reader"], ClientUsage::ClientAuth, Validity::Current).expect("cert");
    let cfg = Sim::talosconfig_with(&sim.controlplane.endpoint.to_string(), sim.pki().ca_pem(), &cert);
    let c = Client::connect(&cfg, options()).await.expect("connects");
    let worker = Target::node(WORKER);
    assert_eq!(c.version(&worker).await.expect("reader may read versions").tag, "v1.13.10");
    assert_eq!(c.members(&worker).await.expect("and members").len(), 2);
    for err in [
        c.machine_config(&worker, "v1alpha1").await.expect_err("sensitive"),
        c.kubeconfig(&Target::node(CONTROLPLANE)).await.expect_err("admin only"),
        c.apply_configuration(&worker, talos_sim::WORKER_CONFIG, ApplyOptions::mode(ApplyMode::NoReboot))
            .await
            .expect_err("admin only"),
    ] {
        assert_eq!(err.code(), Some(Code::PermissionDenied), "{err}");
        assert_eq!(err.message(), "not authorized");
    }
}

/// A saved PKI brings back the CA and the client identities: the first run's talosconfigs work
/// against the second run, with their roles.
#[tokio::test]
async fn a_saved_pki_keeps_the_ca_and_the_identities() {
    let first = sim().await;
    let saved = first.saved_pki().expect("saved");
    assert_eq!(format!("{saved:?}"), "SavedPki { roles: [\"admin\", \"operator\", \"reader\"], .. }");
    drop(first);
    let second = Sim::start_saved(SimOptions::default(), Some(&saved)).await.expect("second run");
    assert_eq!(second.pki().ca_pem(), saved.ca_cert);
    let endpoint = second.controlplane.endpoint.to_string();
    for (name, _) in talos_sim::ROLES {
        let kept = &saved.clients[name];
        let identity = talos_sim::CertKey { cert_pem: kept.cert.clone(), key_pem: kept.key.clone() };
        assert_eq!(second.identity(name).expect("identity").cert_pem, identity.cert_pem);
        let c = Client::connect(&Sim::talosconfig_with(&endpoint, &saved.ca_cert, &identity), options())
            .await
            .expect("connects");
        assert_eq!(c.version(&Target::node(WORKER)).await.expect("version").node, WORKER, "{name}");
    }
    let reader = second.identity("reader").expect("reader");
    let c = Client::connect(&Sim::talosconfig_with(&endpoint, &saved.ca_cert, reader), options()).await.expect("c");
    let err = c.kubeconfig(&Target::Endpoint).await.expect_err("a reader may not fetch the kubeconfig");
    assert_eq!(err.code(), Some(Code::PermissionDenied));
}
