//! The simulator under load (issue 29): 1 and 64 concurrent clients, each on its own mutual TLS
//! connection to the control plane, doing rounds of mixed reads against both nodes (the control
//! plane as the endpoint, the worker forwarded through it): `Version`, `ServiceList`, COSI `Get`
//! (the active machine config), COSI `List` (members) and `Logs` (machined, last 4 lines, no
//! follow). Prints calls per second and p50/p99 latency per call and overall. Every answer is
//! compared with what one client alone got first: a failed or different answer fails the run.
//!
//! `cargo bench -p talos-sim --bench load` (5 s per client count); `-- --quick` or
//! `LOAD_BENCH_QUICK=1` for a short run (about 2 s, for CI).

// A failed call or simulator is a failed benchmark: panicking is the right answer.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use talos_client::{Client, ClientOptions, LogsRequest, Target};
use talos_sim::Sim;

const WORKER: &str = "10.5.0.3";
/// The calls of a round, per target.
const KINDS: [&str; 5] = ["version", "services", "cosi get", "cosi list", "logs"];

/// One client's answers to a round's calls for one target, in [`KINDS`] order (compared whole).
#[derive(Debug, PartialEq)]
struct Answers {
    version: talos_client::VersionInfo,
    services: Vec<talos_client::ServiceInfo>,
    config: talos_client::MachineConfig,
    members: Vec<talos_client::Member>,
    log: Vec<talos_client::LogLine>,
}

/// A round for `target`: the answers, and each call's latency in nanoseconds.
async fn round(c: &Client, target: &Target) -> (Answers, [u64; 5]) {
    let mut lat = [0u64; 5];
    let mut t = Instant::now();
    let mut lap = |i: usize| {
        let now = Instant::now();
        lat[i] = u64::try_from((now - t).as_nanos()).unwrap_or(u64::MAX);
        t = now;
    };
    let version = c.version(target).await.expect("version");
    lap(0);
    let services = c.service_list(target).await.expect("services");
    lap(1);
    let config = c.machine_config(target, "v1alpha1").await.expect("cosi get");
    lap(2);
    let members = c.members(target).await.expect("cosi list");
    lap(3);
    let tail = LogsRequest { id: "machined".into(), kubernetes: false, follow: false, tail: Some(4) };
    let log = c.logs_lines(target, &tail).await.expect("logs");
    lap(4);
    (Answers { version, services, config, members, log }, lat)
}

fn options() -> ClientOptions {
    ClientOptions { context: None, connect_timeout: Duration::from_secs(10), call_timeout: Duration::from_secs(10) }
}

/// Latencies (ns) per target and call kind.
type Samples = [[Vec<u64>; 5]; 2];

/// `clients` clients connect, all start together, and do rounds (both targets each) until
/// `duration` has passed; the first `warmup` is not measured. Returns the samples and the
/// measured wall time.
async fn run(
    sim: &Sim,
    baseline: &Arc<Vec<Answers>>,
    clients: usize,
    warmup: Duration,
    duration: Duration,
) -> (Samples, Duration) {
    let targets = [Target::Endpoint, Target::node(WORKER)];
    let start = Arc::new(tokio::sync::Barrier::new(clients + 1));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..clients {
        let config = sim.talosconfig();
        let (start, baseline, targets) = (Arc::clone(&start), Arc::clone(baseline), targets.clone());
        tasks.spawn(async move {
            let c = Client::connect(&config, options()).await.expect("connects");
            start.wait().await;
            let begin = Instant::now();
            let mut samples: Samples = Default::default();
            while begin.elapsed() < warmup + duration {
                let measured = begin.elapsed() >= warmup;
                for (t, (target, expected)) in targets.iter().zip(baseline.iter()).enumerate() {
                    let (got, lat) = round(&c, target).await;
                    assert!(got == *expected, "{target:?}: an answer differs from one client's alone");
                    if measured {
                        for (k, ns) in lat.into_iter().enumerate() {
                            samples[t][k].push(ns);
                        }
                    }
                }
            }
            samples
        });
    }
    start.wait().await;
    let began = Instant::now();
    let mut all: Samples = Default::default();
    while let Some(r) = tasks.join_next().await {
        for (t, per_kind) in r.expect("client task").into_iter().enumerate() {
            for (k, v) in per_kind.into_iter().enumerate() {
                all[t][k].extend(v);
            }
        }
    }
    // Every client stops measuring at `warmup + duration` after the start and finishes its round.
    (all, began.elapsed().saturating_sub(warmup))
}

/// Nearest-rank percentile of sorted `v`.
fn percentile(v: &[u64], p: f64) -> u64 {
    let rank = ((p / 100.0) * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

fn ms(ns: u64) -> String {
    format!("{:.2} ms", ns as f64 / 1e6)
}

fn row(clients: usize, what: &str, v: &mut [u64], wall: Duration) {
    v.sort_unstable();
    let per_s = v.len() as f64 / wall.as_secs_f64();
    println!(
        "| {clients} | {what} | {} | {per_s:.0} | {} | {} |",
        v.len(),
        ms(percentile(v, 50.0)),
        ms(percentile(v, 99.0))
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick") || std::env::var("LOAD_BENCH_QUICK").is_ok_and(|v| v == "1");
    let (warmup, duration) = if quick {
        (Duration::from_millis(200), Duration::from_millis(800))
    } else {
        (Duration::from_secs(1), Duration::from_secs(5))
    };
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    rt.block_on(async {
        let sim = Sim::start().await.expect("simulator");
        let alone = Client::connect(&sim.talosconfig(), options()).await.expect("client");
        let mut baseline = Vec::new();
        for target in [Target::Endpoint, Target::node(WORKER)] {
            baseline.push(round(&alone, &target).await.0);
        }
        let baseline = Arc::new(baseline);
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        println!(
            "load: {} s measured per client count after {} ms warm-up, one runtime of {threads} worker threads for the simulator and the clients",
            duration.as_secs_f64(),
            warmup.as_millis()
        );
        println!();
        println!("| clients | call | calls | calls/s | p50 | p99 |");
        println!("|---|---|---|---|---|---|");
        for clients in [1, 64] {
            let (mut samples, wall) = run(&sim, &baseline, clients, warmup, duration).await;
            let mut overall = Vec::new();
            for (t, per_kind) in samples.iter_mut().enumerate() {
                for (k, v) in per_kind.iter_mut().enumerate() {
                    overall.extend_from_slice(v);
                    let to = if t == 0 { "control plane" } else { "worker, forwarded" };
                    row(clients, &format!("{} ({to})", KINDS[k]), v, wall);
                }
            }
            row(clients, "**all**", &mut overall, wall);
        }
    });
}
