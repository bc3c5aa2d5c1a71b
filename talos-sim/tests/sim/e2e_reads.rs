//! End-to-end reads: logs (tail and follow), the kubeconfig, version, services, members and a
//! watch, through the control plane; the worker refuses to forward.

use std::time::Duration;

use talos_client::{ApplyMode, ApplyOptions, Client, Code, EventType, LogsRequest, MACHINE_CONFIG, Target};
use talos_sim::Sim;

use crate::e2e::{CONTROLPLANE, STEP5, WORKER, client, options, patch, sim};

#[tokio::test]
async fn logs_tail_and_follow() {
    let sim = sim().await;
    let c = client(&sim).await;
    let worker = Target::node(WORKER);
    let all = c.logs_lines(&worker, &LogsRequest::service("machined")).await.expect("log");
    assert!(all.len() > 5);
    let tail = c
        .logs_lines(&worker, &LogsRequest { id: "machined".into(), kubernetes: false, follow: false, tail: Some(3) })
        .await
        .expect("tail");
    assert_eq!(tail, all[all.len() - 3..].to_vec());
    let none = c
        .logs_lines(&worker, &LogsRequest { id: "machined".into(), kubernetes: false, follow: false, tail: Some(0) })
        .await
        .expect("tail 0");
    assert!(none.is_empty());

    let mut follow = c
        .logs(&worker, &LogsRequest { id: "machined".into(), kubernetes: false, follow: true, tail: Some(1) })
        .await
        .expect("follow");
    let first = tokio::time::timeout(Duration::from_secs(2), follow.next_line()).await.expect("in time");
    assert_eq!(first.expect("a line").expect("ok").line, all[all.len() - 1].line);
    c.patch_machine_config(WORKER, &patch(STEP5), ApplyOptions::mode(ApplyMode::NoReboot)).await.expect("apply");
    let seen = tokio::time::timeout(Duration::from_secs(3), async {
        while let Some(line) = follow.next_line().await {
            let line = line.expect("ok");
            assert_eq!(line.node, WORKER);
            if line.line.ends_with(" apply config request: mode no_reboot") {
                return true;
            }
        }
        false
    })
    .await
    .expect("followed in time");
    assert!(seen);

    let err = c.logs_lines(&worker, &LogsRequest::service("nope")).await.expect_err("unknown log");
    assert_eq!(err.message(), "log \"nope\" was not registered");
}

#[tokio::test]
async fn kubeconfig_bytes() {
    let sim = sim().await;
    let c = client(&sim).await;
    assert_eq!(c.kubeconfig(&Target::node(CONTROLPLANE)).await.expect("kubeconfig"), sim.kubeconfig());
    assert_eq!(c.kubeconfig(&Target::Endpoint).await.expect("kubeconfig"), sim.kubeconfig());
    let text = String::from_utf8(sim.kubeconfig().to_vec()).expect("utf8");
    // The client certificate and key are fresh per run: take them from the text, check everything else exactly.
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.trim_start().strip_prefix(&format!("{name}: ")).map(str::to_string))
            .expect("field present")
    };
    use base64::Engine as _;
    let ca = field("certificate-authority-data");
    let ca_pem =
        String::from_utf8(base64::engine::general_purpose::STANDARD.decode(&ca).expect("base64")).expect("pem");
    assert!(ca_pem.starts_with("-----BEGIN CERTIFICATE-----\n"), "{ca_pem}");
    let expected = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n    - name: talos-default\n      cluster:\n        server: https://{}\n        certificate-authority-data: {ca}\nusers:\n    - name: admin@talos-default\n      user:\n        client-certificate-data: {}\n        client-key-data: {}\ncontexts:\n    - context:\n        cluster: talos-default\n        namespace: default\n        user: admin@talos-default\n      name: admin@talos-default\ncurrent-context: admin@talos-default\n",
        sim.kube_api_endpoint(),
        field("client-certificate-data"),
        field("client-key-data"),
    );
    assert_eq!(text, expected);
    let err = c.kubeconfig(&Target::node(WORKER)).await.expect_err("worker has none");
    assert_eq!(err.code(), Some(Code::Unimplemented));
    assert_eq!(err.message(), "kubeconfig is only available on control plane nodes");
}

#[tokio::test]
async fn version_services_members_and_watch() {
    let sim = sim().await;
    let c = client(&sim).await;
    for node in [CONTROLPLANE, WORKER] {
        let v = c.version(&Target::node(node)).await.expect("version");
        assert_eq!((v.node.as_str(), v.tag.as_str()), (node, "v1.13.10"));
        assert_eq!((v.platform_name.as_str(), v.platform_mode.as_str()), ("container", "container"));
        assert!(v.rbac);
    }
    let ids = |s: Vec<talos_client::ServiceInfo>| s.into_iter().map(|s| s.id).collect::<Vec<_>>();
    assert_eq!(
        ids(c.service_list(&Target::node(CONTROLPLANE)).await.expect("services")),
        ["apid", "containerd", "cri", "etcd", "kubelet", "machined", "trustd"]
    );
    assert_eq!(
        ids(c.service_list(&Target::node(WORKER)).await.expect("services")),
        ["apid", "containerd", "cri", "kubelet", "machined"]
    );
    for s in c.service_list(&Target::node(WORKER)).await.expect("services") {
        assert_eq!((s.state.as_str(), s.health_text()), ("Running", "OK"), "{}", s.id);
        assert_eq!(s.events.last().map(|e| e.msg.as_str()), Some("Health check successful"));
    }
    let members = c.members(&Target::node(WORKER)).await.expect("members");
    let rows: Vec<_> = members
        .iter()
        .map(|m| (m.id.as_str(), m.machine_type.as_str(), m.operating_system.as_str(), m.addresses.clone()))
        .collect();
    assert_eq!(
        rows,
        [
            ("talos-default-controlplane-1", "controlplane", "Talos (v1.13.10)", vec!["10.5.0.2".parse().expect("ip")]),
            ("talos-default-worker-1", "worker", "Talos (v1.13.10)", vec!["10.5.0.3".parse().expect("ip")]),
        ]
    );
    assert_eq!(members[0].api_server_port, Some(6443));
    let svc = c.service_resources(&Target::node(WORKER)).await.expect("service resources");
    assert_eq!(svc.len(), 5);

    let mut watch = c.watch(&Target::node(WORKER), MACHINE_CONFIG, Some("v1alpha1"), false).await.expect("watch");
    let first = tokio::time::timeout(Duration::from_secs(2), watch.next_event()).await.expect("in time");
    let first = first.expect("event").expect("ok");
    assert_eq!(first.resource.as_ref().and_then(|r| r.version()), Some(1));
    c.patch_machine_config(WORKER, &patch(STEP5), ApplyOptions::mode(ApplyMode::NoReboot)).await.expect("apply");
    let next = tokio::time::timeout(Duration::from_secs(2), watch.next_event()).await.expect("in time");
    let next = next.expect("event").expect("ok");
    assert_eq!(next.event_type, EventType::Updated);
    assert_eq!(next.resource.as_ref().and_then(|r| r.version()), Some(2));
}

#[tokio::test]
async fn worker_refuses_to_forward() {
    let sim = sim().await;
    let cfg = Sim::talosconfig_with(&sim.worker.endpoint.to_string(), sim.pki().ca_pem(), sim.admin());
    let c = Client::connect(&cfg, options()).await.expect("connects to the worker");
    let err = c.version(&Target::node(CONTROLPLANE)).await.expect_err("no forwarding");
    assert_eq!(err.code(), Some(Code::PermissionDenied));
    assert_eq!(err.message(), "no request forwarding");
    let err = c.machine_config(&Target::node(CONTROLPLANE), "v1alpha1").await.expect_err("no forwarding");
    assert_eq!(err.code(), Some(Code::PermissionDenied));
    // The worker serves itself, with or without naming itself.
    assert_eq!(c.version(&Target::node(WORKER)).await.expect("self").tag, "v1.13.10");
    assert_eq!(c.version(&Target::Endpoint).await.expect("endpoint").tag, "v1.13.10");
}
