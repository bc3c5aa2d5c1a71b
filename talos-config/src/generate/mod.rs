//! Making configs: the secrets bundle Talos generates configs from (`talosctl gen secrets`,
//! `secrets.yaml`).
//!
//! What is here so far: the bundle's model, read and written byte for byte as Talos v1.13.9 reads
//! and writes `secrets.yaml`, and the bundle taken from a control-plane config
//! (`talosctl gen secrets --from-controlplane-config`). Generating fresh keys and certificates,
//! and configs from a bundle, are not here yet (`KNOWN_GAPS.md`).
//!
//! ```
//! use talos_config::generate::SecretsBundle;
//!
//! let text = "cluster:\n    id: aWQ=\n    secret: c2VjcmV0\nsecrets:\n    bootstraptoken: abcdef.0123456789abcdef\n    secretboxencryptionsecret: c2I=\ntrustdinfo:\n    token: ghijkl.0123456789abcdef\ncerts:\n    etcd: null\n    k8s: null\n    k8saggregator: null\n    k8sserviceaccount: null\n    os: null\n";
//! let bundle = SecretsBundle::from_yaml(text.as_bytes())?;
//! assert_eq!(bundle.secrets.as_ref().map(|s| s.bootstrap_token.as_str()), Some("abcdef.0123456789abcdef"));
//! assert_eq!(bundle.to_yaml(), text);
//! # Ok::<(), talos_config::Error>(())
//! ```

mod secrets;

pub use secrets::{Certs, ClusterSecrets, Secrets, SecretsBundle, TrustdInfo};
