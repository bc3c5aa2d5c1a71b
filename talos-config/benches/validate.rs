//! How validation cost grows with `machine.nodeLabels`: 100, 1,000 and 10,000 labels, through
//! `labels::validate_labels` directly and through `Config::validate` on a config loaded with
//! `Config::from_bytes`. Both should grow linearly (time per label roughly constant).
//! Run with `cargo bench -p talos-machineconfig --bench validate`.

// A benchmark input that fails to load is a broken benchmark: panicking is the right answer.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use talos_config::Config;
use talos_config::labels::validate_labels;
use talos_config::{Mode, Options};

const SIZES: [usize; 3] = [100, 1_000, 10_000];

/// `n` labels, every tenth one invalid (a space in the name), so both paths of the checks run.
fn label(i: usize) -> (String, String) {
    if i % 10 == 9 {
        (format!("lab.talos.dev/team {i}"), "platform".into())
    } else {
        (format!("lab.talos.dev/label-{i}"), format!("value-{i}"))
    }
}

fn label_map(n: usize) -> BTreeMap<String, String> {
    (0..n).map(label).collect()
}

/// A controlplane-free worker config with `n` node labels.
fn config_yaml(n: usize) -> String {
    let mut out = String::from("version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n");
    for i in 0..n {
        let (k, v) = label(i);
        out.push_str(&format!("    {k}: {v}\n"));
    }
    out.push_str("cluster:\n  network:\n    podSubnets: [10.244.0.0/16]\n    serviceSubnets: [10.96.0.0/12]\n");
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("validate_labels");
    for n in SIZES {
        let labels = label_map(n);
        assert_eq!(validate_labels(&labels).len(), n / 10);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &labels, |b, l| b.iter(|| validate_labels(l)));
    }
    group.finish();

    let mut group = c.benchmark_group("config_validate_node_labels");
    group.sample_size(20);
    for n in SIZES {
        let config = Config::from_bytes(config_yaml(n).as_bytes()).expect("the benchmark config loads");
        group.throughput(Throughput::Elements(n as u64));
        group.bench_with_input(BenchmarkId::from_parameter(n), &config, |b, cfg| {
            b.iter(|| cfg.validate(Mode::Container, Options::default()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
