//! The simulator's keys and certificates in the forms Talos writes, read by other TLS stacks:
//! OpenSSL's `openssl pkey` reads the talosconfig key (relabelled, as a real Talos key must be),
//! and Python's `ssl` (OpenSSL) completes a mutual-TLS handshake with a simulated node using the
//! admin identity. Both tools are on the
//! CI machine; a missing one fails the test under `CI=true` and skips it (saying so) elsewhere.

use std::io::Write;
use std::process::{Command, Stdio};

use base64::Engine;
use talos_sim::Sim;

use crate::common::{self, have};

fn der_of(pem: &str) -> Vec<u8> {
    let b64: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    base64::engine::general_purpose::STANDARD.decode(b64).expect("base64")
}

#[tokio::test]
async fn keys_are_pkcs8_v1_as_go_writes_them() {
    let sim = Sim::start().await.expect("sim");
    let key = sim.admin().talos_key_pem();
    assert!(key.starts_with("-----BEGIN ED25519 PRIVATE KEY-----\n"), "{key}");
    let der = der_of(&key);
    assert_eq!(der.len(), 48);
    assert_eq!(
        der[..16],
        [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]
    );
}

/// `openssl pkey` reads the talosconfig key under the `PRIVATE KEY` label. OpenSSL 3.0 knows no
/// `ED25519 PRIVATE KEY` label (the one Talos writes), so a real Talos talosconfig key needs the
/// same relabelling; the DER is what counts (ring's PKCS#8 v2 form is refused under any label).
#[tokio::test]
async fn openssl_reads_the_talosconfig_key() {
    if !have("openssl", "version") {
        return;
    }
    let sim = Sim::start().await.expect("sim");
    let pkey = |pem: &str| {
        let mut child = Command::new("openssl")
            .args(["pkey", "-noout", "-text"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("openssl");
        child.stdin.take().expect("stdin").write_all(pem.as_bytes()).expect("write");
        child.wait_with_output().expect("openssl runs")
    };
    let talos_form = sim.admin().talos_key_pem();
    assert!(!pkey(&talos_form).status.success(), "OpenSSL 3.0 refuses the ED25519 PRIVATE KEY label");
    let out = pkey(&talos_form.replace("ED25519 PRIVATE KEY", "PRIVATE KEY"));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("ED25519 Private-Key:"));
}

/// Python's `ssl` loads the talosconfig's CA, certificate and key and completes the handshake
/// with the control plane, offering `h2`. Python's `ssl` reads a key only under the `PRIVATE
/// KEY` label, so the key is relabelled first, as with a real Talos talosconfig (the DER is what
/// counts: ring's PKCS#8 v2 form is refused by OpenSSL 3.0 under any label).
#[tokio::test]
async fn python_ssl_completes_a_mutual_tls_handshake() {
    if !have("python3", "--version") {
        return;
    }
    let sim = Sim::start().await.expect("sim");
    let dir = tempfile::tempdir().expect("tempdir");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        path.to_string_lossy().into_owned()
    };
    let ca = write("ca.pem", sim.pki().ca_pem());
    let crt = write("crt.pem", &sim.admin().cert_pem);
    let key = write("key.pem", &sim.admin().talos_key_pem().replace("ED25519 PRIVATE KEY", "PRIVATE KEY"));
    let port = sim.controlplane.endpoint.port();
    let out = common::python_tls_handshake(ca, crt, key, port).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "TLSv1.3 h2\n");
}

/// `talos-client` also takes a key in PKCS#8 v2 (with the public key, as ring and other Rust
/// tools write it): the admin key rewritten in that form still connects.
#[tokio::test]
async fn the_client_also_takes_a_pkcs8_v2_key() {
    let sim = Sim::start().await.expect("sim");
    let v1 = der_of(&sim.admin().key_pem);
    let public = rcgen::KeyPair::from_pem(&sim.admin().key_pem).expect("key").public_key_raw().to_vec();
    // ring's form: version 1, then the public key as `[1] { BIT STRING }`.
    let mut v2 = vec![0x30, 0x53, 0x02, 0x01, 0x01];
    v2.extend_from_slice(&v1[5..48]);
    v2.extend_from_slice(&[0xa1, 0x23, 0x03, 0x21, 0x00]);
    v2.extend_from_slice(&public);
    let b64 = base64::engine::general_purpose::STANDARD.encode(&v2);
    let key_pem = format!("-----BEGIN PRIVATE KEY-----\n{b64}\n-----END PRIVATE KEY-----\n");
    let identity = talos_sim::CertKey { cert_pem: sim.admin().cert_pem.clone(), key_pem };
    let cfg = Sim::talosconfig_with(&sim.controlplane.endpoint.to_string(), sim.pki().ca_pem(), &identity);
    let client = talos_client::Client::connect(&cfg, talos_client::ClientOptions::default()).await.expect("connects");
    let version = client.version(&talos_client::Target::Endpoint).await.expect("version");
    assert_eq!(version.tag, "v1.13.10");
}
