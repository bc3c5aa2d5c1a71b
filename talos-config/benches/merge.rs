//! How merge cost grows with input: a config with 10 MiB of inline manifests, and patches with
//! thousands of node labels. Run with `cargo bench -p talos-machineconfig`.

// A benchmark input that fails to load is a broken benchmark: panicking is the right answer.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use talos_config::{Config, PatchSource, apply_patches, load_patches};

/// A worker config with `mib` MiB of inline manifests.
fn big_config(mib: usize) -> String {
    let line = "      key: value-value-value-value-value-value-value-value-value\n";
    let per_manifest = 64 * 1024;
    let lines = per_manifest / line.len();
    let mut out = String::from("version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  inlineManifests:\n");
    for i in 0..(mib * 1024 * 1024 / per_manifest) {
        out.push_str(&format!("    - name: m{i}\n      contents: |\n"));
        for _ in 0..lines {
            out.push_str("  ");
            out.push_str(line);
        }
    }
    out
}

/// A strategic patch adding `n` node labels.
fn label_patch(n: usize) -> String {
    let mut out = String::from("machine:\n  nodeLabels:\n");
    for i in 0..n {
        out.push_str(&format!("    lab.talos.dev/label-{i}: value-{i}\n"));
    }
    out
}

fn merge(c: &mut Criterion) {
    let mut group = c.benchmark_group("labels");
    group.sample_size(10);
    for n in [100, 1_000, 10_000] {
        let patch = load_patches([PatchSource::new("labels", label_patch(n))]).expect("patch loads");
        group.bench_with_input(BenchmarkId::from_parameter(n), &patch, |b, p| {
            b.iter(|| apply_patches(b"version: v1alpha1\nmachine:\n  type: worker\n", p).expect("merges"))
        });
    }
    group.finish();

    let mut group = c.benchmark_group("inline_manifests_mib");
    group.sample_size(10);
    for mib in [1, 10] {
        let base = big_config(mib);
        let patch = load_patches([PatchSource::new("p", "machine: {nodeLabels: {a: b}}")]).expect("patch loads");
        group.bench_with_input(BenchmarkId::from_parameter(mib), &base, |b, base| {
            b.iter(|| apply_patches(base.as_bytes(), &patch).expect("merges"))
        });
        group.bench_with_input(BenchmarkId::new("load", mib), &base, |b, base| {
            b.iter(|| Config::from_bytes(base.as_bytes()).expect("loads"))
        });
    }
    group.finish();
}

criterion_group!(benches, merge);
criterion_main!(benches);
