//! The internals this crate's own integration tests exercise directly (the engine's per-type
//! rules, the kind registry, the validation context, `$patch: delete` extraction, JSON6902).
//! Only with the `testing` feature, which the crate's tests turn on: **not** part of the public
//! API, and free to change in any release.

pub use crate::delete::extract_deletes;
pub use crate::document::validation::{Context, Validate, render_list};
pub use crate::json6902::{JsonPatch, YamlListError, apply_json6902};
pub use crate::model::registry::lookup;
pub use crate::model::testing::roundtrip;
pub use crate::value::{DecodeCx, DeletePath, Value, merge_values};
