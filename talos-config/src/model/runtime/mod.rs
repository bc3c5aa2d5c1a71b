//! Document kinds of upstream `pkg/machinery/config/types/runtime` (and its `extensions`
//! sub-package).

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::block::CelExpression;
use crate::model::meta::Meta;
use crate::model::siderolink::MetaUrl;
use crate::value::Duration;

pub mod extensions;
mod v1_14;

pub use extensions::{ConfigFile, ConfigFileList, ExtensionServiceConfig};
pub use v1_14::{
    EtcFileConfig, EtcFileMode, InstallDiskSelector, InstallProvisioningSpec, InstallerSpec, KernelModuleConfig,
    SecurityProfileConfig, SysctlConfig, SysfsConfig, UdevRulesConfig, UnattendedInstallConfig,
};

/// `EnvironmentConfig` (unnamed): environment variables for PID 1 and services.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.EnvironmentV1Alpha1")]
pub struct EnvironmentConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Environment variables of Talos's own services.
    #[talos(key = "variables", go_name = "EnvironmentVariables")]
    pub variables: BTreeMap<String, String>,
}

crate::document::unnamed_kind!(EnvironmentConfig => "EnvironmentConfig" since V1_13_9);

/// `EventSinkConfig` (unnamed): the `host:port` events are streamed to.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.EventSinkV1Alpha1")]
pub struct EventSinkConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// Where Talos streams its events (`host:port`).
    #[talos(key = "endpoint", go_name = "Endpoint")]
    pub endpoint: String,
}

crate::document::unnamed_kind!(EventSinkConfig => "EventSinkConfig");

/// `KmsgLogConfig` (named): a kernel log destination URL.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.KmsgLogV1Alpha1")]
pub struct KmsgLogConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The destination's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// Where kernel log messages are sent (`tcp://` or `udp://` host and port).
    #[talos(key = "url", go_name = "KmsgLogURL")]
    pub url: MetaUrl,
}

crate::document::named_kind!(KmsgLogConfig => "KmsgLogConfig");

/// `OOMConfig` (unnamed): the userspace OOM handler's CEL expressions.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.OOMV1Alpha1")]
pub struct OomConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// A CEL expression over memory pressure that decides when the OOM handler acts.
    #[talos(key = "triggerExpression", omitempty, go_name = "OOMTriggerExpression")]
    pub trigger_expression: CelExpression,
    /// A CEL expression ranking cgroups; the highest is killed first.
    #[talos(key = "cgroupRankingExpression", omitempty, go_name = "OOMCgroupRankingExpression")]
    pub cgroup_ranking_expression: CelExpression,
    /// Kills cgroups strictly by QoS class (besteffort, then burstable, then guaranteed).
    #[talos(key = "strictCgroupClassOrdering", omitempty, go_name = "OOMStrictCgroupClassOrdering")]
    pub strict_cgroup_class_ordering: Option<bool>,
    /// How often memory pressure is sampled.
    #[talos(key = "sampleInterval", omitempty, go_name = "OOMSampleInterval")]
    pub sample_interval: Duration,
}

crate::document::unnamed_kind!(OomConfig => "OOMConfig");

/// `WatchdogTimerConfig` (unnamed): the hardware watchdog.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.WatchdogTimerV1Alpha1")]
pub struct WatchdogTimerConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The watchdog device (`/dev/watchdog0`).
    #[talos(key = "device", go_name = "WatchdogDevice")]
    pub device: String,
    /// How long without a ping before the watchdog resets the machine.
    #[talos(key = "timeout", omitempty, go_name = "WatchdogTimeout")]
    pub timeout: Duration,
}

crate::document::unnamed_kind!(WatchdogTimerConfig => "WatchdogTimerConfig");

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[
    entry::<EnvironmentConfig>(),
    entry::<EventSinkConfig>(),
    entry::<KmsgLogConfig>(),
    entry::<OomConfig>(),
    entry::<WatchdogTimerConfig>(),
    entry::<ExtensionServiceConfig>(),
    entry::<EtcFileConfig>(),
    entry::<KernelModuleConfig>(),
    entry::<SecurityProfileConfig>(),
    entry::<SysctlConfig>(),
    entry::<SysfsConfig>(),
    entry::<UdevRulesConfig>(),
    entry::<UnattendedInstallConfig>(),
];
