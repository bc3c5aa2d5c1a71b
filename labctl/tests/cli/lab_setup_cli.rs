//! What a run needs before it starts: a reachable Talos endpoint, a talosconfig that exists, a
//! cluster `lab check` can check, and an output folder that belongs to this cluster (by default
//! `./talos-lab` for simulated runs).

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::lab_cli::{SimUp, json, labctl, read, text};

#[test]
fn a_refused_talos_endpoint_fails_fast_with_a_hint() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let sim = SimUp::start(&tmp.path().join("sim"));
    let env = talos_sim::SimEnv::read(&tmp.path().join("sim")).expect("sim.json");
    // The talosconfig aimed at a closed port: the sim's port 22 stand-in is bound but not listening.
    let closed = env.ports.iter().find(|p| p.port == 22).expect("port 22 mapping").endpoint;
    let mut config = talos_client::Talosconfig::from_file(&env.talosconfig).unwrap().to_yaml();
    let cp = env.ports.iter().find(|p| p.port == 50000).expect("apid mapping").endpoint;
    config = config.replace(&cp.to_string(), &closed.to_string());
    let path = tmp.path().join("talosconfig");
    std::fs::write(&path, config).unwrap();
    let out = tmp.path().join("lab");
    let started = Instant::now();
    let failed =
        labctl(&["lab", "run", "--talosconfig", path.to_str().unwrap(), "--out", out.to_str().unwrap(), "--step", "2"]);
    assert!(started.elapsed() < Duration::from_secs(20), "took {:?}", started.elapsed());
    assert_eq!(failed.status.code(), Some(1));
    assert_eq!(
        text(&failed.stderr),
        format!(
            "labctl: cannot reach the Talos API: failed to connect to {closed}: transport error: tcp connect error: \
             Connection refused (os error 111) (check that the node is up and that {closed} is its Talos API \
             address)\ncheck that the cluster is running and that the talosconfig's endpoints reach it\n"
        )
    );
    drop(sim);
}

#[test]
fn a_wrong_talosconfig_path_is_a_clear_error() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let missing = tmp.path().join("no-such-talosconfig");
    let out = tmp.path().join("lab");
    let o = labctl(&["lab", "run", "--talosconfig", missing.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stdout), "");
    assert_eq!(
        text(&o.stderr),
        format!(
            "labctl: cannot load the talosconfig: {}: No such file or directory (os error 2)\npass --talosconfig FILE, \
             or rehearse on the simulated cluster with `labctl lab run --sim`\n",
            missing.display()
        )
    );
    assert!(!out.exists(), "nothing is written");
    let o = labctl(&[
        "lab",
        "check",
        "--sim-dir",
        tmp.path().join("nothing").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let dir = tmp.path().join("nothing");
    assert_eq!(
        text(&o.stderr),
        format!(
            "labctl: no simulated cluster at {}: {}: No such file or directory (os error 2) (start one with `labctl sim up --dir {}`)\n",
            dir.display(),
            dir.join("sim.json").display(),
            dir.display()
        )
    );
}

#[test]
fn lab_check_refuses_a_new_simulated_cluster() {
    let out = tempfile::tempdir().expect("tempdir");
    let o = labctl(&["lab", "check", "--sim", "--out", out.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        "labctl: `lab check --sim` would check a new simulated cluster, which has none of the lab's changes\n\
         `labctl lab run --sim` checks its own run at the end; to check a simulated cluster again, start one with \
         `labctl sim up --dir DIR` and use `--sim-dir DIR` with both `lab run` and `lab check`\n"
    );
}

/// The port of `127.0.0.1:PORT` replaced by `PORT`.
fn without_ports(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("127.0.0.1:") {
        out.push_str(&rest[..i + 10]);
        rest = rest[i + 10..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push_str("PORT");
    }
    out + rest
}

#[test]
fn an_output_folder_belongs_to_the_cluster_that_wrote_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("lab");
    let d = dir.to_str().unwrap();
    let first = labctl(&["lab", "run", "--sim", "--out", d, "--step", "1"]);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let noshell = read(&dir, "noshell.json");
    // Every `--sim` run starts a new cluster: the folder is refused, and nothing in it changes.
    let second = labctl(&["lab", "run", "--sim", "--out", d, "--step", "1"]);
    assert_eq!(second.status.code(), Some(1));
    assert_eq!(
        without_ports(&text(&second.stderr)),
        format!(
            "labctl: {d} holds the results of a simulated cluster at 127.0.0.1:PORT; this run is against a simulated \
             cluster at 127.0.0.1:PORT\n\
             keep both: give this run another directory with `--out DIR`\n\
             or write this cluster's results over them: labctl lab run --sim --out {d} --step 1 --force\n"
        )
    );
    let mark = |v: &Value| v["cluster"]["endpoint"].as_str().unwrap_or_default().to_string();
    let before = mark(&json(&dir, ".labctl-state.json"));
    assert_eq!(read(&dir, "noshell.json"), noshell);
    // `--force` takes the folder over.
    let forced = labctl(&["lab", "run", "--sim", "--out", d, "--step", "1", "--force"]);
    assert!(forced.status.success(), "{}", text(&forced.stderr));
    let state = json(&dir, ".labctl-state.json");
    assert_ne!(mark(&state), before);
    assert_eq!(state["cluster"]["simulated"], Value::Bool(true));
}

#[test]
fn simulated_runs_default_to_a_local_folder() {
    let o = labctl(&["lab", "run", "--help"]);
    let help = text(&o.stdout);
    assert!(o.status.success());
    let out_help: Vec<&str> = help.lines().skip_while(|l| !l.contains("--out <DIR>")).take(2).collect();
    assert_eq!(
        out_help,
        [
            "      --out <DIR>",
            "          The lab's output directory [default: /root/talos-lab for the lab's cluster, ./talos-lab with --sim \
             or --sim-dir, so that a rehearsal never writes over the real results]",
        ]
    );
}

/// Without `--out`, a simulated run writes `./talos-lab` in the working directory.
#[test]
fn a_simulated_run_writes_the_local_folder_by_default() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = Command::new(env!("CARGO_BIN_EXE_labctl"))
        // English whatever the machine's locale: these tests compare English texts.
        .env("LC_ALL", "C")
        .args(["lab", "run", "--sim", "--step", "1"])
        .current_dir(tmp.path())
        .stdin(Stdio::null())
        .output()
        .expect("labctl runs");
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(tmp.path().join("talos-lab/noshell.json").exists());
    assert!(
        text(&o.stderr).ends_with("files in talos-lab: written: noshell.json; kept: none\n"),
        "{}",
        text(&o.stderr)
    );
}
