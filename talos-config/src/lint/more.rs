//! The rules about what Talos v1.13.9 does with a value at runtime (each rule's `why` in
//! [`rules`](super::rules) says it): control-plane extraArgs deny-lists, node labels under NodeRestriction, user
//! files, certificate SANs, and v1alpha1 settings a new-style document overrides.

use super::cx::{Cx, finding, finding_in, path};
use super::{Finding, bridge};
use crate::FieldPath;
use crate::Severity;
use crate::gofmt::quote;

// ---------------------------------------------------------------------------------------------
// extra-args-denied

/// The keys Talos v1.13.9 refuses per component, and the resource its error names.
const DENIED: [(&str, &[&str], &str); 5] = [
    (
        "cluster.apiServer.extraArgs",
        &[
            "etcd-servers",
            "client-ca-file",
            "requestheader-client-ca-file",
            "proxy-client-cert-file",
            "proxy-client-key-file",
            "encryption-provider-config",
            "etcd-cafile",
            "etcd-certfile",
            "etcd-keyfile",
            "kubelet-client-certificate",
            "kubelet-client-key",
            "service-account-key-file",
            "service-account-signing-key-file",
            "tls-cert-file",
            "tls-private-key-file",
            "authorization-config",
        ],
        "the API server's static pod is not updated (`error updating static pod for \"APIServerConfigs.kubernetes.talos.dev\"`)",
    ),
    (
        "cluster.controllerManager.extraArgs",
        &[
            "cluster-signing-cert-file",
            "cluster-signing-key-file",
            "authentication-kubeconfig",
            "authorization-kubeconfig",
            "root-ca-file",
            "service-account-private-key-file",
        ],
        "the controller manager's static pod is not updated (`error updating static pod for \"ControllerManagerConfigs.kubernetes.talos.dev\"`)",
    ),
    (
        "cluster.scheduler.extraArgs",
        &["kubeconfig", "authentication-kubeconfig", "authorization-kubeconfig", "config"],
        "the scheduler's static pod is not updated (`error updating static pod for \"SchedulerConfigs.kubernetes.talos.dev\"`)",
    ),
    ("cluster.proxy.extraArgs", &["kubeconfig"], "the bootstrap manifests (kube-proxy included) are not rendered"),
    (
        "cluster.etcd.extraArgs",
        &[
            "name",
            "auto-tls",
            "peer-auto-tls",
            "data-dir",
            "listen-peer-urls",
            "listen-client-urls",
            "client-cert-auth",
            "cert-file",
            "key-file",
            "trusted-ca-file",
            "peer-client-cert-auth",
            "peer-cert-file",
            "peer-key-file",
            "peer-trusted-ca-file",
            "experimental-initial-corrupt-check",
            "experimental-watch-progress-notify-interval",
            "experimental-compact-hash-check-enabled",
        ],
        "etcd does not start",
    ),
];

pub(super) fn extra_args_denied(cx: &Cx<'_>, out: &mut Vec<Finding>) {
    for ((_, denied, consequence), args) in DENIED.iter().zip(bridge::component_args(cx)) {
        let Some(args) = args else { continue };
        for key in args.value.0.keys().filter(|k| denied.contains(&k.as_str())) {
            let mut f = finding_in(
                "extra-args-denied",
                Severity::Error,
                format!(
                    "extra arg {} is not allowed: Talos accepts the config, then {consequence} and retries forever",
                    quote(key)
                ),
                args.document.clone(),
                args.path.key(key.as_str()),
            );
            f.suggestion = Some("remove the key; Talos sets this flag itself".to_string());
            out.push(f);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// node-label-restricted

/// `k8s.io/kubelet/pkg/apis` `kubeletLabels`: the Kubernetes-namespaced keys a kubelet may set.
const KUBELET_LABELS: [&str; 11] = [
    "kubernetes.io/hostname",
    "topology.kubernetes.io/zone",
    "topology.kubernetes.io/region",
    "failure-domain.beta.kubernetes.io/zone",
    "failure-domain.beta.kubernetes.io/region",
    "beta.kubernetes.io/instance-type",
    "node.kubernetes.io/instance-type",
    "kubernetes.io/os",
    "kubernetes.io/arch",
    "beta.kubernetes.io/os",
    "beta.kubernetes.io/arch",
];

/// `kubeletLabelNamespaces`: namespaces (and their subdomains) a kubelet may set.
const KUBELET_NAMESPACES: [&str; 2] = ["kubelet.kubernetes.io", "node.kubernetes.io"];

/// Whether `namespace` is `domain` or a subdomain of it.
fn in_domain(namespace: &str, domain: &str) -> bool {
    namespace == domain || namespace.strip_suffix(domain).is_some_and(|rest| rest.ends_with('.'))
}

/// NodeRestriction's `getForbiddenLabels` for one key a node adds.
fn forbidden_for_node(key: &str) -> bool {
    let Some((namespace, _)) = key.split_once('/') else { return false };
    if in_domain(namespace, "node-restriction.kubernetes.io") {
        return true;
    }
    let kubernetes = in_domain(namespace, "kubernetes.io") || in_domain(namespace, "k8s.io");
    let kubelet_label = KUBELET_LABELS.contains(&key) || KUBELET_NAMESPACES.iter().any(|d| in_domain(namespace, d));
    kubernetes && !kubelet_label
}

const WHOLE_UPDATE: &str = "the Node update is refused as a whole, so none of this node's labels, annotations or taints are applied, and Talos logs `controller failed` (k8s.NodeApplyController) over and over";

pub(super) fn node_labels(cx: &Cx<'_>, out: &mut Vec<Finding>) {
    let Some(machine) = cx.legacy().and_then(|c| c.machine.as_ref()) else { return };
    // Talos treats every type other than the control plane's (`join`, empty) as a worker.
    if matches!(machine.r#type.as_str(), "controlplane" | "init") {
        return;
    }
    let Some((labels, taints)) = bridge::node_labels_and_taints(cx) else { return };
    for key in labels.value.keys().filter(|k| forbidden_for_node(k)) {
        let mut f = finding_in(
            "node-label-restricted",
            Severity::Error,
            format!(
                "a worker may not set the label {}: Talos applies it with the kubelet's identity and NodeRestriction refuses it (`is not allowed to modify labels: {key}`); {WHOLE_UPDATE}",
                quote(key)
            ),
            labels.document.clone(),
            labels.path.key(key.as_str()),
        );
        f.suggestion = Some(format!(
            "use a label outside kubernetes.io and k8s.io (or under node.kubernetes.io/), or set it once as a cluster admin (`kubectl label node <node> {key}=<value>`): Talos then adopts it"
        ));
        out.push(f);
    }
    for key in taints.value.keys() {
        let mut f = finding_in(
            "node-label-restricted",
            Severity::Error,
            format!(
                "a worker may not set the taint {}: NodeRestriction refuses any taint change by a node (`is not allowed to modify taints`); {WHOLE_UPDATE}",
                quote(key)
            ),
            taints.document.clone(),
            taints.path.key(key.as_str()),
        );
        f.suggestion =
            Some(format!("taint the node as a cluster admin instead (`kubectl taint node <node> {key}=...`)"));
        out.push(f);
    }
}

// ---------------------------------------------------------------------------------------------
// files

/// The CRI customization part, written through Talos's own resource rather than as a file.
const CRI_PART: &str = "/etc/cri/conf.d/20-customization.part";

const BOOT_FAILS: &str =
    "the node stops its boot (`writeUserFiles failed, rebooting in 35 minutes`) and reboots in a loop";

pub(super) fn files(cx: &Cx<'_>, out: &mut Vec<Finding>) {
    let Some(machine) = cx.legacy().and_then(|c| c.machine.as_ref()) else { return };
    for (i, file) in machine.files.iter().enumerate() {
        let Some(file) = file else { continue };
        let here = path("machine.files").index(i);
        let mut push = |field: &str, message: String, fix: &str| {
            let mut f = finding("files", Severity::Error, message, here.key(field));
            f.suggestion = Some(fix.to_string());
            out.push(f);
        };
        if !matches!(file.op.as_str(), "create" | "append" | "overwrite") {
            push(
                "op",
                format!("unknown operation for file {}: {}: {BOOT_FAILS}", quote(&file.path), quote(&file.op)),
                "set `op` to create, append or overwrite",
            );
            continue;
        }
        if !file.path.starts_with('/') {
            let mut f = finding(
                "files",
                Severity::Warning,
                format!(
                    "file path {} is not absolute: Talos does not resolve it against `/`, so the file lands wherever machined's working directory is",
                    quote(&file.path)
                ),
                here.key("path"),
            );
            f.suggestion = Some("use an absolute path (under /var for `create`)".to_string());
            out.push(f);
            continue;
        }
        let in_var = file.path.trim_start_matches('/').split('/').next() == Some("var");
        let manifest =
            std::path::Path::new(&file.path).parent() == Some(std::path::Path::new("/etc/kubernetes/manifests"));
        if file.op == "create" && !in_var && !manifest && file.path != CRI_PART {
            push(
                "path",
                format!("create operation not allowed outside of /var: {}: {BOOT_FAILS}", quote(&file.path)),
                "create the file under /var, or use `append`/`overwrite` on a file the system already has",
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// endpoint-certsans

/// Why a SAN entry can never match a host name, if it cannot.
fn bad_san(san: &str) -> Option<&'static str> {
    if san.contains("://") {
        Some("is a URL")
    } else if san.chars().any(char::is_whitespace) {
        Some("contains a space")
    } else if san.parse::<std::net::IpAddr>().is_err() && san.contains(':') {
        Some("has a port")
    } else if san.contains('/') {
        Some("has a path")
    } else if !san.is_ascii() {
        Some("is not ASCII (write an internationalized name in its xn-- form)")
    } else {
        None
    }
}

pub(super) fn cert_sans(cx: &Cx<'_>, out: &mut Vec<Finding>) {
    let machine = cx.legacy().and_then(|c| c.machine.as_ref()).map(|m| bridge::Held {
        document: crate::DocumentId::legacy(),
        path: path("machine.certSANs"),
        value: &m.cert_sans,
    });
    for list in [machine, bridge::api_server_sans(cx)].into_iter().flatten() {
        for (i, san) in list.value.iter().enumerate() {
            let Some(why) = bad_san(san) else { continue };
            let mut f = finding_in(
                "endpoint-certsans",
                Severity::Warning,
                format!(
                    "certificate SAN {} {why}: Talos puts it in the certificate as a DNS name, which no client host ever matches",
                    quote(san)
                ),
                list.document.clone(),
                list.path.index(i),
            );
            f.suggestion = Some("list the bare host name or IP address".to_string());
            out.push(f);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// superseded-setting

/// New-style kinds named after the link they configure.
const LINK_KINDS: [&str; 7] =
    ["LinkConfig", "BondConfig", "BridgeConfig", "VLANConfig", "DummyLinkConfig", "DHCPv4Config", "DHCPv6Config"];

/// A link setting both a v1alpha1 interface entry and a new-style link document can hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LinkSetting {
    Mtu,
    Addresses,
    Routes,
    Bond,
    Bridge,
    Dummy,
    Dhcp,
}

/// What an interface entry sets, each with the entry's key for it, in the entry's key order.
fn interface_settings(dev: &crate::model::v1alpha1::Device) -> Vec<(LinkSetting, &'static str)> {
    let mut out = Vec::new();
    if !dev.addresses.is_empty() {
        out.push((LinkSetting::Addresses, "addresses"));
    } else if !dev.cidr.is_empty() {
        out.push((LinkSetting::Addresses, "cidr"));
    }
    if !dev.routes.is_empty() {
        out.push((LinkSetting::Routes, "routes"));
    }
    if dev.bond.is_some() {
        out.push((LinkSetting::Bond, "bond"));
    }
    if dev.bridge.is_some() {
        out.push((LinkSetting::Bridge, "bridge"));
    }
    if dev.mtu != 0 {
        out.push((LinkSetting::Mtu, "mtu"));
    }
    if dev.dhcp == Some(true) {
        out.push((LinkSetting::Dhcp, "dhcp"));
    }
    if dev.dummy == Some(true) {
        out.push((LinkSetting::Dummy, "dummy"));
    }
    out
}

/// What the new-style document of `kind` named `name` sets for its link.
fn link_document_settings(config: &crate::Config, kind: &str, name: &str) -> Vec<LinkSetting> {
    use crate::model::network::{BondConfig, BridgeConfig, DummyLinkConfig, LinkConfig, VlanConfig};
    let common = |c: &crate::model::network::CommonLinkConfig| {
        let mut out = Vec::new();
        if c.mtu != 0 {
            out.push(LinkSetting::Mtu);
        }
        if !c.addresses.is_empty() {
            out.push(LinkSetting::Addresses);
        }
        if !c.routes.is_empty() {
            out.push(LinkSetting::Routes);
        }
        out
    };
    let with = |mut out: Vec<LinkSetting>, extra: LinkSetting| {
        out.push(extra);
        out
    };
    match kind {
        "LinkConfig" => config.all::<LinkConfig>().find(|d| d.name == name).map(|d| common(&d.common)),
        "BondConfig" => {
            config.all::<BondConfig>().find(|d| d.name == name).map(|d| with(common(&d.common), LinkSetting::Bond))
        }
        "BridgeConfig" => {
            config.all::<BridgeConfig>().find(|d| d.name == name).map(|d| with(common(&d.common), LinkSetting::Bridge))
        }
        "VLANConfig" => config.all::<VlanConfig>().find(|d| d.name == name).map(|d| common(&d.common)),
        "DummyLinkConfig" => config
            .all::<DummyLinkConfig>()
            .find(|d| d.name == name)
            .map(|d| with(common(&d.common), LinkSetting::Dummy)),
        "DHCPv4Config" | "DHCPv6Config" => Some(vec![LinkSetting::Dhcp]),
        _ => None,
    }
    .unwrap_or_default()
}

pub(super) fn superseded(cx: &Cx<'_>, out: &mut Vec<Finding>) {
    let Some(machine) = cx.legacy().and_then(|c| c.machine.as_ref()) else { return };
    let docs: Vec<(&str, &str)> = cx.config.docs().map(|d| (d.kind(), d.name())).collect();
    let named =
        |kinds: &[&str], name: &str| docs.iter().find(|(k, n)| kinds.contains(k) && *n == name).map(|(k, _)| *k);
    let mut push = |here: FieldPath, message: String| {
        let mut f = finding("superseded-setting", Severity::Warning, message, here);
        f.suggestion = Some("keep the setting in the new-style document only, and remove it here".to_string());
        out.push(f);
    };
    if let Some(network) = &machine.network {
        for (i, dev) in network.interfaces.0.iter().enumerate() {
            let Some(dev) = dev.as_ref().filter(|d| !d.interface.is_empty()) else { continue };
            let Some(kind) = named(&LINK_KINDS, &dev.interface) else { continue };
            // Only what both set: a document that configures other things of the link
            // supersedes nothing here.
            let theirs = link_document_settings(cx.config, kind, &dev.interface);
            let both: Vec<&str> =
                interface_settings(dev).into_iter().filter(|s| theirs.contains(&s.0)).map(|s| s.1).collect();
            let Some(first) = both.first() else { continue };
            let fields = both.iter().map(|f| format!("`{f}`")).collect::<Vec<_>>().join(", ");
            push(
                path("machine.network.interfaces").index(i).key(*first),
                format!(
                    "link {}: {fields} also set by {kind} {}, which Talos applies after this entry and which wins",
                    quote(&dev.interface),
                    quote(&dev.interface)
                ),
            );
        }
    }
    for name in machine.registries.mirrors.keys() {
        if named(&["RegistryMirrorConfig"], name).is_some() {
            push(
                path("machine.registries.mirrors").key(name.as_str()),
                format!(
                    "registry mirror {} is replaced as a whole by the RegistryMirrorConfig of the same name",
                    quote(name)
                ),
            );
        }
    }
    for name in machine.registries.config.keys() {
        if let Some(kind) = named(&["RegistryAuthConfig", "RegistryTLSConfig"], name) {
            push(
                path("machine.registries.config").key(name.as_str()),
                format!("registry config {} is replaced as a whole by the {kind} of the same name", quote(name)),
            );
        }
    }
    if let Some(env) = cx.config.get::<crate::model::runtime::EnvironmentConfig>() {
        for key in machine.env.keys().filter(|k| env.variables.contains_key(*k)) {
            push(
                path("machine.env").key(key.as_str()),
                format!("environment variable {} is also set by EnvironmentConfig, whose value wins", quote(key)),
            );
        }
    }
}
