//! Document kinds of upstream `pkg/machinery/config/types/hardware`.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::meta::Meta;

/// `PCIDriverRebindConfig` (named by the PCI device id): rebinds a device to another driver.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "hardware.PCIDriverRebindConfigV1Alpha1")]
pub struct PciDriverRebindConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "targetDriver", go_name = "PCITargetDriver")]
    pub target_driver: String,
}

crate::document::named_kind!(PciDriverRebindConfig => "PCIDriverRebindConfig");

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[entry::<PciDriverRebindConfig>()];
