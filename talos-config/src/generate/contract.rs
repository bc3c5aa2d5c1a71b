//! The version contract: which Talos release a generated config is meant for
//! (`talosctl gen config --talos-version`), and the defaults each release changed.

use std::fmt;
use std::str::FromStr;

use crate::{Error, ErrorKind};

/// The Talos release a config is generated for; older contracts keep older defaults (legacy
/// fields, no new-style documents). The default is the current release (the newest contract
/// the generating release knows). From Talos v1.14 a contract may also leave out etcd and
/// Kubernetes (`talosctl gen config --skip-k8s-etcd`).
///
/// ```
/// use talos_config::generate::VersionContract;
/// let contract: VersionContract = "1.8.3".parse()?;
/// assert_eq!(contract.to_string(), "v1.8");
/// assert_eq!(VersionContract::CURRENT.to_string(), "current");
/// assert!("banana".parse::<VersionContract>().is_err());
/// let bare = VersionContract::CURRENT.without_kubernetes().without_etcd();
/// assert!(bare.kubernetes_disabled() && bare.etcd_disabled());
/// # Ok::<(), talos_config::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VersionContract {
    version: Option<(u64, u64)>,
    disable_kubernetes: bool,
    disable_etcd: bool,
}

impl VersionContract {
    /// The running release's defaults: every feature on.
    pub const CURRENT: VersionContract =
        VersionContract { version: None, disable_kubernetes: false, disable_etcd: false };

    /// The contract of release `major.minor`.
    pub const fn new(major: u64, minor: u64) -> VersionContract {
        VersionContract { version: Some((major, minor)), disable_kubernetes: false, disable_etcd: false }
    }

    /// The same contract without Kubernetes: no Kubernetes documents, no bootstrap token, and
    /// a secrets bundle needs no Kubernetes CAs or secrets (Talos v1.14 and later).
    pub const fn without_kubernetes(self) -> VersionContract {
        VersionContract { disable_kubernetes: true, ..self }
    }

    /// The same contract without etcd: no `cluster.etcd`, and a secrets bundle needs no etcd CA
    /// (Talos v1.14 and later).
    pub const fn without_etcd(self) -> VersionContract {
        VersionContract { disable_etcd: true, ..self }
    }

    /// Whether Kubernetes is left out ([`VersionContract::without_kubernetes`]).
    pub const fn kubernetes_disabled(self) -> bool {
        self.disable_kubernetes
    }

    /// Whether etcd is left out ([`VersionContract::without_etcd`]).
    pub const fn etcd_disabled(self) -> bool {
        self.disable_etcd
    }

    /// The contract as `release`'s generator reads it: a contract above the newest one the
    /// release knows (and the current one) is that newest one; from v1.14 `v0.0` is the current
    /// contract; before v1.14 nothing can be left out.
    pub(crate) fn for_release(self, release: crate::Release) -> VersionContract {
        let newest = release.rules().gen_contract;
        let v1_14 = newest >= (1, 14);
        let version = match self.version {
            Some((0, 0)) if v1_14 => newest,
            Some(own) if own <= newest => own,
            _ => newest,
        };
        VersionContract {
            version: Some(version),
            disable_kubernetes: v1_14 && self.disable_kubernetes,
            disable_etcd: v1_14 && self.disable_etcd,
        }
    }

    /// Upstream `Greater`: the current contract is above every numbered one.
    fn greater(self, major: u64, minor: u64) -> bool {
        match self.version {
            None => true,
            Some(own) => own > (major, minor),
        }
    }

    pub(crate) fn pod_security_admission(self) -> bool {
        self.greater(1, 0)
    }
    pub(crate) fn stable_hostname(self) -> bool {
        self.greater(1, 1)
    }
    pub(crate) fn kubelet_seccomp_default(self) -> bool {
        self.greater(1, 1)
    }
    pub(crate) fn alternate_image_registries(self) -> bool {
        self.greater(1, 1) && !self.greater(1, 2)
    }
    pub(crate) fn allow_scheduling_on_control_planes(self) -> bool {
        self.greater(1, 1)
    }
    pub(crate) fn kubernetes_discovery_disabled(self) -> bool {
        self.greater(1, 1)
    }
    pub(crate) fn apid_ext_key_usage_check(self) -> bool {
        self.greater(1, 2)
    }
    pub(crate) fn audit_policy(self) -> bool {
        self.greater(1, 2)
    }
    pub(crate) fn kubelet_manifests_directory_disabled(self) -> bool {
        self.greater(1, 2)
    }
    pub(crate) fn secretbox_encryption(self) -> bool {
        self.greater(1, 2)
    }
    pub(crate) fn disk_quota_support(self) -> bool {
        self.greater(1, 4)
    }
    pub(crate) fn kube_prism(self) -> bool {
        self.greater(1, 5)
    }
    pub(crate) fn host_dns(self) -> bool {
        self.greater(1, 6)
    }
    pub(crate) fn rsa_service_account_key(self) -> bool {
        self.greater(1, 6)
    }
    pub(crate) fn cluster_name_for_workers(self) -> bool {
        self.greater(1, 7)
    }
    pub(crate) fn host_dns_forward_kube_dns(self) -> bool {
        self.greater(1, 7)
    }
    pub(crate) fn exclude_from_external_lb(self) -> bool {
        self.greater(1, 7)
    }
    pub(crate) fn multidoc_network_config(self) -> bool {
        self.greater(1, 11)
    }
    pub(crate) fn hide_disable_psp(self) -> bool {
        self.greater(1, 11)
    }
    pub(crate) fn hide_rbac_and_key_usage(self) -> bool {
        self.greater(1, 11)
    }
    pub(crate) fn cluster_sans_from_endpoint(self) -> bool {
        !self.greater(1, 11)
    }
    pub(crate) fn grub_uki_cmdline_default(self) -> bool {
        self.greater(1, 11)
    }
    pub(crate) fn kubespan_multidoc(self) -> bool {
        self.greater(1, 12)
    }
    /// v1.14: `DiscoveryServiceMultidocConfig`, `DiscoveryIdentityMultidocConfig`.
    pub(crate) fn discovery_multidoc(self) -> bool {
        self.greater(1, 13)
    }
    /// v1.14: `HostDNSMultidocConfig`.
    pub(crate) fn host_dns_multidoc(self) -> bool {
        self.greater(1, 13)
    }
    /// v1.14: `UnattendedInstallConfig`.
    pub(crate) fn unattended_install(self) -> bool {
        self.greater(1, 13)
    }
    /// v1.14: `MultidocKubernetesConfigSupported`.
    pub(crate) fn multidoc_kubernetes(self) -> bool {
        self.greater(1, 13)
    }
    /// v1.14: `FilesystemTrimEnabledByDefault`.
    pub(crate) fn filesystem_trim_default(self) -> bool {
        self.greater(1, 13)
    }
    /// v1.14: `WorkloadIsolationEnabledByDefault`.
    pub(crate) fn workload_isolation_default(self) -> bool {
        self.greater(1, 13)
    }
    /// v1.14: `MultidocSysctlConfigSupported`.
    pub(crate) fn multidoc_sysctl(self) -> bool {
        self.greater(1, 13)
    }
}

impl FromStr for VersionContract {
    type Err = Error;

    /// Upstream `ParseContractFromVersion`: `vMAJOR.MINOR`, the `v` optional, a patch level
    /// or suffix after a further `.` ignored. The error is Talos's text.
    fn from_str(text: &str) -> Result<VersionContract, Error> {
        let version = format!("v{}", text.strip_prefix('v').unwrap_or(text));
        let parsed = version.strip_prefix('v').and_then(|rest| {
            let (major, rest) = leading_digits(rest)?;
            let (minor, rest) = leading_digits(rest.strip_prefix('.')?)?;
            (rest.is_empty() || rest.starts_with('.')).then_some((major, minor))
        });
        match parsed {
            Some((major, minor)) => Ok(VersionContract::new(major, minor)),
            None => Err(Error::new(
                ErrorKind::InvalidValue,
                format!("error parsing version {}", crate::gofmt::quote(&version)),
            )),
        }
    }
}

/// A run of ASCII digits at the start of `text` as a number (Go's `Atoi` saturates on
/// overflow, and Talos ignores that error), and the rest.
fn leading_digits(text: &str) -> Option<(u64, &str)> {
    let end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    if end == 0 {
        return None;
    }
    let number = text[..end].parse::<u64>().unwrap_or(i64::MAX as u64);
    Some((number, &text[end..]))
}

impl fmt::Display for VersionContract {
    /// `current`, or `vMAJOR.MINOR`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.version {
            None => f.write_str("current"),
            Some((major, minor)) => write!(f, "v{major}.{minor}"),
        }
    }
}
