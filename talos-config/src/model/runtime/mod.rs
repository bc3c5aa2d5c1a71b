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

pub use extensions::{ConfigFile, ConfigFileList, ExtensionServiceConfig};

/// `EnvironmentConfig` (unnamed): environment variables for PID 1 and services.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.EnvironmentV1Alpha1")]
pub struct EnvironmentConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "variables", go_name = "EnvironmentVariables")]
    pub variables: BTreeMap<String, String>,
}

crate::document::unnamed_kind!(EnvironmentConfig => "EnvironmentConfig");

/// `EventSinkConfig` (unnamed): the `host:port` events are streamed to.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.EventSinkV1Alpha1")]
pub struct EventSinkConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "endpoint", go_name = "Endpoint")]
    pub endpoint: String,
}

crate::document::unnamed_kind!(EventSinkConfig => "EventSinkConfig");

/// `KmsgLogConfig` (named): a kernel log destination URL.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.KmsgLogV1Alpha1")]
pub struct KmsgLogConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "url", go_name = "KmsgLogURL")]
    pub url: MetaUrl,
}

crate::document::named_kind!(KmsgLogConfig => "KmsgLogConfig");

/// `OOMConfig` (unnamed): the userspace OOM handler's CEL expressions.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.OOMV1Alpha1")]
pub struct OomConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "triggerExpression", omitempty, go_name = "OOMTriggerExpression")]
    pub trigger_expression: CelExpression,
    #[talos(key = "cgroupRankingExpression", omitempty, go_name = "OOMCgroupRankingExpression")]
    pub cgroup_ranking_expression: CelExpression,
    #[talos(key = "sampleInterval", omitempty, go_name = "OOMSampleInterval")]
    pub sample_interval: Duration,
}

crate::document::unnamed_kind!(OomConfig => "OOMConfig");

/// `WatchdogTimerConfig` (unnamed): the hardware watchdog.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "runtime.WatchdogTimerV1Alpha1")]
pub struct WatchdogTimerConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "device", go_name = "WatchdogDevice")]
    pub device: String,
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
];
