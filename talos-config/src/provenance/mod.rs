//! Provenance: which input (the base config or a patch, with line and column) set each value of
//! a merged config, which earlier values it replaced, and what `$patch: delete` removed.
//!
//! Talos records none of this. [`Provenance::trace`] replays the inputs on their YAML trees with
//! the merge rules of docs (`spec/merge.md` §7, §8): mappings merge key by key, lists append
//! (the `merge:"replace"` lists and the keyed lists of §8.1/§8.2 excepted), a scalar replaces
//! an earlier one unless it is `null` or an empty string outside `extraArgs`, `$patch: delete`
//! removes, and JSON6902 operations set or remove what their `path` names. It answers "where
//! did this come from", not "what is the result": the merged config itself is the engine's.
//!
//! ```
//! use talos_config::PatchSource;
//! use talos_config::provenance::Provenance;
//! use talos_config::{DocumentId, FieldPath};
//!
//! let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
//! let patch = PatchSource::new("kubelet.yaml", "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n");
//! let trace = Provenance::trace(&base, &[patch]);
//! let found = trace.locate(&DocumentId::legacy(), &FieldPath::parse("machine.kubelet.extraArgs.max-pod")).unwrap();
//! assert_eq!((found.site.input.as_ref(), found.site.line, found.site.column), ("kubelet.yaml", 4, 7));
//! assert!(found.exact);
//! ```

mod annotate;
mod replay;

pub(crate) use crate::path::{FieldPath, Segment};
pub use annotate::annotate;

use crate::{DocumentId, PatchSource, Site};

/// What [`Provenance::locate`] found for a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// Where the value (or, when not `exact`, its closest enclosing value) was last set: the
    /// key's line for a mapping entry, the item's line for a list item.
    pub site: Site,
    /// The path that was found: the asked one when `exact`, else its longest existing prefix.
    pub path: FieldPath,
    /// Whether the asked path itself exists.
    pub exact: bool,
}

/// One scalar (or empty collection) of the merged config and where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// The document.
    pub document: DocumentId,
    /// The value's path inside the document.
    pub path: FieldPath,
    /// The input that set it last.
    pub site: Site,
    /// The earlier settings it replaced, oldest first.
    pub replaced: Vec<Site>,
}

/// A value or document that `$patch: delete` (or a JSON6902 `remove`) took out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deletion {
    /// The document.
    pub document: DocumentId,
    /// The removed value's path (the root for a whole document).
    pub path: FieldPath,
    /// The `$patch: delete` (or the JSON6902 operation) that removed it.
    pub site: Site,
    /// Where the removed value had been set.
    pub removed: Site,
}

/// The provenance of a merged config: built by [`Provenance::trace`].
#[derive(Clone, Debug, Default)]
pub struct Provenance {
    docs: Vec<replay::Doc>,
    deletions: Vec<Deletion>,
}

impl Provenance {
    /// Replays the base config and the patches, in order, on their YAML trees. Inputs that do
    /// not parse as YAML are skipped (the merge itself reports them).
    pub fn trace(base: &PatchSource, patches: &[PatchSource]) -> Provenance {
        let mut out = Provenance::default();
        replay::apply(&mut out, base, false);
        for p in patches {
            replay::apply(&mut out, p, true);
        }
        out
    }

    /// Where the value at `path` of `document` was set, or its closest enclosing value when the
    /// path does not exist (a default Talos fills in, a value behind a list the replay cannot
    /// follow). `None` when the document itself is not there.
    pub fn locate(&self, document: &DocumentId, path: &FieldPath) -> Option<Located> {
        let doc = self.docs.iter().rev().find(|d| d.key == *document)?;
        Some(doc.locate(path))
    }

    /// Where the value at exactly `path` was last set, and the earlier settings it replaced;
    /// `None` when that path is not in the trace.
    pub fn exact(&self, document: &DocumentId, path: &FieldPath) -> Option<(Site, Vec<Site>)> {
        let doc = self.docs.iter().rev().find(|d| d.key == *document)?;
        doc.exact(path)
    }

    /// Every scalar (and every empty collection) of every document, in document order, each
    /// with where it was set and what it replaced.
    pub fn leaves(&self) -> Vec<Leaf> {
        let mut out = Vec::new();
        for doc in &self.docs {
            doc.leaves(&mut out);
        }
        out
    }

    /// Everything `$patch: delete` and JSON6902 `remove` took out, in the order it happened.
    pub fn deletions(&self) -> &[Deletion] {
        &self.deletions
    }

    /// The documents, in order.
    pub fn documents(&self) -> impl Iterator<Item = &DocumentId> {
        self.docs.iter().map(|d| &d.key)
    }
}

/// The identity of a parsed document, as the trace keys documents.
pub(crate) fn document_id(root: &talos_yaml::Node) -> DocumentId {
    replay::document_key(root).0
}
