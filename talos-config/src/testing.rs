//! The internals this crate's own integration tests exercise directly (the engine's per-type
//! rules, the kind registry, the validation context, `$patch: delete` extraction, JSON6902). Only with the `testing` feature, which the crate's tests turn on: **not**
//! part of the public API, and free to change in any release.

pub use crate::delete::extract_deletes;
pub use crate::document::validation::{Context, Issue, Validate, render_list};
pub use crate::json6902::{JsonPatch, YamlListError, apply_json6902};
pub use crate::model::registry::lookup;
pub use crate::model::testing::roundtrip;
pub use crate::patch::apply_patches_to_config;
pub use crate::value::{DecodeCx, DeletePath, Value, merge_values};

/// The number of JSON6902 operations of a loaded patch (0 for a strategic patch).
pub fn json6902_len(patch: &crate::Patch) -> usize {
    patch.json6902_len()
}

pub use crate::document::Hooks;

/// The top-level items of Talos's go-multierror list.
pub fn issues(error: &crate::ValidationError) -> &[Issue] {
    &error.issues
}
