//! The rewrite: a merged config written the target release's way. Forward to v1.14, the
//! v1alpha1 Kubernetes settings that have documents of their own move into them (as Talos's
//! bridge reads them, so that a node ends with the same settings), a group at a time; what
//! cannot be written the new way with the same effect stays in the v1alpha1 document, which
//! v1.14 still reads. Going back, documents the target release lacks are refused, each named.

use talos_yaml::Node;

use super::UpgradeOptions;
use super::groups::{GROUPS, Group};
use super::plan::{Cx, Plan, keys, present};
use crate::yaml_tree as tree;
use crate::{Config, Diagnostic, DocumentId, Error, FieldPath, Release};

/// One v1alpha1 setting that the target release reads from a document of its own.
///
/// ```
/// use talos_config::upgrade::{UpgradeOptions, rewrite};
/// use talos_config::Release;
///
/// let config = b"version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n    pool: blue\n";
/// let options = UpgradeOptions { to: Release::V1_14_0_RC1, ..UpgradeOptions::default() };
/// let done = rewrite(config, &options).unwrap();
/// let m = &done.moves[0];
/// assert_eq!((m.setting.to_string().as_str(), m.kind.as_str(), m.field.as_str()), ("machine.nodeLabels", "KubeNodeConfig", "labels"));
/// assert_eq!(m.kept, None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Move {
    /// The setting's path in the v1alpha1 document.
    pub setting: FieldPath,
    /// The document kind it belongs in on the target release.
    pub kind: String,
    /// The field of that document (in parentheses where the document has none: the setting
    /// cannot be written there).
    pub field: String,
    /// Why [`rewrite`] leaves it in the v1alpha1 document, when it does.
    pub kept: Option<String>,
}

/// What [`rewrite`] made.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Rewritten {
    /// The rewritten config, encoded as the target release encodes it.
    pub bytes: Vec<u8>,
    /// Every setting that has a document of its own on the target release, moved or kept.
    pub moves: Vec<Move>,
}

/// Why [`rewrite`] made nothing.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum RewriteError {
    /// The config does not load as the current release.
    Load(Error),
    /// The target release cannot express these documents or fields (each an `upgrade-unknown`
    /// diagnostic, without a site: the caller's inputs are not known here).
    Unexpressible(Vec<Diagnostic>),
    /// The rewritten config does not load or validate as the target release (a defect of the
    /// rewrite: please report it with the config).
    Invalid(String),
}

impl std::fmt::Display for RewriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RewriteError::Load(e) => write!(f, "{e}"),
            RewriteError::Unexpressible(found) => {
                let lines: Vec<String> = found.iter().map(|d| d.message().to_string()).collect();
                write!(f, "{}", lines.join("\n"))
            }
            RewriteError::Invalid(text) => write!(f, "the rewritten config does not validate: {text}"),
        }
    }
}

impl std::error::Error for RewriteError {}

/// Rewrites a merged config (the bytes `talosctl machineconfig patch` writes, as
/// `options.from` merges them) for `options.to`. Running it on its own output changes nothing.
///
/// ```
/// use talos_config::upgrade::{RewriteError, UpgradeOptions, rewrite};
/// use talos_config::Release;
///
/// let config = b"version: v1alpha1\nmachine:\n  type: worker\n---\napiVersion: v1alpha1\nkind: KubeletConfig\nimage: ghcr.io/siderolabs/kubelet:v1.37.0\n";
/// let back = UpgradeOptions { from: Release::V1_14_0_RC1, to: Release::V1_13_9, ..UpgradeOptions::default() };
/// let Err(RewriteError::Unexpressible(found)) = rewrite(config, &back) else { panic!() };
/// assert_eq!(found[0].message(), "Talos v1.13.9 has no KubeletConfig document");
/// ```
pub fn rewrite(merged: &[u8], options: &UpgradeOptions) -> Result<Rewritten, RewriteError> {
    Config::from_bytes_for(merged, options.from).map_err(RewriteError::Load)?;
    let unknown = super::unknown::find(merged, options.to);
    if !unknown.is_empty() {
        return Err(RewriteError::Unexpressible(unknown));
    }
    let roots = talos_yaml::parse::parse_documents(merged).map_err(|e| RewriteError::Invalid(e.to_string()))?;
    let (roots, moves) = match legacy_index(&roots).filter(|_| has_kubernetes_documents(options.to)) {
        Some(index) => move_settings(roots, index, options.to),
        None => (roots, Vec::new()),
    };
    let text: Vec<String> = roots.iter().map(talos_yaml::emit_v4::emit_v4).collect();
    let config = Config::from_bytes_for(text.join("---\n").as_bytes(), options.to)
        .map_err(|e| RewriteError::Invalid(e.to_string()))?;
    check_valid(merged, &config, options)?;
    Ok(Rewritten { bytes: config.encode().into_bytes(), moves })
}

/// The rewrite must validate on the target release wherever the original does.
fn check_valid(merged: &[u8], rewritten: &Config, options: &UpgradeOptions) -> Result<(), RewriteError> {
    let validation = crate::Options::default();
    let Some(error) = rewritten.validate(options.mode, validation).error else {
        return Ok(());
    };
    let original = Config::from_bytes_for(merged, options.to).map(|c| c.validate(options.mode, validation));
    match original {
        Ok(report) if report.error.is_none() => Err(RewriteError::Invalid(error.to_string())),
        _ => Ok(()),
    }
}

/// The settings of a merged config that the target release reads from documents of their own
/// (none before v1.14), moved or kept as [`rewrite`] would.
pub(super) fn moves(merged: &[u8], to: Release) -> Vec<Move> {
    let Ok(roots) = talos_yaml::parse::parse_documents(merged) else {
        return Vec::new();
    };
    match legacy_index(&roots).filter(|_| has_kubernetes_documents(to)) {
        Some(index) => move_settings(roots, index, to).1,
        None => Vec::new(),
    }
}

/// Whether `release` has the Kubernetes documents (v1.14 on).
fn has_kubernetes_documents(release: Release) -> bool {
    crate::model::registry::lookup_for("KubeletConfig", release).is_some()
}

fn legacy_index(roots: &[Node]) -> Option<usize> {
    roots.iter().position(|root| crate::provenance::document_id(root).is_legacy())
}

/// Moves every group it can; returns the documents (the v1alpha1 one changed, the new ones
/// appended) and every setting with what happened to it.
fn move_settings(mut roots: Vec<Node>, index: usize, to: Release) -> (Vec<Node>, Vec<Move>) {
    let legacy = roots[index].clone();
    let machine_type = tree::text(&legacy, &["machine", "type"]).unwrap_or_default();
    let cx = Cx {
        legacy: &legacy,
        control_plane: matches!(machine_type, "controlplane" | "init"),
        kubernetes: to.rules().default_kubernetes,
    };
    let kinds: Vec<String> = roots.iter().map(|r| crate::provenance::document_id(r).kind().to_string()).collect();
    let mut moves = Vec::new();
    let mut added = Vec::new();
    for group in GROUPS.iter().filter(|g| g.settings.iter().any(|(path, ..)| present(&cx, path))) {
        let plan = plan(&cx, group, &kinds);
        let kept = match plan {
            Plan::Move { documents, removals } => {
                for path in removals {
                    tree::remove(&mut roots[index], &keys(path));
                }
                added.extend(documents);
                None
            }
            Plan::Keep(reason) => Some(reason),
        };
        moves.extend(group.settings.iter().filter(|(path, ..)| present(&cx, path)).map(|(path, kind, field)| Move {
            setting: FieldPath::parse(path),
            kind: kind.to_string(),
            field: field.to_string(),
            kept: kept.clone(),
        }));
    }
    roots.extend(added);
    (roots, moves)
}

/// The group's plan, unless the machine may not hold its documents or has one already.
fn plan(cx: &Cx, group: &Group, kinds: &[String]) -> Plan {
    let kind = group.settings[0].1;
    if group.control_plane_only && !cx.control_plane {
        return Plan::Keep(format!("only control planes read it: a worker may not hold a {kind} document"));
    }
    if let Some((_, existing, _)) = group.settings.iter().find(|(_, k, _)| kinds.iter().any(|have| have == k)) {
        return Plan::Keep(format!("the config already has a {existing} document"));
    }
    (group.plan)(cx)
}

/// The diagnostics of [`moves`] for [`super::upgrade`]: one `upgrade-moves` info per setting,
/// at the v1alpha1 field.
pub(super) fn diagnostics(moves: &[Move], to: Release) -> Vec<Diagnostic> {
    moves
        .iter()
        .map(|m| {
            let field = match m.field.strip_prefix('(') {
                Some(note) => format!(", which has no field for it ({note}"),
                None => format!(" ({})", m.field),
            };
            let message = format!(
                "on Talos {to} this setting belongs in a {} document{field}; the v1alpha1 document still works",
                m.kind
            );
            let fix = match &m.kept {
                None => "`labctl upgrade --rewrite` moves it".to_string(),
                Some(reason) => format!("`labctl upgrade --rewrite` leaves it here: {reason}"),
            };
            Diagnostic::new(super::MOVES_RULE, crate::Severity::Info, message)
                .at(DocumentId::legacy(), Some(m.setting.clone()))
                .with_fix(fix)
        })
        .collect()
}
