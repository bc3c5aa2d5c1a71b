//! Document kinds of upstream `pkg/machinery/config/types/hardware`.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::meta::Meta;

/// `PCIDriverRebindConfig` (named by the PCI device id): rebinds a device to another driver.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "hardware.PCIDriverRebindConfigV1Alpha1")]
pub struct PciDriverRebindConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The PCI device's address (`0000:04:00.0`).
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The driver the device is bound to instead (e.g. `vfio-pci`).
    #[talos(key = "targetDriver", go_name = "PCITargetDriver")]
    pub target_driver: String,
}

crate::document::named_kind!(PciDriverRebindConfig => "PCIDriverRebindConfig");

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[entry::<PciDriverRebindConfig>()];
