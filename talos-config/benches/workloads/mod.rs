//! The workloads of `BENCHMARKS.md`, generated from the repository's fixtures so that no large
//! file is committed: the criterion benches use them in memory, and the `perf-inputs` example
//! writes them to a folder for whole-process measurements (`/usr/bin/time -v labctl ...`).

/// The controlplane fixture (three documents: v1alpha1 and two new-style documents).
pub const CONTROLPLANE: &str = include_str!("../../../fixtures/controlplane.yaml");
/// The worker fixture.
pub const WORKER: &str = include_str!("../../../fixtures/worker.yaml");
/// The lab's one-label patch (step 5).
pub const LABEL_PATCH: &str = include_str!("../../../fixtures/05-labels.yaml");

/// Comment lines per inline manifest, and the manifests per 10.4 MiB (the figures of
/// `BENCHMARKS.md`'s W2).
const LINES_PER_MANIFEST: usize = 1_500;
const MANIFESTS_PER_10_MIB: usize = 110;

/// The controlplane fixture with `manifests` inline manifests of 1,500 comment lines each
/// inserted under `cluster.inlineManifests` (110 manifests: 10.4 MiB).
pub fn big_config(manifests: usize) -> String {
    let split = CONTROLPLANE.find("\n---\n").map_or(CONTROLPLANE.len(), |i| i + 1);
    let (v1alpha1, rest) = CONTROLPLANE.split_at(split);
    let mut out = String::with_capacity(manifests * LINES_PER_MANIFEST * 70 + CONTROLPLANE.len());
    out.push_str(v1alpha1);
    out.push_str("    inlineManifests:\n");
    for m in 0..manifests {
        out.push_str(&format!("        - name: manifest-{m}\n          contents: |\n"));
        for l in 0..LINES_PER_MANIFEST {
            out.push_str(&format!("            # manifest {m:03} line {l:04}: generated padding text, kept\n"));
        }
    }
    out.push_str(rest);
    out
}

/// How many manifests make a config of about `mib` MiB.
pub fn manifests_for_mib(mib: usize) -> usize {
    mib * MANIFESTS_PER_10_MIB / 10
}

/// 300 one-label patches (W3), as (name, text) pairs.
pub fn label_patches(count: usize) -> Vec<(String, String)> {
    (0..count)
        .map(|i| {
            (format!("label-{i:03}.yaml"), format!("machine:\n  nodeLabels:\n    lab.talos.dev/label-{i}: value-{i}\n"))
        })
        .collect()
}

/// A JSON6902 patch (refused on a multi-document config, as Talos refuses it).
pub const JSON6902_PATCH: &str = "[{\"op\": \"add\", \"path\": \"/machine/nodeLabels/a\", \"value\": \"b\"}]\n";
