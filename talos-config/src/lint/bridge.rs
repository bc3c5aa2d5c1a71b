//! Where each Kubernetes setting the rules read is kept: from v1.14 its dedicated document when
//! the config has one (Talos's container prefers it: `v1alpha1_k8s_bridge.go`), else the v1alpha1
//! document, as before. Each view says which document and field it read, so that a finding
//! points at the value the user wrote.

use std::collections::BTreeMap;

use super::cx::Cx;
use crate::model::k8s::{
    KubeApiServerConfig, KubeControllerManagerConfig, KubeNodeConfig, KubeProxyConfig, KubeSchedulerConfig,
    KubeletConfig,
};
use crate::model::v1alpha1::Args;
use crate::{DocumentId, FieldPath};

/// A value and where it is: its document and its field.
pub(super) struct Held<'a, T: ?Sized> {
    pub(super) document: DocumentId,
    pub(super) path: FieldPath,
    pub(super) value: &'a T,
}

impl<'a, T: ?Sized> Held<'a, T> {
    fn legacy(path: &str, value: &'a T) -> Held<'a, T> {
        Held { document: DocumentId::legacy(), path: FieldPath::parse(path), value }
    }

    fn in_document(doc: &dyn crate::document::Document, path: &str, value: &'a T) -> Held<'a, T> {
        Held { document: DocumentId::of(doc), path: FieldPath::parse(path), value }
    }
}

/// The kubelet's image and extra arguments: a KubeletConfig document, else `machine.kubelet`.
pub(super) fn kubelet<'a>(cx: &Cx<'a>) -> Option<(Held<'a, str>, Held<'a, Args>)> {
    if let Some(doc) = cx.config.get::<KubeletConfig>() {
        return Some((
            Held::in_document(doc, "image", doc.image.as_str()),
            Held::in_document(doc, "extraArgs", &doc.extra_args),
        ));
    }
    let kubelet = cx.legacy()?.machine.as_ref()?.kubelet.as_ref()?;
    Some((
        Held::legacy("machine.kubelet.image", kubelet.image.as_str()),
        Held::legacy("machine.kubelet.extraArgs", &kubelet.extra_args),
    ))
}

/// The control plane components' extra arguments, in the order API server, controller manager,
/// scheduler, proxy, etcd (`None` where the config sets none); each from its document when
/// there is one (etcd has none).
pub(super) fn component_args<'a>(cx: &Cx<'a>) -> [Option<Held<'a, Args>>; 5] {
    let cluster = cx.legacy().and_then(|c| c.cluster.as_ref());
    let legacy = |path: &str, args: Option<&'a Args>| args.map(|a| Held::legacy(path, a));
    let api_server = match cx.config.get::<KubeApiServerConfig>() {
        Some(doc) => Some(Held::in_document(doc, "extraArgs", &doc.extra_args)),
        None => {
            legacy("cluster.apiServer.extraArgs", cluster.and_then(|c| c.api_server.as_ref()).map(|a| &a.extra_args))
        }
    };
    let controller_manager = match cx.config.get::<KubeControllerManagerConfig>() {
        Some(doc) => Some(Held::in_document(doc, "extraArgs", &doc.extra_args)),
        None => legacy(
            "cluster.controllerManager.extraArgs",
            cluster.and_then(|c| c.controller_manager.as_ref()).map(|a| &a.extra_args),
        ),
    };
    let scheduler = match cx.config.get::<KubeSchedulerConfig>() {
        Some(doc) => Some(Held::in_document(doc, "extraArgs", &doc.extra_args)),
        None => {
            legacy("cluster.scheduler.extraArgs", cluster.and_then(|c| c.scheduler.as_ref()).map(|a| &a.extra_args))
        }
    };
    let proxy = match cx.config.get::<KubeProxyConfig>() {
        Some(doc) => Some(Held::in_document(doc, "extraArgs", &doc.extra_args)),
        None => legacy("cluster.proxy.extraArgs", cluster.and_then(|c| c.proxy.as_ref()).map(|a| &a.extra_args)),
    };
    let etcd = legacy("cluster.etcd.extraArgs", cluster.and_then(|c| c.etcd.as_ref()).map(|a| &a.extra_args));
    [api_server, controller_manager, scheduler, proxy, etcd]
}

/// A string map and where it is (node labels, taints).
pub(super) type HeldMap<'a> = Held<'a, BTreeMap<String, String>>;

/// The node's labels and taints: a KubeNodeConfig document, else `machine.nodeLabels` and
/// `machine.nodeTaints`.
pub(super) fn node_labels_and_taints<'a>(cx: &Cx<'a>) -> Option<(HeldMap<'a>, HeldMap<'a>)> {
    if let Some(doc) = cx.config.get::<KubeNodeConfig>() {
        return Some((Held::in_document(doc, "labels", &doc.labels), Held::in_document(doc, "taints", &doc.taints)));
    }
    let machine = cx.legacy()?.machine.as_ref()?;
    Some((
        Held::legacy("machine.nodeLabels", &machine.node_labels),
        Held::legacy("machine.nodeTaints", &machine.node_taints),
    ))
}

/// The API server certificate's extra names: a KubeAPIServerConfig's `certExtraSANs`, else
/// `cluster.apiServer.certSANs`.
pub(super) fn api_server_sans<'a>(cx: &Cx<'a>) -> Option<Held<'a, Vec<String>>> {
    if let Some(doc) = cx.config.get::<KubeApiServerConfig>() {
        return Some(Held::in_document(doc, "certExtraSANs", &doc.cert_extra_sans));
    }
    let api_server = cx.legacy()?.cluster.as_ref()?.api_server.as_ref()?;
    Some(Held::legacy("cluster.apiServer.certSANs", &api_server.cert_sans))
}
