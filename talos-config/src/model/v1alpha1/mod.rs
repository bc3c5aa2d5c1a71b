//! The legacy `v1alpha1` document (`version: v1alpha1`, `machine:`, `cluster:`) of upstream
//! `pkg/machinery/config/types/v1alpha1`, field for field (docs/merge.md Appendix A).

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};

pub mod cluster;
pub mod install;
pub mod lists;
pub mod machine;
pub mod network;
pub mod registries;
pub mod types;

pub use cluster::*;
pub use cluster::{AdmissionPluginConfigList, ClusterInlineManifests};
pub use install::*;
pub use machine::*;
pub use network::*;
pub use network::{NetworkDeviceList, VlanList};
pub use registries::*;
pub use types::{
    ARG_VALUE_ERROR, ArgValue, Args, Base64Bytes, DiskSize, Endpoint, Env, InstallDiskSizeMatcher, InstallDiskType,
    PEMEncodedCertificate, PEMEncodedCertificateAndKey, PEMEncodedKey,
};

/// `v1alpha1.Config`: the legacy document.
///
/// [`machine()`](Config::machine) and [`cluster()`](Config::cluster) (and `kubelet()`,
/// `network()` below them) read an absent section as an empty one, so a path is one chain:
///
/// ```
/// let config = talos_config::Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraArgs:\n      max-pods: \"150\"\n")?;
/// let v1 = config.v1alpha1().unwrap();
/// assert_eq!(v1.machine().kubelet().extra_args.to_map()["max-pods"], ["150"]);
/// assert_eq!(v1.machine().network().hostname, ""); // no `machine.network`
/// assert_eq!(v1.cluster().network().dns_domain, ""); // no `cluster` at all
/// # Ok::<(), talos_config::Error>(())
/// ```
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.Config")]
pub struct Config {
    /// The document's version, always `v1alpha1`.
    #[talos(key = "version", go_name = "ConfigVersion")]
    pub version: String,
    /// Sends kernel and service logs to the console.
    #[talos(key = "debug", omitempty, go_name = "ConfigDebug")]
    pub debug: Option<bool>,
    /// Keeps the config across reboots (always true since Talos 1.0).
    #[talos(key = "persist", omitempty, go_name = "ConfigPersist")]
    pub persist: Option<bool>,
    /// Everything about this node.
    #[talos(key = "machine", go_name = "MachineConfig")]
    pub machine: Option<MachineConfig>,
    /// Everything about the Kubernetes cluster the node belongs to.
    #[talos(key = "cluster", go_name = "ClusterConfig")]
    pub cluster: Option<ClusterConfig>,
}

crate::document::unnamed_kind!(Config => "v1alpha1");

// Readers through optional sections: an absent section reads as an empty one (its Go zero
// value), so a path is one chain of calls.
macro_rules! or_empty {
    ($($owner:ty { $(fn $name:ident -> $field:ident: $section:ty;)* })*) => {$(
        impl $owner {
            $(
                #[doc = concat!("`", stringify!($field), "`, or an empty section when it is absent.")]
                pub fn $name(&self) -> &$section {
                    static EMPTY: std::sync::OnceLock<$section> = std::sync::OnceLock::new();
                    self.$field.as_ref().unwrap_or_else(|| EMPTY.get_or_init(<$section>::default))
                }
            )*
        }
    )*};
}

or_empty! {
    Config {
        fn machine -> machine: MachineConfig;
        fn cluster -> cluster: ClusterConfig;
    }
    MachineConfig {
        fn kubelet -> kubelet: KubeletConfig;
        fn network -> network: NetworkConfig;
    }
    ClusterConfig {
        fn network -> network: ClusterNetworkConfig;
    }
}

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[entry::<Config>()];
