//! A forwarded call's round trip on loopback: `Version` sent to the control plane's endpoint
//! for the worker (`nodes: 10.5.0.3`), over real mutual TLS (issue 15's goal: median under
//! 2 ms). Run with `cargo bench -p talos-sim --bench forwarded`.

// A simulator that fails to start is a broken benchmark: panicking is the right answer.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use talos_client::{Client, ClientOptions, Target};
use talos_sim::Sim;

fn forwarded_version(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let sim = rt.block_on(Sim::start()).expect("simulator");
    let client = rt.block_on(Client::connect(&sim.talosconfig(), ClientOptions::default())).expect("client");
    let worker = Target::Node("10.5.0.3".to_string());
    let local = Target::Endpoint;
    c.bench_function("version_forwarded_to_worker", |b| {
        b.iter(|| rt.block_on(client.version(&worker)).expect("version"));
    });
    c.bench_function("version_served_by_endpoint", |b| {
        b.iter(|| rt.block_on(client.version(&local)).expect("version"));
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50);
    targets = forwarded_version
}
criterion_main!(benches);
