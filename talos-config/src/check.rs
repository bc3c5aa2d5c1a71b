//! The front door: [`check`] merges a base config and patches, validates the result as Talos
//! does and, when asked, runs the lint rules, reporting everything as one list of
//! [`Diagnostic`]s.

use std::borrow::Cow;

use crate::net::Prefix;
use crate::patch::merge_sources_owned;
use crate::provenance::Provenance;
use crate::{Config, Diagnostic, Error, Mode, Options, PatchSource, Report, Severity, merge_sources_for};

/// Which checks [`check`] runs after the merge. New groups may be added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Checks {
    /// Only the merge (`talosctl machineconfig patch`): a patch that does not load or apply.
    MergeOnly,
    /// The merge, then Talos's validation (`talosctl validate`, a node's `ApplyConfiguration`).
    #[default]
    Validation,
    /// The merge, Talos's validation, then every lint rule ([`lint::rules`](crate::lint::rules)).
    Lint,
}

/// What [`check`] is told beyond the inputs.
///
/// ```
/// use talos_config::{CheckOptions, Checks, Mode};
/// let options = CheckOptions { mode: Mode::Metal, checks: Checks::Lint, ..CheckOptions::default() };
/// assert!(!options.strict);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// The runtime mode Talos's validation runs for (default `container`, the lab's Docker
    /// nodes; `metal` for machines installed on disk).
    pub mode: Mode,
    /// `talosctl validate --strict`: the v1alpha1 document's warnings become errors, with
    /// Talos's `warning: <w>` text.
    pub strict: bool,
    /// Address ranges the cluster must not use (the host network, a VPN): pod and service
    /// subnets overlapping them are reported by the `subnet-overlap` rule.
    pub host_ranges: Vec<Prefix>,
    /// Which checks run.
    pub checks: Checks,
    /// The Talos release to answer as (default v1.13.9): its kinds, fields, texts and rules.
    pub release: crate::Release,
}

impl Default for CheckOptions {
    fn default() -> CheckOptions {
        CheckOptions {
            mode: Mode::Container,
            strict: false,
            host_ranges: Vec::new(),
            checks: Checks::default(),
            release: crate::Release::DEFAULT,
        }
    }
}

/// What [`check`] found: the merged config and the diagnostics. Either the merge gave bytes
/// ([`merged`](Checked::merged)) or it failed ([`merge_error`](Checked::merge_error)); merged
/// bytes that do not load as a config give both.
#[derive(Clone, Debug)]
pub struct Checked {
    merged: Option<Vec<u8>>,
    config: Option<Config>,
    merge_error: Option<Error>,
    validation: Option<Report>,
    diagnostics: Vec<Diagnostic>,
}

impl Checked {
    /// The merged config's bytes, exactly as `talosctl machineconfig patch -o` writes them
    /// (`labctl merge` prints them followed by a newline); `None` when a patch did not load or
    /// apply.
    pub fn merged(&self) -> Option<&[u8]> {
        self.merged.as_deref()
    }

    /// The merged config, decoded; `None` when the merge failed, when the merged bytes do not
    /// load as a config, or with [`Checks::MergeOnly`].
    pub fn config(&self) -> Option<&Config> {
        self.config.as_ref()
    }

    /// Why the inputs did not make a config (Talos's text, with the input and position): a
    /// patch that does not load or apply (the error [`merge_sources`](crate::merge_sources) returns), or merged bytes
    /// that do not load (the error `talosctl validate` would give them). It is also the
    /// `talos-merge` diagnostic.
    pub fn merge_error(&self) -> Option<&Error> {
        self.merge_error.as_ref()
    }

    /// Talos's validation of the merged config, whole (`Display` of its error is the exact text
    /// `talosctl validate` prints); `None` when it did not run.
    pub fn validation(&self) -> Option<&Report> {
        self.validation.as_ref()
    }

    /// Everything found, in a stable order: a merge error alone (nothing else can be checked
    /// then); else Talos's validation errors in Talos's order, its warnings, then the lint
    /// findings rule by rule in the order of [`lint::rules`](crate::lint::rules).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// How many diagnostics have this severity.
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity() == severity).count()
    }

    /// Whether anything is an error: the node would refuse the config, or break on it.
    pub fn has_errors(&self) -> bool {
        self.count(Severity::Error) > 0
    }
}

/// Merges `patches` onto `base` as `talosctl machineconfig patch` does, then runs the checks
/// `options` asks for. Nothing is written.
///
/// Problems in the inputs are diagnostics, a patch that does not load or apply included
/// (rule `talos-merge`, at the input and line that failed). `Err` is kept for a check that
/// cannot run at all; no input makes it fail today.
///
/// ```
/// use talos_config::{CheckOptions, PatchSource, check};
///
/// let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
/// let patch = PatchSource::new("labels.yaml", "machine:\n  nodeLabels:\n    pool: blue\n");
/// let checked = check(&base, &[patch], &CheckOptions::default())?;
/// assert!(checked.merged().unwrap().ends_with(b"nodeLabels:\n        pool: blue\ncluster: null\n"));
/// // This tiny base lacks much a real config has: Talos's own texts say what.
/// assert_eq!(checked.diagnostics()[0].to_string(), "worker.yaml:1:1: error[talos-validation]: cluster instructions are required");
/// # Ok::<(), talos_config::Error>(())
/// ```
pub fn check(base: &PatchSource, patches: &[PatchSource], options: &CheckOptions) -> Result<Checked, Error> {
    run(Cow::Borrowed(base), patches, options)
}

/// [`check`] for a caller that gives its inputs away: the same answer, with less memory. With no
/// patches the merged config is the base's own bytes (`talosctl machineconfig patch` writes its
/// input unchanged), which [`Checked::merged`] then holds without a copy: a large config is in
/// memory once, not twice, while it is decoded and validated.
///
/// ```
/// use talos_config::{CheckOptions, PatchSource, check, check_owned};
///
/// let base = PatchSource::new("worker.yaml", "version: v1alpha1\nmachine:\n  type: worker\n");
/// let borrowed = check(&base, &[], &CheckOptions::default())?;
/// let owned = check_owned(base.clone(), Vec::new(), &CheckOptions::default())?;
/// assert_eq!(owned.merged(), Some(base.bytes.as_slice()));
/// assert_eq!(owned.merged(), borrowed.merged());
/// assert_eq!(owned.diagnostics(), borrowed.diagnostics());
/// # Ok::<(), talos_config::Error>(())
/// ```
pub fn check_owned(base: PatchSource, patches: Vec<PatchSource>, options: &CheckOptions) -> Result<Checked, Error> {
    run(Cow::Owned(base), &patches, options)
}

/// The base of a check once merged: the input itself, or only its name when its bytes became
/// the merged bytes (an owned base and no patches).
enum Base<'a> {
    Source(Cow<'a, PatchSource>),
    MergedIsBase(String),
}

impl Base<'_> {
    /// Runs `f` with the base as a source; `merged` lends its bytes when they are the base's.
    fn with<T>(&self, merged: &mut Vec<u8>, f: impl FnOnce(&PatchSource) -> T) -> T {
        match self {
            Base::Source(source) => f(source),
            Base::MergedIsBase(name) => {
                let source = PatchSource { name: name.clone(), bytes: std::mem::take(merged) };
                let out = f(&source);
                *merged = source.bytes;
                out
            }
        }
    }
}

fn run(base: Cow<'_, PatchSource>, patches: &[PatchSource], options: &CheckOptions) -> Result<Checked, Error> {
    let release = options.release;
    let (mut merged, base) = match base {
        // `merge_sources` gives back a copy of the base's bytes when there are no patches.
        Cow::Owned(PatchSource { name, bytes }) if patches.is_empty() => (bytes, Base::MergedIsBase(name)),
        // Nothing reads the base after a merge alone: its bytes go before the result is encoded.
        Cow::Owned(base) if options.checks == Checks::MergeOnly => {
            return Ok(match merge_sources_owned(base, patches, release) {
                Ok(merged) => Checked::merged_only(merged),
                Err(e) => Checked::failed(None, e),
            });
        }
        base => match merge_sources_for(&base, patches, release) {
            Ok(merged) => (merged, Base::Source(base)),
            Err(e) => return Ok(Checked::failed(None, e)),
        },
    };
    if options.checks == Checks::MergeOnly {
        return Ok(Checked::merged_only(merged));
    }
    let config = match Config::from_bytes_for(&merged, release) {
        Ok(config) => config,
        Err(e) => {
            return Ok(match base {
                Base::Source(base) => unloadable(merged, e, &base, patches, release),
                // No patches: the base's own bytes, lines included, are to blame.
                Base::MergedIsBase(name) => Checked::failed(Some(merged), e.in_input(&name)),
            });
        }
    };
    let validation = Options { strict: options.strict, ..Options::default() };
    let report = config.validate(options.mode, validation);
    let mut diagnostics = report.diagnostics();
    if options.checks == Checks::Lint {
        diagnostics.extend(crate::lint::run(&config, patches, &options.host_ranges));
    }
    base.with(&mut merged, |base| crate::lint::locate(&mut diagnostics, base, patches));
    Ok(Checked { merged: Some(merged), config: Some(config), merge_error: None, validation: Some(report), diagnostics })
}

impl Checked {
    fn merged_only(merged: Vec<u8>) -> Checked {
        Checked { merged: Some(merged), config: None, merge_error: None, validation: None, diagnostics: Vec::new() }
    }

    fn failed(merged: Option<Vec<u8>>, err: Error) -> Checked {
        let diagnostics = vec![Diagnostic::from_merge_error(&err)];
        Checked { merged, config: None, merge_error: Some(err), validation: None, diagnostics }
    }
}

/// Merged bytes that do not load, and whose fault that is. With no patches they are the base's
/// own bytes, lines included; a base that does not load on its own is to blame with its own
/// error. Otherwise the first patch after which the result no longer loads is to blame, at the
/// value an input wrote where the trace finds it (the failing text is the engine's output, no
/// input's).
fn unloadable(
    merged: Vec<u8>,
    err: Error,
    base: &PatchSource,
    patches: &[PatchSource],
    release: crate::Release,
) -> Checked {
    if patches.is_empty() {
        return Checked::failed(Some(merged), err.in_input(&base.name));
    }
    if let Err(own) = Config::from_bytes_for(&base.bytes, release) {
        return Checked::failed(Some(merged), own.in_input(&base.name));
    }
    let loads = |k: usize| {
        merge_sources_for(base, &patches[..k], release).is_ok_and(|m| Config::from_bytes_for(&m, release).is_ok())
    };
    let culprit = (1..patches.len()).find(|&k| !loads(k)).unwrap_or(patches.len());
    let value = failing_value(&merged, &err, base, patches);
    let err = err.without_position().in_input(&patches[culprit - 1].name);
    let mut diagnostic = Diagnostic::from_merge_error(&err);
    if let Some((document, field, site)) = value {
        let field = (!field.segments().is_empty()).then_some(field);
        let site = site.or_else(|| diagnostic.site().cloned());
        diagnostic = diagnostic
            .at(document, field)
            .with_site(site)
            .with_fix("the merged config does not load (Talos would refuse it): fix the value named here");
    }
    Checked {
        merged: Some(merged),
        config: None,
        merge_error: Some(err),
        validation: None,
        diagnostics: vec![diagnostic],
    }
}

/// The value merged bytes fail to load on: the node at the error's line and column in the merged
/// text, its document and field, and where an input wrote it (traced back through the inputs).
/// `None` when the error has no position.
fn failing_value(
    merged: &[u8],
    err: &Error,
    base: &PatchSource,
    patches: &[PatchSource],
) -> Option<(crate::DocumentId, crate::FieldPath, Option<crate::Site>)> {
    let (line, column) = (err.line()?, err.column()?);
    let roots = talos_yaml::parse::parse_documents(merged).ok()?;
    roots.iter().find_map(|root| {
        let path = path_at(root, line, column, crate::FieldPath::root())?;
        let document = crate::provenance::document_id(root);
        let found = Provenance::trace(base, patches).locate(&document, &path);
        let site = found.filter(|f| f.exact).map(|f| f.site);
        Some((document, path, site))
    })
}

/// The path of the node (a mapping key or a value) at `line` and `column` under `node`.
pub(crate) fn path_at(
    node: &talos_yaml::Node,
    line: usize,
    column: usize,
    here: crate::FieldPath,
) -> Option<crate::FieldPath> {
    use talos_yaml::NodeValue;
    if (node.mark.line, node.mark.column) == (line, column) {
        return Some(here);
    }
    talos_yaml::node::deep(|| match &node.value {
        NodeValue::Mapping(entries, _) => entries.iter().find_map(|(k, v)| {
            let key = k.as_scalar()?.text.clone();
            if (k.mark.line, k.mark.column) == (line, column) {
                return Some(here.key(key));
            }
            path_at(v, line, column, here.key(key))
        }),
        NodeValue::Sequence(items, _) => {
            items.iter().enumerate().find_map(|(i, item)| path_at(item, line, column, here.index(i)))
        }
        NodeValue::Scalar(_) => None,
    })
}
