//! `talos-sim --dir DIR`: starts a simulated Talos v1.13 control plane and worker on 127.0.0.1,
//! writes `DIR/talosconfig` (mode 0600, endpoint = the control plane), `DIR/kubeconfig` (mode 0600,
//! the simulated Kubernetes API) and `DIR/sim.json` (containers, port mappings, paths), prints
//! the endpoints and runs until interrupted (Ctrl-C). A test double: see the crate README.

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: talos-sim --dir DIR\n\nStarts a simulated Talos v1.13 control plane (10.5.0.2) and worker (10.5.0.3) on 127.0.0.1,\nwrites DIR/talosconfig, DIR/kubeconfig and DIR/sim.json (mode 0600) and runs until interrupted.";

fn parse() -> Result<PathBuf, String> {
    let mut args = std::env::args_os().skip(1);
    let mut dir = None;
    while let Some(a) = args.next() {
        match a.to_str() {
            Some("--dir") => dir = Some(PathBuf::from(args.next().ok_or("--dir needs a value")?)),
            Some(s) if s.starts_with("--dir=") => dir = Some(PathBuf::from(&s["--dir=".len()..])),
            Some("-h" | "--help") => return Err(String::new()),
            _ => return Err(format!("unexpected argument {a:?}")),
        }
    }
    dir.ok_or_else(|| "--dir is required".to_string())
}

#[tokio::main]
async fn main() -> ExitCode {
    let dir = match parse() {
        Ok(d) => d,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("talos-sim: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let sim = match talos_sim::Sim::start().await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("talos-sim: {e}");
            return ExitCode::FAILURE;
        }
    };
    let env = match sim.write_dir(&dir) {
        Ok(env) => env,
        Err(e) => {
            eprintln!("talos-sim: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("talosconfig: {}", env.talosconfig.display());
    println!("kubeconfig: {}", env.kubeconfig.display());
    println!("sim.json: {}", env.talosconfig.with_file_name(talos_sim::env::SIM_JSON).display());
    for n in [&sim.controlplane, &sim.worker] {
        println!("{} {} {} {}", n.machine_type.as_str(), n.address, n.hostname, n.endpoint);
    }
    println!("kube-api https://{}", sim.kube_api_endpoint());
    println!("simulated Talos {} (test double); Ctrl-C to stop", talos_sim::node::TAG);
    if let Err(e) = tokio::signal::ctrl_c().await {
        eprintln!("talos-sim: waiting for Ctrl-C: {e}");
        return ExitCode::FAILURE;
    }
    drop(sim);
    ExitCode::SUCCESS
}
