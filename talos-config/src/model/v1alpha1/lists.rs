//! How the legacy document's keyed lists merge (`NetworkDeviceList` and `VlanList` in `network`,
//! `AdmissionPluginConfigList` in `cluster`, each made by `keyed_list!`): a patch element that
//! matches a base element (by `interface` / `deviceSelector`, `vlanId`, `name`) is deep-merged
//! into it; any other is appended.

use crate::value::{MergeFlags, Value};

/// Merges `right` into `left` element by element: `find` picks the base element a patch
/// element merges into; unmatched patch elements are appended.
pub(crate) fn merge_keyed<T: Value>(
    left: &mut Vec<Option<T>>,
    right: &[Option<T>],
    find: impl Fn(&T, &T) -> bool,
    flags: MergeFlags,
) -> Result<(), String> {
    for r in right {
        let Some(rv) = r else {
            // Upstream dereferences the nil element and panics; we append it instead.
            left.push(None);
            continue;
        };
        match left.iter_mut().flatten().find(|l| find(l, rv)) {
            Some(l) => l.merge(rv, flags.pointee())?,
            None => left.push(Some(rv.clone())),
        }
    }
    Ok(())
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

        crate::value::go_slice_type!($name, Option<$elem>, $go, merge = |l: &mut Vec<Option<$elem>>, r: &[Option<$elem>], flags| $crate::model::v1alpha1::lists::merge_keyed(l, r, $find, flags));
    };
}

pub(crate) use keyed_list;
