//! Making configs: the secrets bundle (`talosctl gen secrets`, `secrets.yaml`) and the machine
//! configs made from it (`talosctl gen config`), as Talos v1.13.9 makes them, or Talos v1.12.11
//! or v1.14.0-rc.1 ([`GenOptions::release`], [`GenOptions::for_release`]: its defaults,
//! `persist`, KubeSpan and `machine.network` in the legacy document; from v1.14 the contract's
//! documents, contracts without etcd and Kubernetes, bundles checked against the contract).
//!
//! - [`SecretsBundle`]: made fresh (`SecretsBundle::generate`, feature `keygen`), read and
//!   written byte for byte as Talos reads and writes `secrets.yaml`, taken from a control-plane
//!   config or a Kubernetes PKI directory, and checked as Talos checks it
//!   ([`SecretsBundle::validate`]).
//! - [`Input`]: a cluster's name, endpoint, bundle and [`GenOptions`]; [`Input::config`] gives
//!   the [`Config`](crate::Config) of a [`MachineType`] under a [`VersionContract`],
//!   [`Input::configs`] both configs with [`GenPatches`] applied, [`Input::talosconfig`] the
//!   admin talosconfig.
//! - [`check_endpoint`]: talosctl's check of the cluster endpoint, with its suggestion.
//!
//! Randomness comes from the operating system; times are passed in (`now`), so that a caller
//! decides the clock.
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

mod config;
mod contract;
mod der;
mod endpoint;
pub(crate) mod keys;
mod secrets;
mod talosconfig;

pub use config::{
    DEFAULT_INSTALL_IMAGE, DEFAULT_KUBERNETES_VERSION, GenOptions, GenPatches, GeneratedConfigs, Input, MachineType,
};
pub use contract::VersionContract;
pub use endpoint::check_endpoint;
pub use secrets::{Certs, ClusterSecrets, Secrets, SecretsBundle, TrustdInfo};
