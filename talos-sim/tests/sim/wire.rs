//! Wire-level checks with the generated tonic clients (no talos-client logic): mTLS, apid
//! routing, in-band errors, the version bookkeeping and the kubelet crash loop.

use std::time::Duration;

use talos_client::proto::common;
use talos_client::proto::cosi::resource as cosi;
use talos_client::proto::machine;
use talos_client::proto::machine::machine_service_client::MachineServiceClient;
use talos_client::proto::resource::config::MachineConfigSpec;
use talos_sim::{Sim, SimOptions, Timing};
use tonic::Request;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Identity};

async fn channel(
    endpoint: std::net::SocketAddr,
    ca: &str,
    crt: &str,
    key: &str,
) -> Result<Channel, tonic::transport::Error> {
    let tls = ClientTlsConfig::new().ca_certificate(Certificate::from_pem(ca)).identity(Identity::from_pem(crt, key));
    Channel::from_shared(format!("https://{endpoint}"))
        .expect("uri")
        .tls_config(tls)?
        .connect_timeout(Duration::from_secs(2))
        .timeout(Duration::from_secs(5))
        .connect()
        .await
}

async fn admin(sim: &Sim, endpoint: std::net::SocketAddr) -> Channel {
    channel(endpoint, sim.pki().ca_pem(), &sim.admin().cert_pem, &sim.admin().key_pem).await.expect("connect")
}

fn with_nodes<T>(msg: T, nodes: &[&str]) -> Request<T> {
    let mut r = Request::new(msg);
    for n in nodes {
        r.metadata_mut().append("nodes", n.parse().expect("ascii"));
    }
    r
}

fn with_node<T>(msg: T, node: &str) -> Request<T> {
    let mut r = Request::new(msg);
    r.metadata_mut().insert("node", node.parse().expect("ascii"));
    r
}

fn fast() -> SimOptions {
    SimOptions {
        timing: Timing {
            kubelet_restart: Duration::from_millis(300),
            kubelet_health: Duration::from_millis(200),
            node_monitor_grace: Duration::from_secs(40),
        },
        discovery: true,
    }
}

#[tokio::test]
async fn version_local_and_fanout() {
    let sim = Sim::start_with(fast()).await.expect("sim");
    let mut c = MachineServiceClient::new(admin(&sim, sim.controlplane.endpoint).await);
    let local = c.version(Request::new(())).await.expect("version").into_inner();
    assert_eq!(local.messages.len(), 1);
    assert!(local.messages[0].metadata.is_none());
    assert_eq!(local.messages[0].version.as_ref().map(|v| v.tag.as_str()), Some("v1.13.10"));
    assert_eq!(local.messages[0].platform.as_ref().map(|p| p.name.as_str()), Some("container"));

    let fan = c.version(with_nodes((), &["10.5.0.2", "10.5.0.3", "10.5.0.9"])).await.expect("fanout").into_inner();
    let hosts: Vec<_> = fan.messages.iter().map(|m| m.metadata.clone().unwrap_or_default()).collect();
    assert_eq!(hosts[0].hostname, "10.5.0.2");
    assert_eq!(hosts[1].hostname, "10.5.0.3");
    assert!(hosts[0].error.is_empty() && hosts[1].error.is_empty());
    assert_eq!(hosts[2].hostname, "10.5.0.9");
    assert!(hosts[2].error.starts_with("rpc error: code = Unavailable desc = "), "{}", hosts[2].error);
    assert_eq!(hosts[2].status.as_ref().map(|s| s.code), Some(14));
}

#[tokio::test]
async fn worker_refuses_to_forward() {
    let sim = Sim::start_with(fast()).await.expect("sim");
    let mut c = MachineServiceClient::new(admin(&sim, sim.worker.endpoint).await);
    let err = c.version(with_nodes((), &["10.5.0.2"])).await.expect_err("must refuse");
    assert_eq!(err.code(), tonic::Code::PermissionDenied);
    assert_eq!(err.message(), "no request forwarding");
    // Naming itself is served locally, without the wrapper.
    let own = c.version(with_nodes((), &["10.5.0.3"])).await.expect("self").into_inner();
    assert!(own.messages[0].metadata.is_none());
    let mut s = cosi::state_client::StateClient::new(admin(&sim, sim.worker.endpoint).await);
    let req = cosi::GetRequest {
        namespace: "config".into(),
        r#type: "MachineConfigs.config.talos.dev".into(),
        id: "v1alpha1".into(),
        options: None,
    };
    let err = s.get(with_node(req, "10.5.0.2")).await.expect_err("must refuse");
    assert_eq!(err.code(), tonic::Code::PermissionDenied);
}

async fn config_versions(s: &mut cosi::state_client::StateClient<Channel>, node: &str) -> (u64, u64, Vec<u8>) {
    let get = |id: &str| {
        with_node(
            cosi::GetRequest {
                namespace: "config".into(),
                r#type: "MachineConfigs.config.talos.dev".into(),
                id: id.into(),
                options: None,
            },
            node,
        )
    };
    let a = s.get(get("v1alpha1")).await.expect("get").into_inner().resource.expect("resource");
    let p = s.get(get("persistent")).await.expect("get").into_inner().resource.expect("resource");
    let v = |r: &cosi::Resource| r.metadata.as_ref().map(|m| m.version.parse::<u64>().expect("num")).unwrap_or(0);
    use prost::Message;
    let spec =
        MachineConfigSpec::decode(a.spec.as_ref().map(|s| s.proto_spec.as_slice()).unwrap_or_default()).expect("spec");
    (v(&a), v(&p), spec.yaml_marshalled)
}

/// Polls the worker's kubelet until its newest event has `state` or starts with `msg` (3 s max).
async fn poll_kubelet(m: &mut MachineServiceClient<Channel>, want: &str) -> machine::ServiceInfo {
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    loop {
        let list = m.service_list(with_nodes((), &["10.5.0.3"])).await.expect("services").into_inner();
        let kubelet = list.messages[0].services.iter().find(|s| s.id == "kubelet").expect("kubelet").clone();
        let last = kubelet.events.as_ref().and_then(|e| e.events.last()).cloned().unwrap_or_default();
        let done = if want == "Waiting" {
            last.state == want && last.msg.starts_with("Error running")
        } else {
            last.msg == want
        };
        if done || std::time::Instant::now() > deadline {
            return kubelet;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn bookkeeping_and_kubelet_over_the_wire() {
    let sim = Sim::start_with(fast()).await.expect("sim");
    let ch = admin(&sim, sim.controlplane.endpoint).await;
    let mut m = MachineServiceClient::new(ch.clone());
    let mut s = cosi::state_client::StateClient::new(ch);
    let (a, p, body) = config_versions(&mut s, "10.5.0.3").await;
    assert_eq!((a, p), (1, 1));
    assert_eq!(body, talos_sim::WORKER_CONFIG);

    let patch = |base: &[u8], p: &str| {
        let patches = talos_config::load_patches([talos_config::PatchSource::new("p.yaml", p)]).expect("patch");
        talos_config::apply_patches(base, &patches).expect("apply")
    };
    let apply = |data: Vec<u8>, mode: i32, timeout: Option<Duration>| machine::ApplyConfigurationRequest {
        data,
        mode,
        dry_run: false,
        try_mode_timeout: timeout
            .map(|d| prost_types::Duration { seconds: d.as_secs() as i64, nanos: d.subsec_nanos() as i32 }),
    };
    let step5 = patch(&body, "machine:\n  nodeLabels:\n    lab.talos.dev/pool: blue\n");
    let r = m
        .apply_configuration(with_nodes(apply(step5.clone(), 2, None), &["10.5.0.3"]))
        .await
        .expect("apply")
        .into_inner();
    assert_eq!(r.messages[0].mode_details, "Applied configuration without a reboot");
    assert_eq!(r.messages[0].metadata.as_ref().map(|m| m.hostname.as_str()), Some("10.5.0.3"));
    assert_eq!(config_versions(&mut s, "10.5.0.3").await.0, 2);

    let step6 = patch(&step5, "machine:\n  nodeLabels:\n    lab.talos.dev/canary: \"on\"\n");
    let r = m
        .apply_configuration(with_nodes(apply(step6, 4, Some(Duration::from_millis(1500))), &["10.5.0.3"]))
        .await
        .expect("apply")
        .into_inner();
    assert_eq!(
        r.messages[0].mode_details,
        "Applied configuration without a reboot\nThe config is applied in 'try' mode and will be automatically reverted back in 1.5s"
    );
    assert_eq!(&config_versions(&mut s, "10.5.0.3").await.0, &3);
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while config_versions(&mut s, "10.5.0.3").await.0 != 4 && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (a, p, body) = config_versions(&mut s, "10.5.0.3").await;
    assert_eq!((a, p), (4, 2));
    assert_eq!(body, step5);

    let bad = patch(&step5, "machine:\n  nodeLabels:\n    lab.talos.dev/team name: platform\n");
    let r = m.apply_configuration(with_nodes(apply(bad, 2, None), &["10.5.0.3"])).await.expect("in-band").into_inner();
    let md = r.messages[0].metadata.clone().unwrap_or_default();
    assert_eq!(
        md.error,
        "rpc error: code = InvalidArgument desc = 1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* invalid machine node labels: 1 error occurred:\n\t* name \"team name\" is invalid\n\n\n\n\n\n"
    );
    assert_eq!(md.status.map(|s| s.code), Some(3));
    assert_eq!(config_versions(&mut s, "10.5.0.3").await.0, 4);

    let step8 = patch(&step5, "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n");
    m.apply_configuration(with_nodes(apply(step8.clone(), 2, None), &["10.5.0.3"])).await.expect("apply");
    let (a, p, _) = config_versions(&mut s, "10.5.0.3").await;
    assert_eq!((a, p), (5, 3));
    let kubelet = poll_kubelet(&mut m, "Waiting").await;
    assert_eq!(kubelet.state, "Waiting");
    assert_eq!(kubelet.health.as_ref().map(|h| h.healthy), Some(false));
    let last = kubelet.events.as_ref().and_then(|e| e.events.last()).map(|e| e.msg.clone()).unwrap_or_default();
    assert!(last.starts_with("Error running Containerd(kubelet), going to restart forever: task \"kubelet\" failed: exit code 1 (last log \"E"), "{last}");

    let mut logs = m
        .logs(with_nodes(
            machine::LogsRequest {
                namespace: "system".into(),
                id: "kubelet".into(),
                driver: 0,
                follow: false,
                tail_lines: 1,
            },
            &["10.5.0.3"],
        ))
        .await
        .expect("logs")
        .into_inner();
    let mut text = Vec::new();
    while let Some(d) = logs.message().await.expect("chunk") {
        text.extend(d.bytes);
    }
    let text = String::from_utf8(text).expect("utf8");
    assert!(
        text.ends_with(
            " run.go:72] \"command failed\" err=\"failed to parse kubelet flag: unknown flag: --max-pod\"\n"
        ),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1);

    let fix = patch(&step8, "machine:\n  kubelet:\n    extraArgs:\n      max-pod:\n        $patch: delete\n");
    m.apply_configuration(with_nodes(apply(fix, 2, None), &["10.5.0.3"])).await.expect("apply");
    assert_eq!(config_versions(&mut s, "10.5.0.3").await.0, 6);
    let kubelet = poll_kubelet(&mut m, "Health check successful").await;
    assert_eq!(kubelet.state, "Running");
    assert_eq!(kubelet.health.as_ref().map(|h| h.healthy), Some(true));
}

#[tokio::test]
async fn kubeconfig_only_on_controlplane() {
    let sim = Sim::start_with(fast()).await.expect("sim");
    let mut c = MachineServiceClient::new(admin(&sim, sim.controlplane.endpoint).await);
    let mut st = c.kubeconfig(with_nodes((), &["10.5.0.2", "10.5.0.3"])).await.expect("kubeconfig").into_inner();
    let mut items: Vec<common::Data> = Vec::new();
    while let Some(d) = st.message().await.expect("chunk") {
        items.push(d);
    }
    assert_eq!(items.len(), 2);
    assert!(!items[0].bytes.is_empty());
    let err = items[1].metadata.clone().unwrap_or_default();
    assert_eq!(err.error, "rpc error: code = Unimplemented desc = kubeconfig is only available on control plane nodes");
}

#[tokio::test]
async fn cosi_routing_rules() {
    let sim = Sim::start_with(fast()).await.expect("sim");
    let mut s = cosi::state_client::StateClient::new(admin(&sim, sim.controlplane.endpoint).await);
    let list = |ns: &str, t: &str| cosi::ListRequest { namespace: ns.into(), r#type: t.into(), options: None };
    let err = s.list(with_nodes(list("cluster", "Members.cluster.talos.dev"), &["10.5.0.3"])).await.expect_err("nodes");
    assert_eq!(err.code(), tonic::Code::InvalidArgument);
    assert_eq!(err.message(), "one-2-many proxying is not supported for method /cosi.resource.State/List");
    let mut two = Request::new(list("cluster", "Members.cluster.talos.dev"));
    two.metadata_mut().append("node", "10.5.0.2".parse().expect("ascii"));
    two.metadata_mut().append("node", "10.5.0.3".parse().expect("ascii"));
    let err = s.list(two).await.expect_err("two node values");
    assert_eq!(err.message(), "node metadata must be single-valued");
    let err = s.list(with_node(list("cluster", "Nope.talos.dev"), "10.5.0.3")).await.expect_err("unknown type");
    assert_eq!(err.code(), tonic::Code::PermissionDenied);
    assert_eq!(err.message(), "resource type \"Nope.talos.dev\" is not supported");

    // One-to-one forwarding is verbatim: the worker's members, sorted by id, no wrapper.
    let mut st =
        s.list(with_node(list("cluster", "Members.cluster.talos.dev"), "10.5.0.3")).await.expect("list").into_inner();
    let mut ids = Vec::new();
    while let Some(r) = st.message().await.expect("item") {
        let md = r.resource.and_then(|r| r.metadata).expect("metadata");
        ids.push(md.id);
    }
    assert_eq!(ids, ["talos-default-controlplane-1", "talos-default-worker-1"]);

    let get = cosi::GetRequest {
        namespace: "config".into(),
        r#type: "MachineConfigs.config.talos.dev".into(),
        id: "nope".into(),
        options: None,
    };
    let err = s.get(with_node(get, "10.5.0.3")).await.expect_err("missing");
    assert_eq!(err.code(), tonic::Code::NotFound);
    assert_eq!(err.message(), "resource MachineConfigs.config.talos.dev(config/nope@undefined) doesn't exist");

    // Service resources change with the kubelet's state.
    let mut w = s
        .watch(with_node(
            cosi::WatchRequest {
                namespace: "runtime".into(),
                r#type: "Services.v1alpha1.talos.dev".into(),
                id: Some("kubelet".into()),
                options: Some(cosi::WatchOptions { bootstrap_contents: true, ..Default::default() }),
                api_version: 1,
            },
            "10.5.0.3",
        ))
        .await
        .expect("watch")
        .into_inner();
    let first = w.message().await.expect("event").expect("some");
    assert_eq!(first.event[0].event_type, cosi::EventType::Created as i32);
    let boot = w.message().await.expect("event").expect("some");
    assert_eq!(boot.event[0].event_type, cosi::EventType::Bootstrapped as i32);
}
