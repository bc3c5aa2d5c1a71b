//! The version contract: which Talos release a generated config is meant for
//! (`talosctl gen config --talos-version`), and the defaults each release changed.

use std::fmt;
use std::str::FromStr;

use crate::{Error, ErrorKind};

/// The Talos release a config is generated for; older contracts keep older defaults (legacy
/// fields, no new-style documents). The default is the current release (v1.13 and later).
///
/// ```
/// use talos_config::generate::VersionContract;
/// let contract: VersionContract = "1.8.3".parse()?;
/// assert_eq!(contract.to_string(), "v1.8");
/// assert_eq!(VersionContract::CURRENT.to_string(), "current");
/// assert!("banana".parse::<VersionContract>().is_err());
/// # Ok::<(), talos_config::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VersionContract(Option<(u64, u64)>);

impl VersionContract {
    /// The running release's defaults: every feature on.
    pub const CURRENT: VersionContract = VersionContract(None);

    /// The contract of release `major.minor`.
    pub const fn new(major: u64, minor: u64) -> VersionContract {
        VersionContract(Some((major, minor)))
    }

    /// Upstream `Greater`: the current contract is above every numbered one.
    fn greater(self, major: u64, minor: u64) -> bool {
        match self.0 {
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
        match self.0 {
            None => f.write_str("current"),
            Some((major, minor)) => write!(f, "v{major}.{minor}"),
        }
    }
}
