//! The rewrite of the cluster-wide Kubernetes settings (`cluster.*` of the v1alpha1 document):
//! identity and endpoint, network, CAs, the control plane's components, manifests and static
//! pods.

use talos_yaml::{Node, NodeValue};

use super::plan::{Cx, Plan, image, issuing_ca, keys, present, value};
use crate::yaml_tree::{self as tree, get, is_set, is_true, mapping, pem, plain, string, text};

pub(super) fn cluster(cx: &Cx) -> Plan {
    let Some(endpoint) = text(cx.legacy, &keys("cluster.controlPlane.endpoint")) else {
        return Plan::Keep(
            "without cluster.controlPlane.endpoint Talos v1.14 reads no cluster name from this config".into(),
        );
    };
    if is_set(cx.legacy, &keys("cluster.controlPlane.localAPIServerPort")) {
        return Plan::Keep("cluster.controlPlane.localAPIServerPort belongs in a KubeAPIServerConfig document, which the rewrite does not write".into());
    }
    let Some(name) = text(cx.legacy, &keys("cluster.clusterName")).filter(|n| !n.is_empty()) else {
        return Plan::Keep("a KubeClusterConfig document needs a cluster name, which this config does not set".into());
    };
    let mut documents =
        vec![tree::document("KubeClusterConfig", vec![("clusterName", string(name)), ("endpoint", string(endpoint))])];
    let mut removals = vec!["cluster.clusterName", "cluster.controlPlane"];
    // The v1alpha1 service account reads the endpoint: it moves with it.
    if present(cx, "cluster.serviceAccount") && cx.control_plane {
        let Some(key) = pem(cx.legacy, &keys("cluster.serviceAccount.key")) else {
            return Plan::Keep("cluster.serviceAccount.key is not a base64 PEM key".into());
        };
        let issuer = mapping(vec![("privateKey", string(&key)), ("issuerURL", string(endpoint))]);
        documents.push(tree::document("KubeServiceAccountConfig", vec![("issuer", issuer)]));
        removals.push("cluster.serviceAccount");
    }
    Plan::Move { documents, removals }
}

pub(super) fn network(cx: &Cx) -> Plan {
    let flannel = match text(cx.legacy, &keys("cluster.network.cni.name")) {
        None => get(cx.legacy, &keys("cluster.network.cni")).is_none(),
        Some(name) => name == "flannel",
    };
    if is_set(cx.legacy, &keys("cluster.network.cni.urls")) {
        return Plan::Keep("the CNI's manifest URLs would become KubeExternalManifestConfig documents with new names (their resource IDs and apply order would change)".into());
    }
    if flannel && !cx.control_plane {
        return Plan::Keep(
            "a worker's flannel settings have no document (KubeFlannelCNIConfig is for control planes only)".into(),
        );
    }
    let subnets = |path: &str, default: &str| {
        value(cx, path)
            .filter(|v| v.as_sequence().is_some_and(|s| !s.is_empty()))
            .unwrap_or_else(|| Node::sequence(vec![string(default)]))
    };
    let domain =
        text(cx.legacy, &keys("cluster.network.dnsDomain")).filter(|d| !d.is_empty()).unwrap_or("cluster.local");
    let mut documents = vec![tree::document(
        "KubeNetworkConfig",
        vec![
            ("dnsDomain", string(domain)),
            ("podSubnets", subnets("cluster.network.podSubnets", "10.244.0.0/16")),
            ("serviceSubnets", subnets("cluster.network.serviceSubnets", "10.96.0.0/12")),
        ],
    )];
    if flannel {
        let mut fields = vec![("backendType", string("vxlan")), ("backendPort", plain("4789"))];
        for field in ["extraArgs", "kubeNetworkPoliciesEnabled"] {
            if let Some(v) = value(cx, &format!("cluster.network.cni.flannel.{field}")) {
                fields.push((field, v));
            }
        }
        documents.push(tree::document("KubeFlannelCNIConfig", fields));
    }
    Plan::Move { documents, removals: vec!["cluster.network"] }
}

pub(super) fn api_server_ca(cx: &Cx) -> Plan {
    let mut accepted = Vec::new();
    let issuing = match pem(cx.legacy, &keys("cluster.ca.key")) {
        Some(_) => issuing_ca(cx, "cluster.ca"),
        None => {
            accepted.extend(pem(cx.legacy, &keys("cluster.ca.crt")).map(|c| string(&c)));
            None
        }
    };
    for item in get(cx.legacy, &keys("cluster.acceptedCAs")).and_then(Node::as_sequence).unwrap_or_default() {
        match pem(item, &["crt"]) {
            Some(cert) => accepted.push(string(&cert)),
            None => return Plan::Keep("an entry of cluster.acceptedCAs is not a base64 PEM certificate".into()),
        }
    }
    let mut fields = Vec::new();
    if let Some(issuing) = issuing {
        fields.push(("issuingCA", issuing));
    }
    if !accepted.is_empty() {
        fields.push(("acceptedCAs", Node::sequence(accepted)));
    }
    Plan::Move {
        documents: vec![tree::document("KubeAPIServerCAConfig", fields)],
        removals: vec!["cluster.ca", "cluster.acceptedCAs"],
    }
}

pub(super) fn aggregator_ca(cx: &Cx) -> Plan {
    match issuing_ca(cx, "cluster.aggregatorCA") {
        Some(issuing) => Plan::Move {
            documents: vec![tree::document("KubeAggregatorCAConfig", vec![("issuingCA", issuing)])],
            removals: vec!["cluster.aggregatorCA"],
        },
        None => Plan::Keep("a KubeAggregatorCAConfig document needs the CA's certificate and key, which cluster.aggregatorCA does not both hold".into()),
    }
}

/// A control plane component (`controllerManager`, `scheduler`): its section of `cluster`,
/// its switch under `machine.controlPlane`, the fields it copies.
fn component(cx: &Cx, name: &'static str, kind: &str, repository: &str, copied: &[&str]) -> Plan {
    if is_set(cx.legacy, &keys(&format!("cluster.{name}.extraVolumes"))) {
        return Plan::Keep(format!("cluster.{name}.extraVolumes has no place in a {kind} document"));
    }
    let mut fields = Vec::new();
    if is_true(cx.legacy, &keys(&format!("machine.controlPlane.{name}.disabled"))) {
        fields.push(("enabled", plain("false")));
    }
    fields.push(("image", image(cx, &format!("cluster.{name}.image"), repository)));
    for &field in copied {
        if let Some(v) = value(cx, &format!("cluster.{name}.{field}")) {
            fields.push((field, v));
        }
    }
    let removals = match name {
        "controllerManager" => vec!["cluster.controllerManager", "machine.controlPlane.controllerManager"],
        _ => vec!["cluster.scheduler", "machine.controlPlane.scheduler"],
    };
    Plan::Move { documents: vec![tree::document(kind, fields)], removals }
}

pub(super) fn controller_manager(cx: &Cx) -> Plan {
    let repository = "registry.k8s.io/kube-controller-manager";
    component(cx, "controllerManager", "KubeControllerManagerConfig", repository, &["extraArgs", "env", "resources"])
}

pub(super) fn scheduler(cx: &Cx) -> Plan {
    let repository = "registry.k8s.io/kube-scheduler";
    component(cx, "scheduler", "KubeSchedulerConfig", repository, &["extraArgs", "env", "resources", "config"])
}

pub(super) fn core_dns(cx: &Cx) -> Plan {
    let mut fields = Vec::new();
    if is_true(cx.legacy, &keys("cluster.coreDNS.disabled")) {
        fields.push(("enabled", plain("false")));
    }
    if let Some(image) = text(cx.legacy, &keys("cluster.coreDNS.image")).filter(|i| !i.is_empty()) {
        fields.push(("image", string(image)));
    }
    Plan::Move { documents: vec![tree::document("KubeCoreDNSConfig", fields)], removals: vec!["cluster.coreDNS"] }
}

pub(super) fn inline_manifests(cx: &Cx) -> Plan {
    let mut documents = Vec::new();
    for item in get(cx.legacy, &keys("cluster.inlineManifests")).and_then(Node::as_sequence).unwrap_or_default() {
        let name = text(item, &["name"]).unwrap_or_default();
        if !dns_subdomain(name) {
            return Plan::Keep(format!(
                "the inline manifest name {name:?} is not a DNS-1123 subdomain, which a KubeInlineManifestConfig document needs"
            ));
        }
        let contents = text(item, &["contents"]).unwrap_or_default();
        documents.push(tree::document(
            "KubeInlineManifestConfig",
            vec![("name", string(name)), ("manifest", string(contents))],
        ));
    }
    Plan::Move { documents, removals: vec!["cluster.inlineManifests"] }
}

pub(super) fn static_pods(cx: &Cx) -> Plan {
    let mut documents = Vec::new();
    let mut names = Vec::new();
    for pod in get(cx.legacy, &keys("machine.pods")).and_then(Node::as_sequence).unwrap_or_default() {
        let part = |key: &str| match get(pod, &["metadata", key]).map(|n| &n.value) {
            Some(NodeValue::Scalar(s)) if !s.text.is_empty() => s.text.clone(),
            _ => "default".to_string(),
        };
        let name = format!("{}-{}", part("namespace"), part("name"));
        if !dns_subdomain(&name) || names.contains(&name) {
            return Plan::Keep(format!(
                "the static pod {name:?} cannot be a KubeStaticPodConfig document (its name must be a unique DNS-1123 subdomain)"
            ));
        }
        documents.push(tree::document("KubeStaticPodConfig", vec![("name", string(&name)), ("pod", pod.clone())]));
        names.push(name);
    }
    Plan::Move { documents, removals: vec!["machine.pods"] }
}

/// A DNS-1123 subdomain: lowercase alphanumerics, `-` and `.`, at most 253 characters,
/// starting and ending with an alphanumeric.
fn dns_subdomain(name: &str) -> bool {
    let alnum = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    !name.is_empty()
        && name.len() <= 253
        && name.chars().all(|c| alnum(c) || c == '-' || c == '.')
        && name.starts_with(alnum)
        && name.ends_with(alnum)
}
