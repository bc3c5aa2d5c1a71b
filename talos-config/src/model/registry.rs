//! The kind registry: every document kind Talos v1.13.9 registers, with its typed decoding, looked
//! up by the `kind:` value when a config is loaded.

use crate::document::KindEntry;

/// Every kind Talos v1.13.9 registers, the legacy `v1alpha1` document first.
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
}

/// Looks a kind up by its `kind:` value.
pub fn lookup(kind: &str) -> Option<&'static KindEntry> {
    registry().find(|e| e.kind == kind)
}
