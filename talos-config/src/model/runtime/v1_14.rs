//! Runtime documents new in v1.14: `/etc` files, kernel modules, sysctls, sysfs, udev rules,
//! the security profile and the unattended install.

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use crate::model::block::CelExpression;
use crate::model::meta::Meta;

/// `runtime.EtcFileMode`: a file mode written in octal as `0o644` (zero as `0o0`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EtcFileMode(pub u32);

crate::value::octal_mode_value!(EtcFileMode, "runtime.EtcFileMode");

/// `EtcFileConfig` (named): a file Talos writes under `/etc`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.EtcFileConfigV1Alpha1")]
pub struct EtcFileConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The path below `/etc`.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The file's mode (0o644 when zero).
    #[talos(key = "mode", go_name = "FileMode")]
    pub mode: EtcFileMode,
    /// The file's text.
    #[talos(key = "contents", go_name = "Contents")]
    pub contents: String,
}
crate::document::named_kind!(EtcFileConfig => "EtcFileConfig" since V1_14_0_RC1);

/// `KernelModuleConfig` (named): a kernel module loaded at boot.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.KernelModuleConfigV1Alpha1")]
pub struct KernelModuleConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The module's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// Parameters passed to the module.
    #[talos(key = "parameters", omitempty, go_name = "ModuleParameters")]
    pub parameters: Vec<String>,
}
crate::document::named_kind!(KernelModuleConfig => "KernelModuleConfig" since V1_14_0_RC1);

/// `SecurityProfileConfig` (unnamed): the machine's security profile.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.SecurityProfileConfigV1Alpha1")]
pub struct SecurityProfileConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Isolates workloads from the host more strictly.
    #[talos(key = "workloadIsolation", omitempty, go_name = "WorkloadIsolationEnabled")]
    pub workload_isolation: Option<bool>,
}
crate::document::unnamed_kind!(SecurityProfileConfig => "SecurityProfileConfig" since V1_14_0_RC1);

/// `SysctlConfig` (unnamed): kernel parameters set through `/proc/sys`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.SysctlConfigV1Alpha1")]
pub struct SysctlConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Parameter names and values.
    #[talos(key = "params", go_name = "Params")]
    pub params: BTreeMap<String, String>,
}
crate::document::unnamed_kind!(SysctlConfig => "SysctlConfig" since V1_14_0_RC1);

/// `SysfsConfig` (unnamed): values written to `/sys`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.SysfsConfigV1Alpha1")]
pub struct SysfsConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Paths (dotted) and values.
    #[talos(key = "params", go_name = "Params")]
    pub params: BTreeMap<String, String>,
}
crate::document::unnamed_kind!(SysfsConfig => "SysfsConfig" since V1_14_0_RC1);

/// `UdevRulesConfig` (unnamed): extra udev rules.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.UdevRulesConfigV1Alpha1")]
pub struct UdevRulesConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The udev rules.
    #[talos(key = "rules", omitempty, go_name = "UdevRules")]
    pub rules: Vec<String>,
}
crate::document::unnamed_kind!(UdevRulesConfig => "UdevRulesConfig" since V1_14_0_RC1);

/// `UnattendedInstallConfig` (unnamed): installs Talos without `machine.install`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.UnattendedInstallConfigV1Alpha1")]
pub struct UnattendedInstallConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Reboots after the install.
    #[talos(key = "reboot", omitempty, go_name = "Reboot")]
    pub reboot: Option<bool>,
    /// The installer used.
    #[talos(key = "installer", go_name = "Installer")]
    pub installer: InstallerSpec,
    /// Which disk Talos is installed on.
    #[talos(key = "provisioning", go_name = "ProvisioningSpec")]
    pub provisioning: InstallProvisioningSpec,
}
crate::document::unnamed_kind!(UnattendedInstallConfig => "UnattendedInstallConfig" since V1_14_0_RC1);

/// `runtime.InstallerSpec`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.InstallerSpec")]
pub struct InstallerSpec {
    /// The installer image.
    #[talos(key = "image", omitempty, go_name = "Image")]
    pub image: String,
}

/// `runtime.ProvisioningSpec`: the install disk.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.ProvisioningSpec")]
pub struct InstallProvisioningSpec {
    /// A CEL expression choosing the install disk.
    #[talos(key = "diskSelector", omitempty, go_name = "DiskSelector")]
    pub disk_selector: InstallDiskSelector,
    /// Wipes the disk first (on unless set to false).
    #[talos(key = "wipe", omitempty, go_name = "Wipe")]
    pub wipe: Option<bool>,
}

/// `runtime.DiskSelectorSpec`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.DiskSelectorSpec")]
pub struct InstallDiskSelector {
    /// A CEL expression over each disk's facts.
    #[talos(key = "match", omitempty, go_name = "Match")]
    pub r#match: CelExpression,
}
