//! `labctl sim up`: a second start in the same folder keeps the CA and the client identities
//! (a damaged pki.json is refused with a way out), and a cluster started from `labctl gen`'s
//! secrets and configs passes the lab with the talosconfig `gen config` wrote.

use std::path::Path;

use crate::lab_cli::{ALL_PASS, SimUp, labctl, text};

/// The client certificate a talosconfig of a `labctl sim up` folder holds.
fn talosconfig_crt(path: &Path) -> Vec<u8> {
    let cfg = talos_client::Talosconfig::from_file(path).expect("talosconfig");
    cfg.context(None).expect("context").crt_pem().to_vec()
}

/// `labctl sim up` again in the same folder: the CA and the client identities of the first run
/// (kept in pki.json), so talosconfigs copied from the first run still work; a damaged pki.json
/// is refused with a way out, and nothing else in the folder changes.
#[test]
fn sim_up_again_keeps_the_identities() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("sim");
    let first = SimUp::start(&dir);
    let pki = std::fs::read(dir.join("pki.json")).expect("pki.json");
    let reader = talosconfig_crt(&dir.join("talosconfig-reader"));
    let admin = talosconfig_crt(&dir.join("talosconfig"));
    drop(first);
    std::fs::remove_file(dir.join("sim.json")).expect("sim.json");
    let second = SimUp::start(&dir);
    assert_eq!(std::fs::read(dir.join("pki.json")).expect("pki.json"), pki);
    assert_eq!(talosconfig_crt(&dir.join("talosconfig-reader")), reader);
    assert_eq!(talosconfig_crt(&dir.join("talosconfig")), admin);
    drop(second);
    std::fs::write(dir.join("pki.json"), b"{\"ca_cert\": 1}").expect("damaged");
    let o = labctl(&["sim", "up", "--dir", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        format!(
            "labctl: {}/pki.json is not a simulator PKI (line 1, column 13); remove it to start with new identities\n",
            dir.display()
        )
    );
    assert_eq!(talosconfig_crt(&dir.join("talosconfig")), admin);
}

/// The quick start's loop: `labctl gen secrets`, `labctl gen config`, `labctl sim up` from them,
/// and the lab passes with the client certificate `gen config` wrote into its talosconfig.
#[test]
fn the_lab_passes_on_a_cluster_from_generated_configs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let path = |name: &str| tmp.path().join(name).to_str().unwrap().to_string();
    let gen_secrets = labctl(&["gen", "secrets", "-o", &path("secrets.yaml")]);
    assert!(gen_secrets.status.success(), "{}", text(&gen_secrets.stderr));
    let args = ["gen", "config", "demo", "https://10.5.0.2:6443", "--with-secrets", &path("secrets.yaml"), "-o"];
    let gen_config = labctl(&[&args[..], &[path("cluster").as_str()]].concat());
    assert!(gen_config.status.success(), "{}", text(&gen_config.stderr));
    let sim = SimUp::start_with(
        &tmp.path().join("sim"),
        &["--with-secrets", &path("secrets.yaml"), "--configs", &path("cluster")],
    );
    // The simulator's talosconfig (its endpoints), with gen config's client certificate and key.
    let generated = std::fs::read_to_string(tmp.path().join("cluster/talosconfig")).unwrap();
    let credential = |key: &str| generated.lines().find(|l| l.trim_start().starts_with(key)).unwrap().to_string();
    let talosconfig = tmp.path().join("sim/talosconfig");
    let swapped: String = std::fs::read_to_string(&talosconfig)
        .unwrap()
        .lines()
        .map(|l| match l.trim_start() {
            t if t.starts_with("ca: ") => credential("ca: "),
            t if t.starts_with("crt: ") => credential("crt: "),
            t if t.starts_with("key: ") => credential("key: "),
            _ => l.to_string(),
        })
        .map(|l| l + "\n")
        .collect();
    assert_ne!(swapped, std::fs::read_to_string(&talosconfig).unwrap());
    std::fs::write(&talosconfig, swapped).unwrap();
    let out = path("lab");
    let run = labctl(&["lab", "run", "--sim-dir", sim.dir(), "--out", &out, "--try-timeout", "1s"]);
    assert!(run.status.success(), "stderr:\n{}", text(&run.stderr));
    let check = labctl(&["lab", "check", "--sim-dir", sim.dir(), "--out", &out, "--try-timeout", "1s"]);
    assert_eq!(text(&check.stdout), ALL_PASS.map(|l| format!("{l}\n")).concat());
}
