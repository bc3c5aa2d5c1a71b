//! Load (issue 29): 64 clients, each on its own mutual TLS connection, doing mixed reads at
//! the same time against both nodes (the control plane as the endpoint, and the worker through
//! it): every call succeeds and answers exactly what one client alone gets.

use std::sync::Arc;
use std::time::Duration;

use talos_client::{
    Client, ClientOptions, LogLine, LogsRequest, MachineConfig, Member, ServiceInfo, Target, VersionInfo,
};
use talos_sim::Sim;

const CLIENTS: usize = 64;
const ROUNDS: usize = 20;
/// Calls per round and target: version, services, COSI get, COSI list, logs.
const CALLS_PER_TARGET: usize = 5;
const WORKER: &str = "10.5.0.3";
/// Lines of machined's log read per logs call.
const TAIL: u32 = 4;

/// Every answer of one round for one target.
#[derive(Debug, PartialEq)]
struct Answers {
    version: VersionInfo,
    services: Vec<ServiceInfo>,
    config: MachineConfig,
    members: Vec<Member>,
    log: Vec<LogLine>,
}

/// One round of the mixed reads for `target`; a failed call fails the test.
async fn read_all(c: &Client, target: &Target) -> Answers {
    Answers {
        version: c.version(target).await.expect("version"),
        services: c.service_list(target).await.expect("services"),
        config: c.machine_config(target, "v1alpha1").await.expect("machine config get"),
        members: c.members(target).await.expect("members list"),
        log: c
            .logs_lines(
                target,
                &LogsRequest { id: "machined".into(), kubernetes: false, follow: false, tail: Some(TAIL) },
            )
            .await
            .expect("logs"),
    }
}

fn options() -> ClientOptions {
    // A call (or a finite stream) that hangs fails the test after this long instead of hanging it.
    ClientOptions { context: None, connect_timeout: Duration::from_secs(10), call_timeout: Duration::from_secs(10) }
}

/// A machined log line without its `[talos] YYYY/MM/DD hh:mm:ss ` prefix.
fn message(line: &LogLine) -> &str {
    let (prefix, message) = line.line.split_at(28);
    assert!(prefix.starts_with("[talos] ") && prefix.ends_with(' '), "{:?}", line.line);
    message
}

/// What one client alone gets, checked against the known values of a freshly started simulator.
async fn alone(sim: &Sim, targets: &[Target]) -> Vec<Answers> {
    let c = Client::connect(&sim.talosconfig(), options()).await.expect("connects");
    let endpoint = sim.controlplane.endpoint.to_string();
    let mut out = Vec::new();
    for target in targets {
        let a = read_all(&c, target).await;
        let (node, config, services, last): (&str, &[u8], &[&str], &str) = match target {
            Target::Endpoint => (
                &endpoint,
                talos_sim::CONTROLPLANE_CONFIG,
                &["apid", "containerd", "cri", "etcd", "kubelet", "machined", "trustd"],
                "trustd",
            ),
            Target::Node(_) => {
                (WORKER, talos_sim::WORKER_CONFIG, &["apid", "containerd", "cri", "kubelet", "machined"], "machined")
            }
        };
        assert_eq!((a.version.node.as_str(), a.version.tag.as_str()), (node, "v1.13.10"));
        let ids: Vec<&str> = a.services.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, services);
        assert_eq!((a.config.node.as_str(), a.config.id.as_str(), a.config.version.as_str()), (node, "v1alpha1", "1"));
        assert_eq!(a.config.bytes, config);
        let hostnames: Vec<(&str, &str)> = a.members.iter().map(|m| (m.node.as_str(), m.hostname.as_str())).collect();
        assert_eq!(hostnames, [(node, "talos-default-controlplane-1"), (node, "talos-default-worker-1")]);
        let log: Vec<(&str, &str)> = a.log.iter().map(|l| (l.node.as_str(), message(l))).collect();
        let runner = match last {
            "machined" => "Service started as goroutine",
            // The simulated process ids are handed out in service order from 1100.
            _ => "Started task trustd (PID 1116) for container trustd",
        };
        let expected_tail = [
            format!("service[{last}](Preparing): Running pre state"),
            format!("service[{last}](Preparing): Creating service runner"),
            format!("service[{last}](Running): {runner}"),
            format!("service[{last}](Running): Health check successful"),
        ];
        let expected_tail: Vec<(&str, &str)> = expected_tail.iter().map(|m| (node, m.as_str())).collect();
        assert_eq!(log, expected_tail);
        out.push(a);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_four_clients_mixed_reads() {
    let sim = Sim::start().await.expect("sim starts");
    let targets = [Target::Endpoint, Target::node(WORKER)];
    let baseline = Arc::new(alone(&sim, &targets).await);

    // Every client connects first (its own TLS connection), then all start reading together.
    let start = Arc::new(tokio::sync::Barrier::new(CLIENTS));
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..CLIENTS {
        let config = sim.talosconfig();
        let (start, baseline, targets) = (Arc::clone(&start), Arc::clone(&baseline), targets.clone());
        tasks.spawn(async move {
            let c = Client::connect(&config, options()).await.expect("connects");
            start.wait().await;
            let mut calls = 0;
            for round in 0..ROUNDS {
                for (target, expected) in targets.iter().zip(baseline.iter()) {
                    let got = read_all(&c, target).await;
                    assert!(got == *expected, "client {i}, round {round}, {target:?}: {got:#?}\nalone: {expected:#?}");
                    calls += CALLS_PER_TARGET;
                }
            }
            calls
        });
    }
    let all = tokio::time::timeout(Duration::from_secs(120), async {
        let mut calls = Vec::new();
        while let Some(r) = tasks.join_next().await {
            calls.push(r.expect("client task"));
        }
        calls
    })
    .await
    .expect("the clients finish within 120 s");
    assert_eq!(all, vec![ROUNDS * 2 * CALLS_PER_TARGET; CLIENTS]);
    assert_eq!(all.iter().sum::<usize>(), 12800);
}
