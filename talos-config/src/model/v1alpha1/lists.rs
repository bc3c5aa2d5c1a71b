//! The keyed lists of the legacy document: `NetworkDeviceList`, `VlanList` and
//! `AdmissionPluginConfigList`. A patch element that matches a base element (by `interface` /
//! `deviceSelector`, `vlanId`, `name`) is deep-merged into it; any other is appended.

use crate::value::{MergeFlags, Value};

use super::cluster::AdmissionPluginConfig;
use super::network::{Device, NetworkDeviceSelector, Vlan};

/// Merges `right` into `left` element by element: `find` picks the base element a patch
/// element merges into; unmatched patch elements are appended.
fn merge_keyed<T: Value>(
    left: &mut Vec<Option<T>>,
    right: &[Option<T>],
    find: impl Fn(&T, &T) -> bool,
) -> Result<(), String> {
    for r in right {
        let Some(rv) = r else {
            // Upstream dereferences the nil element and panics; we append it instead.
            left.push(None);
            continue;
        };
        match left.iter_mut().flatten().find(|l| find(l, rv)) {
            Some(l) => l.merge(rv, MergeFlags { overwrite: true })?,
            None => left.push(Some(rv.clone())),
        }
    }
    Ok(())
}

/// Go struct equality of two selectors; `physical` is a pointer compared by identity, so a
/// selector with `physical` set never equals another one.
fn selector_eq(a: &NetworkDeviceSelector, b: &NetworkDeviceSelector) -> bool {
    a.bus_path == b.bus_path
        && a.hardware_addr == b.hardware_addr
        && a.permanent_addr == b.permanent_addr
        && a.pci_id == b.pci_id
        && a.driver == b.driver
        && a.physical.is_none()
        && b.physical.is_none()
}

macro_rules! keyed_list {
    ($(#[$doc:meta])* $name:ident, $elem:ty, $go:literal, $find:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $name(pub Vec<Option<$elem>>);

        impl $name {
            /// The non-nil elements.
            pub fn iter(&self) -> impl Iterator<Item = &$elem> {
                self.0.iter().flatten()
            }
        }

        crate::value::go_slice_type!($name, Option<$elem>, $go, merge = |l: &mut Vec<Option<$elem>>, r: &[Option<$elem>]| merge_keyed(l, r, $find));
    };
}

keyed_list!(
    /// `v1alpha1.NetworkDeviceList` (`[]*Device`): keyed by `interface`, else by `deviceSelector`.
    NetworkDeviceList,
    Device,
    "v1alpha1.NetworkDeviceList",
    |l: &Device, r: &Device| {
        if !r.interface.is_empty() {
            l.interface == r.interface
        } else if let Some(rs) = &r.device_selector {
            l.device_selector.as_ref().is_some_and(|ls| selector_eq(ls, rs))
        } else {
            false
        }
    }
);

keyed_list!(
    /// `v1alpha1.VlanList` (`[]*Vlan`): keyed by `vlanId`.
    VlanList,
    Vlan,
    "v1alpha1.VlanList",
    |l: &Vlan, r: &Vlan| l.vlan_id == r.vlan_id
);

keyed_list!(
    /// `v1alpha1.AdmissionPluginConfigList` (`[]*AdmissionPluginConfig`): keyed by `name`.
    AdmissionPluginConfigList,
    AdmissionPluginConfig,
    "v1alpha1.AdmissionPluginConfigList",
    |l: &AdmissionPluginConfig, r: &AdmissionPluginConfig| l.name == r.name
);
