//! Filesystem maintenance documents of v1.14: `FilesystemTrimConfig`, `FilesystemScrubConfig`,
//! and the per-volume `trim`/`scrub` settings.

use talos_config_derive::Talos;

use crate::model::meta::Meta;
use crate::value::Duration;

/// `FilesystemTrimConfig` (unnamed): how often mounted filesystems are trimmed.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.FilesystemTrimConfigV1Alpha1")]
pub struct FilesystemTrimConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The time between two trims of every filesystem.
    #[talos(key = "interval", omitempty, go_name = "TrimInterval")]
    pub interval: Duration,
}
crate::document::unnamed_kind!(FilesystemTrimConfig => "FilesystemTrimConfig" since V1_14_0_RC1);

/// `FilesystemScrubConfig` (unnamed): how often filesystems are scrubbed.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.FilesystemScrubConfigV1Alpha1")]
pub struct FilesystemScrubConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The time between two scrubs (at least ten seconds when set).
    #[talos(key = "interval", omitempty, go_name = "ScrubInterval")]
    pub interval: Duration,
}
crate::document::unnamed_kind!(FilesystemScrubConfig => "FilesystemScrubConfig" since V1_14_0_RC1);

/// `block.TrimConfig`: a volume's own trim setting.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.TrimConfig")]
pub struct TrimConfig {
    /// Turns periodic trim of this volume on or off.
    #[talos(key = "enabled", omitempty, go_name = "TrimEnabled")]
    pub enabled: Option<bool>,
    /// The time between two trims of this volume.
    #[talos(key = "interval", omitempty, go_name = "TrimInterval")]
    pub interval: Duration,
}

/// `block.ScrubConfig`: a volume's own scrub setting.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "block.ScrubConfig")]
pub struct ScrubConfig {
    /// Turns periodic scrub of this volume on or off.
    #[talos(key = "enabled", omitempty, go_name = "ScrubEnabled")]
    pub enabled: Option<bool>,
    /// The time between two scrubs of this volume.
    #[talos(key = "interval", omitempty, go_name = "ScrubInterval")]
    pub interval: Duration,
}
