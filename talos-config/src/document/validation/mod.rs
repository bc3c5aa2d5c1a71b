//! What validation asks of every document kind, apart from how each kind answers (the checks
//! live in the `validate` module): the [`Validate`] trait, the [`Context`] a check sees, what it
//! returns ([`Findings`], [`Issue`]), and the run's [`Mode`] and [`Options`].

mod issue;
mod mode;

pub(crate) use issue::Leaf;
pub use issue::{Issue, render_list};
pub use mode::Mode;

use super::{Document, Kind};

/// Options of one validation run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--strict`: warnings of the v1alpha1 document become errors (`warning: <w>`).
    pub strict: bool,
    /// On a node: the machine is installed already, so `metal` no longer requires
    /// `machine.install`.
    pub installed: bool,
    /// Validate as a node does (`ValidateAtRuntime`), not as `talosctl validate` does (a client,
    /// `WithLocal`): from v1.14 this adds the checks of the Kubernetes images' versions to the
    /// v1alpha1 document and the Kubernetes documents (before v1.14 a node ran them afterwards,
    /// in its runtime checks).
    pub node: bool,
}

/// What validating one document found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Findings {
    /// Error items, in Talos's order.
    pub errors: Vec<Issue>,
    /// Warnings, in Talos's order, each with the field it is about where known.
    pub warnings: Vec<Issue>,
}

/// Everything a document's checks may look at.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The runtime mode validated for.
    pub mode: Mode,
    /// Strict / installed.
    pub options: Options,
    /// Every document of the config, legacy document first (for checks that look at others).
    pub docs: &'a [&'a dyn Document],
    /// The release whose checks and texts apply.
    pub release: crate::Release,
}

impl<'a> Context<'a> {
    /// The first document of kind `T`, typed.
    pub fn get<T: Kind>(&self) -> Option<&'a T> {
        self.docs.iter().find_map(|d| d.as_any().downcast_ref::<T>())
    }
}

/// The checks of one document kind (upstream `Validate` and `V1Alpha1ConflictValidate`).
pub trait Validate {
    /// The document's own checks. For new-style documents each error is one `errors.Join`
    /// part (joined with `\n`); for the v1alpha1 document each error is one multierror item.
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        Findings::default()
    }

    /// Conflicts with the v1alpha1 document, reported after every document's own errors and
    /// without a document prefix.
    fn conflicts(&self, _cx: &Context<'_>) -> Vec<Issue> {
        Vec::new()
    }
}
