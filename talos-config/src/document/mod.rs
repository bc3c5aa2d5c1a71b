//! Documents: the kinds Talos registers, how a document is told apart from another, and the
//! object-safe view the container and the patch engine use.

use std::fmt::Debug;

pub mod validation;

use crate::value::{DecodeCx, DeletePath, Value};
use crate::yaml::Node;
use validation::{Context, Findings, Issue, Validate};

/// A document kind: a typed document with Talos's registration facts (`kind:`, whether it is named).
pub trait Kind: Value + Validate + Send + Sync + 'static {
    /// The `kind:` value (`"v1alpha1"` for the legacy document, which has no `kind:` key).
    const KIND: &'static str;
    /// Whether the kind has a `name` that is part of its identity (docs/merge.md Appendix B).
    const NAMED: bool;
    /// The document's name (`""` for unnamed kinds).
    fn name(&self) -> &str {
        ""
    }
}

/// Implements [`Kind`] for named kinds (identity includes the `name` field).
macro_rules! named_kind {
    ($($ty:ty => $kind:literal),* $(,)?) => {$(
        impl $crate::document::Kind for $ty {
            const KIND: &'static str = $kind;
            const NAMED: bool = true;

            fn name(&self) -> &str {
                &self.name
            }
        }
    )*};
}

/// Implements [`Kind`] for unnamed kinds (at most one per config).
macro_rules! unnamed_kind {
    ($($ty:ty => $kind:literal),* $(,)?) => {$(
        impl $crate::document::Kind for $ty {
            const KIND: &'static str = $kind;
            const NAMED: bool = false;
        }
    )*};
}

pub(crate) use {named_kind, unnamed_kind};

/// Object-safe view of any document.
pub trait Document: Debug + Send + Sync {
    /// `kind:` (`"v1alpha1"` for the legacy document).
    fn kind(&self) -> &'static str;
    /// Whether the kind is named.
    fn named(&self) -> bool;
    /// The name (`""` for unnamed kinds).
    fn name(&self) -> &str;
    /// The Talos encoder's node tree for the document.
    fn encode(&self) -> Node;
    /// A deep copy.
    fn clone_box(&self) -> Box<dyn Document>;
    /// `merge.Merge(self, other)`; `other` has the same kind.
    fn merge_from(&mut self, other: &dyn Document) -> Result<(), String>;
    /// Walks a `$patch: delete` path.
    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String>;
    /// Downcasting support.
    fn as_any(&self) -> &dyn std::any::Any;
    /// The document's own validation.
    fn validate(&self, cx: &Context<'_>) -> Findings;
    /// Its conflicts with the v1alpha1 document.
    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue>;
}

impl<T: Kind> Document for T {
    fn kind(&self) -> &'static str {
        T::KIND
    }

    fn named(&self) -> bool {
        T::NAMED
    }

    fn name(&self) -> &str {
        Kind::name(self)
    }

    fn encode(&self) -> Node {
        Value::encode(self)
    }

    fn clone_box(&self) -> Box<dyn Document> {
        Box::new(self.clone())
    }

    fn merge_from(&mut self, other: &dyn Document) -> Result<(), String> {
        match other.as_any().downcast_ref::<T>() {
            Some(o) => Value::merge(self, o, crate::value::MergeFlags { overwrite: true }),
            None => Err(format!("merge type mismatch left {} right {}", T::KIND, other.kind())),
        }
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        Value::delete(self, path)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn validate(&self, cx: &Context<'_>) -> Findings {
        Validate::validate(self, cx)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        Validate::conflicts(self, cx)
    }
}

impl Clone for Box<dyn Document> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// One registered kind: its facts and its typed decoding.
pub struct KindEntry {
    /// The `kind:` value.
    pub kind: &'static str,
    /// Whether the kind's `name` is part of its identity.
    pub named: bool,
    /// The Go type name in decode errors (`*network.LinkConfigV1Alpha1`).
    pub go_type: fn() -> String,
    /// Decodes a document of the kind strictly, collecting errors in the context.
    pub decode: fn(&Node, &mut DecodeCx) -> Box<dyn Document>,
    /// The keys of a node the kind does not know, as go-yaml's strict decoding reports them.
    pub unknown_keys: fn(&Node) -> Result<Option<Node>, String>,
    /// The YAML path of every field of the kind (see `Value::schema_paths`).
    pub schema_paths: fn() -> Vec<String>,
}

/// Builds the [`KindEntry`] of a kind.
pub const fn entry<T: Kind>() -> KindEntry {
    KindEntry {
        kind: T::KIND,
        named: T::NAMED,
        go_type: go_pointer_type::<T>,
        decode: |node, cx| Box::new(T::decode(node, cx)),
        unknown_keys: T::unknown_keys,
        schema_paths: schema_paths::<T>,
    }
}

fn schema_paths<T: Kind>() -> Vec<String> {
    let mut out = Vec::new();
    T::schema_paths("", &mut out);
    out
}

fn go_pointer_type<T: Kind>() -> String {
    format!("*{}", T::go_type())
}

/// How validation, diffs and lint name a document: `Kind/name` for named kinds, else `Kind`
/// (`v1alpha1` for the legacy document).
pub(crate) fn label(doc: &dyn Document) -> String {
    if doc.named() { format!("{}/{}", doc.kind(), doc.name()) } else { doc.kind().to_string() }
}
