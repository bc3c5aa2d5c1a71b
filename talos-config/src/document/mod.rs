//! Documents: the kinds Talos registers, how a document is told apart from another, and the
//! object-safe view the container and the patch engine use.

use std::fmt::Debug;

mod id;
pub mod validation;

pub use id::DocumentId;

use crate::value::{DecodeCx, DeletePath, Value};
use crate::yaml::Node;
use validation::{Context, Findings, Issue, Validate};

/// A document kind of the model: a typed document with Talos's registration
/// facts (`kind:`, whether it is named), read with `Config::get`. Sealed:
/// the kinds are the model's.
pub trait Kind: Value + Validate + Send + Sync + 'static {
    /// The `kind:` value (`"v1alpha1"` for the legacy document, which has no `kind:` key).
    const KIND: &'static str;
    /// Whether the kind has a `name` that is part of its identity (docs/merge.md Appendix B).
    const NAMED: bool;
    /// The first release that registers the kind: older releases refuse it as not registered.
    const SINCE: crate::Release = crate::Release::OLDEST;
    /// Whether Talos refuses the kind on a worker (upstream's `ControlplaneOnlyConfig`, checked
    /// from v1.14 on).
    const CONTROL_PLANE_ONLY: bool = false;
    /// The document's name (`""` for unnamed kinds); users read it through [`Document::name`].
    #[doc(hidden)]
    fn document_name(&self) -> &str {
        ""
    }
}

/// Implements [`Kind`] for named kinds (identity includes the `name` field):
/// `Type => "Kind"`, then `since RELEASE` for a kind newer than the oldest release and
/// `only control_planes` for a kind Talos refuses on workers.
macro_rules! named_kind {
    ($($ty:ty => $kind:literal $(since $since:ident)? $(only $control_planes:ident)?),* $(,)?) => {$(
        impl $crate::document::Kind for $ty {
            const KIND: &'static str = $kind;
            $(const CONTROL_PLANE_ONLY: bool = $crate::document::only!($control_planes);)?
            const NAMED: bool = true;
            $(const SINCE: $crate::Release = $crate::Release::$since;)?

            fn document_name(&self) -> &str {
                &self.name
            }
        }
    )*};
}

/// Implements [`Kind`] for unnamed kinds (at most one per config).
macro_rules! unnamed_kind {
    ($($ty:ty => $kind:literal $(since $since:ident)? $(only $control_planes:ident)?),* $(,)?) => {$(
        impl $crate::document::Kind for $ty {
            const KIND: &'static str = $kind;
            $(const CONTROL_PLANE_ONLY: bool = $crate::document::only!($control_planes);)?
            const NAMED: bool = false;
            $(const SINCE: $crate::Release = $crate::Release::$since;)?
        }
    )*};
}

/// The `only` of the kind macros: `control_planes` is the one word it takes.
macro_rules! only {
    (control_planes) => {
        true
    };
}

pub(crate) use {named_kind, only, unnamed_kind};

/// Any loaded document, as `Config::docs` yields it: its kind, name,
/// identity and text. Sealed: the document kinds are the model's.
///
/// ```
/// use talos_config::Config;
/// let config = Config::from_bytes(b"apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: node-1\n")?;
/// let doc = config.docs().next().unwrap();
/// assert_eq!((doc.kind(), doc.id().to_string()), ("HostnameConfig", "HostnameConfig".to_string()));
/// assert_eq!(doc.to_yaml(), "apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: node-1\n");
/// # Ok::<(), talos_config::Error>(())
/// ```
pub trait Document: Hooks + Debug + Send + Sync {
    /// `kind:` (`"v1alpha1"` for the legacy document).
    fn kind(&self) -> &'static str;
    /// The name (`""` for unnamed kinds).
    fn name(&self) -> &str;
    /// The document's identity.
    fn id(&self) -> DocumentId {
        DocumentId::of(self.as_dyn())
    }
    /// The document alone as Talos's encoder writes it.
    fn to_yaml(&self) -> String {
        crate::yaml::emit_v4::emit_v4(&self.encode())
    }
    /// Whether Talos refuses this kind of document on a worker (from v1.14 on: the Kubernetes
    /// control plane's documents).
    ///
    /// ```
    /// use talos_config::{Config, Release};
    /// let yaml = b"apiVersion: v1alpha1\nkind: KubeSchedulerConfig\n---\napiVersion: v1alpha1\nkind: KubeletConfig\n";
    /// let config = Config::from_bytes_for(yaml, Release::V1_14_0_RC1)?;
    /// let only: Vec<bool> = config.docs().map(|d| d.control_plane_only()).collect();
    /// assert_eq!(only, [true, false]);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    fn control_plane_only(&self) -> bool {
        self.kind_control_plane_only()
    }
}

/// What the engine asks of every document, out of users' reach (the sealed half of
/// [`Document`]).
#[doc(hidden)]
pub trait Hooks {
    /// Whether the kind is named.
    fn named(&self) -> bool;
    /// [`Kind::CONTROL_PLANE_ONLY`] of the document's kind.
    fn kind_control_plane_only(&self) -> bool;
    /// The Talos encoder's node tree for the document.
    fn encode(&self) -> Node;
    /// The node tree as `release`'s encoder builds it.
    fn encode_for(&self, release: crate::Release) -> Node;
    /// [`Hooks::encode_for`] of a document that is not needed afterwards: its strings move into
    /// the tree.
    fn into_encoded_for(self: Box<Self>, release: crate::Release) -> Node;
    /// A deep copy.
    fn clone_box(&self) -> Box<dyn Document>;
    /// `merge.Merge(self, other)`; `other` has the same kind.
    fn merge_from(&mut self, other: &dyn Document) -> Result<(), String> {
        self.merge_from_for(other, crate::Release::DEFAULT)
    }
    /// [`Hooks::merge_from`] with `release`'s merge rules.
    fn merge_from_for(&mut self, other: &dyn Document, release: crate::Release) -> Result<(), String>;
    /// Walks a `$patch: delete` path.
    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String>;
    /// Downcasting support.
    fn as_any(&self) -> &dyn std::any::Any;
    /// Downcasting support, for editing.
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
    /// The Go type Talos's texts name (`*network.HostnameConfigV1Alpha1`).
    fn go_pointer_type(&self) -> String;
    /// The document as a trait object.
    fn as_dyn(&self) -> &dyn Document;
    /// The document's own validation.
    fn validate(&self, cx: &Context<'_>) -> Findings;
    /// Its conflicts with the v1alpha1 document.
    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue>;
}

impl<T: Kind> Document for T {
    fn kind(&self) -> &'static str {
        T::KIND
    }

    fn name(&self) -> &str {
        Kind::document_name(self)
    }
}

impl<T: Kind> Hooks for T {
    fn named(&self) -> bool {
        T::NAMED
    }

    fn kind_control_plane_only(&self) -> bool {
        T::CONTROL_PLANE_ONLY
    }

    fn encode(&self) -> Node {
        Value::encode(self)
    }

    fn encode_for(&self, release: crate::Release) -> Node {
        Value::encode_for(self, release)
    }

    fn into_encoded_for(self: Box<Self>, release: crate::Release) -> Node {
        Value::encode_owned_for(*self, release)
    }

    fn clone_box(&self) -> Box<dyn Document> {
        Box::new(self.clone())
    }

    fn merge_from_for(&mut self, other: &dyn Document, release: crate::Release) -> Result<(), String> {
        match other.as_any().downcast_ref::<T>() {
            Some(o) => Value::merge(self, o, crate::value::MergeFlags::top(release).pointee()),
            None => Err(format!("merge type mismatch left {} right {}", T::KIND, other.kind())),
        }
    }

    fn delete(&mut self, path: DeletePath<'_>) -> Result<(), String> {
        Value::delete(self, path)
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }

    fn as_dyn(&self) -> &dyn Document {
        self
    }

    fn go_pointer_type(&self) -> String {
        go_pointer_type::<T>()
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
    /// The first release that registers the kind.
    pub since: crate::Release,
    /// The Go type name in decode errors (`*network.LinkConfigV1Alpha1`).
    pub go_type: fn() -> String,
    /// Decodes a document of the kind strictly, collecting errors in the context.
    pub decode: fn(&Node, &mut DecodeCx) -> Box<dyn Document>,
    /// [`KindEntry::decode`] of a node read no more afterwards but by the explicit-tag check
    /// (`Value::decode_taking`: strings are moved out of it, not copied).
    pub decode_taking: fn(&mut Node, &mut DecodeCx) -> Box<dyn Document>,
    /// The keys of a node the kind does not know, as go-yaml's strict decoding reports them.
    pub unknown_keys: fn(&Node) -> Result<Option<Node>, String>,
    /// The same check as a given release makes it.
    pub unknown_keys_for: fn(&Node, crate::Release) -> Result<Option<Node>, String>,
    /// The YAML path of every field of the kind the default release has (see `Value::schema_paths`).
    pub schema_paths: fn() -> Vec<String>,
    /// The kind's JSON Schema (see `Value::json_schema`).
    pub json_schema: fn(&mut crate::value::json_schema::SchemaCx) -> crate::value::json_schema::Json,
}

/// Builds the [`KindEntry`] of a kind.
pub const fn entry<T: Kind>() -> KindEntry {
    KindEntry {
        kind: T::KIND,
        named: T::NAMED,
        since: T::SINCE,
        go_type: go_pointer_type::<T>,
        decode: |node, cx| Box::new(T::decode(node, cx)),
        decode_taking: |node, cx| Box::new(T::decode_taking(node, cx)),
        unknown_keys: T::unknown_keys,
        unknown_keys_for: T::unknown_keys_for,
        schema_paths: schema_paths::<T>,
        json_schema: T::json_schema,
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
