//! `Validate` and `V1Alpha1ConflictValidate` of the new-style document kinds (docs/validation.md §7):
//! each error is one `errors.Join` part; "first error only" kinds return at most one.

mod block;
mod k8s;
mod network;
mod other;
mod v1_14;
mod v1_14_container;
mod v1_14_network;
mod v1_14_runtime;

pub(crate) use k8s::validate_as_node;

use super::{Findings, Issue};

/// An error part with the YAML path of its field.
fn err(message: impl Into<String>, path: &str) -> Issue {
    Issue::new(message, Some(path))
}

/// Findings with errors only.
fn errors(errors: Vec<Issue>) -> Findings {
    Findings { errors, warnings: Vec::new() }
}

/// Findings of a "first error only" kind.
fn first(result: Result<(), Issue>) -> Findings {
    errors(result.err().into_iter().collect())
}
