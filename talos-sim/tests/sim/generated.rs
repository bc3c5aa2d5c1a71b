//! A simulated cluster started from what `talos_config::generate` makes (issue 27): the nodes
//! boot with the generated configs, the bundle's Talos API CA is the cluster's CA, and the
//! generated admin talosconfig (its fresh client certificate) works against it.

use std::time::SystemTime;

use talos_client::{Client, ClientOptions, Target};
use talos_config::generate::{GenOptions, GenPatches, Input, SecretsBundle, VersionContract};
use talos_sim::{NodeConfigs, SavedPki, Sim, SimOptions};

fn bundle_pki(bundle: &SecretsBundle) -> SavedPki {
    let os = bundle.certs.as_ref().unwrap().os.as_ref().unwrap();
    let text = |b: &Option<Vec<u8>>| String::from_utf8(b.clone().unwrap()).unwrap();
    SavedPki {
        ca_cert: text(&os.crt),
        ca_key: text(&os.key).replace("ED25519 PRIVATE KEY", "PRIVATE KEY"),
        clients: Default::default(),
    }
}

#[tokio::test]
async fn a_cluster_from_generated_configs_accepts_the_generated_talosconfig() {
    let bundle = SecretsBundle::generate(VersionContract::CURRENT, SystemTime::now()).unwrap();
    let input = Input::new("demo", "https://10.5.0.2:6443", bundle.clone(), GenOptions::default());
    let configs = input.configs(&GenPatches::default()).unwrap();
    let (controlplane, worker) = (configs.control_plane.encode(), configs.worker.encode());
    let nodes = NodeConfigs { controlplane: controlplane.clone().into_bytes(), worker: worker.clone().into_bytes() };
    let sim = Sim::start_from(SimOptions::default(), Some(&bundle_pki(&bundle)), nodes).await.unwrap();
    assert_eq!(
        sim.pki().ca_pem().as_bytes(),
        bundle.certs.as_ref().unwrap().os.as_ref().unwrap().crt.as_deref().unwrap()
    );

    let mut options = GenOptions::default();
    options.endpoints = vec![sim.controlplane.endpoint.to_string()];
    let talosconfig =
        Input::new("demo", "https://10.5.0.2:6443", bundle, options).talosconfig(SystemTime::now()).unwrap();
    let cfg = talos_client::Talosconfig::parse(talosconfig.as_bytes()).unwrap();
    let client = Client::connect(&cfg, ClientOptions::default()).await.unwrap();
    for (node, want) in [("10.5.0.2", &controlplane), ("10.5.0.3", &worker)] {
        let got = client.machine_config(&Target::node(node), "v1alpha1").await.unwrap();
        assert_eq!(String::from_utf8(got.bytes).unwrap(), *want, "{node}");
    }

    // OpenSSL (through Python's ssl) takes the generated identity too: it verifies the node's
    // certificate against the bundle's CA and presents gen config's client certificate.
    if !crate::common::have("python3", "--version") {
        return;
    }
    let context = cfg.context(None).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_string_lossy().into_owned()
    };
    let key = String::from_utf8(context.key_pem().to_vec()).unwrap().replace("ED25519 PRIVATE KEY", "PRIVATE KEY");
    let (ca, crt, key) = (write("ca", context.ca_pem()), write("crt", context.crt_pem()), write("key", key.as_bytes()));
    let out = crate::common::python_tls_handshake(ca, crt, key, sim.controlplane.endpoint.port()).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "TLSv1.3 h2\n");
}
