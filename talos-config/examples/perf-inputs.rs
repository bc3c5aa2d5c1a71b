//! Writes the inputs of `BENCHMARKS.md`'s whole-process table to a folder:
//! `cargo run --release -p talos-machineconfig --example perf-inputs -- DIR`.

#[path = "../benches/workloads/mod.rs"]
mod workloads;

use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) -> std::io::Result<()> {
    std::fs::write(dir.join(name), text)
}

fn main() -> std::io::Result<()> {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: perf-inputs DIR (the folder to write the benchmark inputs to)");
        std::process::exit(2);
    };
    let dir = Path::new(&dir);
    std::fs::create_dir_all(dir.join("labels"))?;
    write(dir, "controlplane.yaml", workloads::CONTROLPLANE)?;
    write(dir, "worker.yaml", workloads::WORKER)?;
    write(dir, "label.yaml", workloads::LABEL_PATCH)?;
    write(dir, "json6902.yaml", workloads::JSON6902_PATCH)?;
    for mib in [1, 4, 10, 20, 50] {
        write(dir, &format!("big-{mib}.yaml"), &workloads::big_config(workloads::manifests_for_mib(mib)))?;
    }
    for (name, text) in workloads::label_patches(300) {
        write(&dir.join("labels"), &name, &text)?;
    }
    println!("wrote the benchmark inputs to {}", dir.display());
    Ok(())
}
