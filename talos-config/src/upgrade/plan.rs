//! What a group of settings does in the rewrite ([`Plan`]), what it reads ([`Cx`]), and the
//! readers the groups share.

use talos_yaml::Node;

use crate::yaml_tree::{get, mapping, pem, string, text};

/// What the groups read.
pub(super) struct Cx<'a> {
    /// The v1alpha1 document.
    pub legacy: &'a Node,
    /// Whether the machine is a control plane (`controlplane` or `init`).
    pub control_plane: bool,
    /// The target release's default Kubernetes version (`1.37.0-rc.0`): what an empty image
    /// means to Talos.
    pub kubernetes: &'static str,
}

/// What the rewrite does with a group.
pub(super) enum Plan {
    /// Write these documents and take these v1alpha1 settings out.
    Move { documents: Vec<Node>, removals: Vec<&'static str> },
    /// Leave the v1alpha1 settings where they are, for this reason.
    Keep(String),
}

/// The dotted path as keys.
pub(super) fn keys(path: &str) -> Vec<&str> {
    path.split('.').collect()
}

/// Whether the v1alpha1 document holds the setting.
pub(super) fn present(cx: &Cx, path: &str) -> bool {
    get(cx.legacy, &keys(path)).is_some()
}

/// The setting's value, cloned, when present.
pub(super) fn value(cx: &Cx, path: &str) -> Option<Node> {
    get(cx.legacy, &keys(path)).cloned()
}

/// `image` as Talos reads it: the value, else the target release's default for `repository`.
pub(super) fn image(cx: &Cx, path: &str, repository: &str) -> Node {
    match text(cx.legacy, &keys(path)).filter(|t| !t.is_empty()) {
        Some(image) => string(image),
        None => string(&format!("{repository}:v{}", cx.kubernetes)),
    }
}

/// The PEM certificate and key of a v1alpha1 pair at `path`, as a document's `issuingCA`.
pub(super) fn issuing_ca(cx: &Cx, path: &str) -> Option<Node> {
    let cert = pem(cx.legacy, &keys(&format!("{path}.crt")))?;
    let key = pem(cx.legacy, &keys(&format!("{path}.key")))?;
    Some(mapping(vec![("cert", string(&cert)), ("key", string(&key))]))
}
