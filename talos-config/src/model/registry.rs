//! The kind registry: every document kind a supported Talos release registers, with its typed
//! decoding and the first release that has it, looked up by the `kind:` value when a config is
//! loaded.

use crate::document::KindEntry;

/// Every kind of every supported release, the legacy `v1alpha1` document first.
pub fn registry() -> impl Iterator<Item = &'static KindEntry> {
    super::v1alpha1::KINDS
        .iter()
        .chain(super::network::KINDS)
        .chain(super::block::KINDS)
        .chain(super::runtime::KINDS)
        .chain(super::security::KINDS)
        .chain(super::cri::KINDS)
        .chain(super::siderolink::KINDS)
        .chain(super::hardware::KINDS)
        .chain(super::k8s::KINDS)
        .chain(super::cluster::KINDS)
        .chain(super::container::KINDS)
        .chain(super::storage::KINDS)
}

/// Looks a kind up by its `kind:` value, among the kinds the default release registers.
#[cfg_attr(not(feature = "testing"), allow(dead_code))]
pub fn lookup(kind: &str) -> Option<&'static KindEntry> {
    lookup_for(kind, crate::Release::DEFAULT)
}

/// Looks a kind up by its `kind:` value, among the kinds `release` registers.
pub fn lookup_for(kind: &str, release: crate::Release) -> Option<&'static KindEntry> {
    registry_for(release).find(|e| e.kind == kind)
}

/// Every kind `release` registers, in registry order.
pub fn registry_for(release: crate::Release) -> impl Iterator<Item = &'static KindEntry> {
    registry().filter(move |e| e.since <= release)
}
