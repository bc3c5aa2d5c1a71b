//! The engine's stages on `BENCHMARKS.md`'s workloads (generated from the fixtures in memory):
//! parse, decode, merge, encode and validate. Run with `cargo bench -p talos-machineconfig --bench engine`.

// A benchmark input that fails to load is a broken benchmark: panicking is the right answer.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod workloads;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use talos_config::{Config, Mode, Options, PatchSource, apply_patches, load_patches};

fn engine(c: &mut Criterion) {
    let big = workloads::big_config(workloads::manifests_for_mib(10));
    let label = load_patches([PatchSource::new("label.yaml", workloads::LABEL_PATCH)]).unwrap();
    let labels = load_patches(workloads::label_patches(300).into_iter().map(|(n, t)| PatchSource::new(n, t))).unwrap();
    let big_config = Config::from_bytes(big.as_bytes()).unwrap();
    let merged = apply_patches(big.as_bytes(), &label).unwrap();
    let merged_config = Config::from_bytes(&merged).unwrap();
    let worker = Config::from_bytes(workloads::WORKER.as_bytes()).unwrap();

    let mut group = c.benchmark_group("big_10_mib");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(big.len() as u64));
    group.bench_function("parse", |b| b.iter(|| talos_yaml::parse::parse_documents(big.as_bytes()).unwrap()));
    group.bench_function("decode", |b| b.iter(|| Config::from_bytes(big.as_bytes()).unwrap()));
    group.bench_function("encode", |b| b.iter(|| big_config.encode()));
    group.bench_function("merge_W2", |b| b.iter(|| apply_patches(big.as_bytes(), &label).unwrap()));
    let json6902 = load_patches([PatchSource::new("json6902.yaml", workloads::JSON6902_PATCH)]).unwrap();
    group.bench_function("json6902_refused_W6", |b| b.iter(|| apply_patches(big.as_bytes(), &json6902).unwrap_err()));
    group.finish();

    // Per call, on configs already decoded.
    let mut group = c.benchmark_group("calls");
    group.bench_function("validate_W4", |b| b.iter(|| merged_config.validate(Mode::Container, Options::default())));
    group.bench_function("merge_W1", |b| b.iter(|| apply_patches(workloads::WORKER.as_bytes(), &label).unwrap()));
    group
        .bench_function("merge_W3", |b| b.iter(|| apply_patches(workloads::CONTROLPLANE.as_bytes(), &labels).unwrap()));
    group.bench_function("validate_W5", |b| b.iter(|| worker.validate(Mode::Container, Options::default())));
    group.finish();
}

criterion_group!(benches, engine);
criterion_main!(benches);
