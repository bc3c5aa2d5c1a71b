//! `Validate` of the `types/k8s` kinds (Talos v1.14): each error is one `errors.Join` part,
//! in upstream's order. `talosctl validate` validates as a client (`WithLocal`), which skips
//! the Kubernetes image checks; [`validate_as_node`] runs them, as a node does.

mod checks;
mod conflicts;

use super::{err, errors};
use crate::document::Document;
use crate::gofmt::quote;
use crate::model::k8s::*;
use crate::validate::{Context, Findings, Issue, Validate};
use checks::{SubnetSize, assert_valid_pem, certificate_and_key, image_tag, resources, subnets};

/// A document's own findings as a node checks it (not `Local`): with the image checks of the
/// kinds that have them; `None` for every other kind (its `validate` is the same either way).
pub(crate) fn validate_as_node(doc: &dyn Document, cx: &Context<'_>) -> Option<Findings> {
    let any = doc.as_any();
    let release = cx.release;
    if let Some(d) = any.downcast_ref::<KubeApiServerConfig>() {
        return Some(errors(d.own_errors(Some(release))));
    }
    if let Some(d) = any.downcast_ref::<KubeControllerManagerConfig>() {
        return Some(errors(d.own_errors(Some(release))));
    }
    if let Some(d) = any.downcast_ref::<KubeSchedulerConfig>() {
        return Some(errors(d.own_errors(Some(release))));
    }
    if let Some(d) = any.downcast_ref::<KubeletConfig>() {
        return Some(errors(d.own_errors(Some(release))));
    }
    any.downcast_ref::<KubeProxyConfig>().map(|d| d.findings(Some(release)))
}

/// `<component> image cannot be empty`, or (on a node, `node` set) the image tag check.
fn image(out: &mut Vec<Issue>, component: &str, image: &str, node: Option<crate::Release>) {
    if image.is_empty() {
        out.push(err(format!("{component} image cannot be empty"), "image"));
    } else if let Some(e) = node.and_then(|release| image_tag(component, image, release)) {
        out.push(err(e, "image"));
    }
}

/// The pod resources check, as one more part.
fn pod_resources(out: &mut Vec<Issue>, res: &ResourcesConfig) {
    if let Some(e) = resources(res) {
        out.push(err(e, "resources"));
    }
}

/// `KubeAPIServerConfig`'s extra arguments that belong to other documents: the refused prefix
/// and the document to use, sorted by prefix (upstream sorts its map's keys).
const APISERVER_DENIED_ARGS: [(&str, &str); 6] = [
    ("anonymous-auth", "KubeAuthenticationConfig"),
    ("authentication-config", "KubeAuthenticationConfig"),
    ("authorization-config", "KubeAuthorizationConfig"),
    ("authorization-mode", "KubeAuthorizationConfig"),
    ("authorization-webhook-", "KubeAuthorizationConfig"),
    ("oidc-", "KubeAuthenticationConfig"),
];

impl KubeApiServerConfig {
    fn own_errors(&self, node: Option<crate::Release>) -> Vec<Issue> {
        let mut out = Vec::new();
        image(&mut out, "kube-apiserver", &self.image, node);
        // Per prefix, the arguments in map order (random upstream; byte order here).
        for (prefix, instead) in APISERVER_DENIED_ARGS {
            for arg in self.extra_args.0.keys().filter(|a| a.starts_with(prefix)) {
                out.push(err(
                    format!("kube-apiserver extra argument {} is not allowed: use {instead}", quote(arg)),
                    &format!("extraArgs.{arg}"),
                ));
            }
        }
        pod_resources(&mut out, &self.resources);
        out
    }
}

impl Validate for KubeApiServerConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        errors(self.own_errors(None))
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::api_server(cx)
    }
}

impl KubeControllerManagerConfig {
    fn own_errors(&self, node: Option<crate::Release>) -> Vec<Issue> {
        let mut out = Vec::new();
        if self.enabled == Some(false) {
            return out;
        }
        image(&mut out, "kube-controller-manager", &self.image, node);
        pod_resources(&mut out, &self.resources);
        out
    }
}

impl Validate for KubeControllerManagerConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        errors(self.own_errors(None))
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::controller_manager(cx)
    }
}

impl KubeSchedulerConfig {
    fn own_errors(&self, node: Option<crate::Release>) -> Vec<Issue> {
        let mut out = Vec::new();
        if self.enabled == Some(false) {
            return out;
        }
        image(&mut out, "scheduler", &self.image, node);
        pod_resources(&mut out, &self.resources);
        out
    }
}

impl Validate for KubeSchedulerConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        errors(self.own_errors(None))
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::scheduler(cx)
    }
}

impl KubeProxyConfig {
    fn findings(&self, node: Option<crate::Release>) -> Findings {
        let mut out = Findings::default();
        if self.enabled == Some(false) {
            return out;
        }
        image(&mut out.errors, "proxy", &self.image, node);
        match self.mode.as_str() {
            "" | "nftables" => {}
            "iptables" | "ipvs" => out.warnings.push(err(
                format!("proxy mode {} is not recommended, please switch to nftables if possible", quote(&self.mode)),
                "mode",
            )),
            other => out.errors.push(err(
                format!("invalid proxy mode {}: supported modes are iptables, ipvs and nftables", quote(other)),
                "mode",
            )),
        }
        if !self.extra_args.0.is_empty() {
            out.warnings.push(err(
                "extra arguments for kube-proxy may not work as expected, please use configuration instead",
                "extraArgs",
            ));
        }
        pod_resources(&mut out.errors, &self.resources);
        out
    }
}

impl Validate for KubeProxyConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        self.findings(None)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::proxy(cx)
    }
}

impl KubeletConfig {
    fn own_errors(&self, node: Option<crate::Release>) -> Vec<Issue> {
        let mut out = Vec::new();
        image(&mut out, "kubelet", &self.image, node);
        let config = self.config.object.as_ref();
        for field in
            crate::kubelet::PROTECTED_CONFIG_FIELDS.iter().filter(|f| config.is_some_and(|c| c.contains_key(**f)))
        {
            out.push(err(
                format!("kubelet configuration field {} can't be overridden", quote(field)),
                &format!("config.{field}"),
            ));
        }
        out
    }
}

impl Validate for KubeletConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        errors(self.own_errors(None))
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::kubelet(cx)
    }
}

impl Validate for KubeCoreDnsConfig {
    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::core_dns(cx)
    }
}

impl Validate for KubeFlannelCniConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.backend_type.is_empty() {
            out.push(err("flannel backend type must be specified", "backendType"));
        }
        pod_resources(&mut out, &self.resources);
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::flannel(cx)
    }
}

impl Validate for KubeCredentialProviderConfig {
    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::credential_provider(cx)
    }
}

/// The accepted CAs of a CA document: each must be PEM certificates.
fn accepted_cas(out: &mut Vec<Issue>, cas: &[String]) {
    for (i, ca) in cas.iter().enumerate() {
        if let Err(e) = assert_valid_pem(ca, &[checks::PEM_CERTIFICATE]) {
            out.push(err(format!("accepted CA #{i}: {e}"), &format!("acceptedCAs[{i}]")));
        }
    }
}

/// The issuing CA of a CA document, when set.
fn issuing_ca(out: &mut Vec<Issue>, ca: &crate::model::cri::CertificateAndKey) {
    if let Err(e) = certificate_and_key(ca) {
        out.push(err(format!("issuing CA: {e}"), "issuingCA"));
    }
}

impl Validate for KubeAggregatorCaConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        match &self.issuing_ca {
            None => out.push(err("issuing CA is not set", "issuingCA")),
            Some(ca) => issuing_ca(&mut out, ca),
        }
        accepted_cas(&mut out, &self.accepted_cas);
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::aggregator_ca(cx)
    }
}

impl Validate for KubeApiServerCaConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if let Some(ca) = &self.issuing_ca {
            issuing_ca(&mut out, ca);
        }
        accepted_cas(&mut out, &self.accepted_cas);
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::api_server_ca(cx)
    }
}

impl Validate for KubeServiceAccountConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        let key = &self.issuer.private_key;
        if key.is_empty() {
            out.push(err("service issuer private key is required", "issuer.privateKey"));
        } else if let Err(e) = crate::generate::keys::check_key(key.as_bytes(), false) {
            out.push(err(format!("service issuer private key is invalid: {e}"), "issuer.privateKey"));
        }
        if self.issuer.issuer_url.0.is_none() {
            out.push(err("service issuer URL is required", "issuer.issuerURL"));
        }
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::service_account(cx)
    }
}

impl Validate for KubeEtcdEncryptionConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let empty = self.config.object.as_ref().is_none_or(|o| o.is_empty());
        errors(if empty { vec![err("etcd encryption config is required", "config")] } else { Vec::new() })
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::etcd_encryption(cx)
    }
}

impl Validate for KubeAdmissionControlConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        errors(if self.name.is_empty() {
            vec![err("admission control plugin name is required", "name")]
        } else {
            Vec::new()
        })
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::admission_control(cx)
    }
}

impl Validate for KubeAuditPolicyConfig {
    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::audit_policy(cx)
    }
}

impl Validate for KubeAuthenticationConfig {}

/// The authorizer types the API server knows, in upstream's order.
const AUTHORIZER_TYPES: [&str; 3] = ["Node", "RBAC", "Webhook"];

impl Validate for KubeAuthorizerConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Findings::default();
        if self.name.is_empty() {
            out.errors.push(err("authorizer name is required", "name"));
        }
        if self.r#type.is_empty() {
            out.errors.push(err("authorizer type is required", "type"));
        }
        if !AUTHORIZER_TYPES.contains(&self.r#type.as_str()) {
            out.errors.push(err(
                format!(
                    "authorizer type {} is not allowed, allowed types are [{}]",
                    self.r#type,
                    AUTHORIZER_TYPES.join(" ")
                ),
                "type",
            ));
        }
        let has_webhook = self.webhook.object.as_ref().is_some_and(|o| !o.is_empty());
        if self.r#type == "Webhook" && !has_webhook {
            out.errors.push(err("authorizer webhook configuration is required for Webhook authorizer type", "webhook"));
        }
        if self.r#type != "Webhook" && has_webhook {
            out.warnings
                .push(err("authorizer webhook configuration is not allowed non-Webhook authorizer types", "webhook"));
        }
        out
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        // Upstream tests the admission plugins here, not the authorizers.
        conflicts::admission_control(cx)
    }
}

impl Validate for KubeClusterConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.cluster_name.is_empty() {
            out.push(err("clusterName must be specified", "clusterName"));
        }
        match &self.endpoint.0 {
            None => out.push(err("endpoint must be specified", "endpoint")),
            Some(url) => {
                if let Err(e) = crate::go::parse::validate_endpoint_uri(&url.to_string()) {
                    out.push(err(format!("cluster endpoint is invalid: {e}"), "endpoint"));
                }
            }
        }
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::kube_cluster(cx)
    }
}

impl Validate for KubeNetworkConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        let v4 = self.node_cidr_mask_size_ipv4;
        let v6 = self.node_cidr_mask_size_ipv6;
        let v4_ok = (0..=32).contains(&v4);
        let v6_ok = (0..=128).contains(&v6);
        if !v4_ok {
            out.push(err("nodeCIDRMaskSizeIPv4 must be between 1 and 32", "nodeCIDRMaskSizeIPv4"));
        }
        if !v6_ok {
            out.push(err("nodeCIDRMaskSizeIPv6 must be between 1 and 128", "nodeCIDRMaskSizeIPv6"));
        }
        let default_to = |mask: i64, default: i64| if mask == 0 { default } else { mask };
        let pod_size = SubnetSize::Pod { v4: v4_ok.then(|| default_to(v4, 24)), v6: v6_ok.then(|| default_to(v6, 64)) };
        let pods = self.pod_subnets.get();
        let services = self.service_subnets.get();
        let prefixes = |l: &[crate::model::network::types::Prefix]| l.iter().map(|p| p.0.clone()).collect::<Vec<_>>();
        if let Err(e) = subnets(&prefixes(&pods), &pod_size) {
            out.push(err(format!("pod subnets: {e}"), "podSubnets"));
        }
        if let Err(e) = subnets(&prefixes(&services), &SubnetSize::Service) {
            out.push(err(format!("service subnets: {e}"), "serviceSubnets"));
        }
        if pods.len() != services.len() {
            out.push(err("the number of pod subnets must match the number of service subnets", "podSubnets"));
        }
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::network(cx)
    }
}

/// `invalid node <what>: <multierror list>` of a label, annotation or taint map.
fn label_errors(out: &mut Vec<Issue>, what: &str, field: &str, found: Vec<crate::labels::LabelError>) {
    if found.is_empty() {
        return;
    }
    let items = found
        .into_iter()
        .map(|e| {
            let path = (!e.key.is_empty()).then(|| crate::provenance::FieldPath::parse(field).key(e.key).to_string());
            Issue::new(e.message, path.as_deref())
        })
        .collect();
    out.push(Issue::list(format!("invalid node {what}"), Some(field), items));
}

impl Validate for KubeNodeConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        for (i, cidr) in self.node_ip.valid_subnets.iter().enumerate() {
            let cidr = cidr.strip_prefix('!').unwrap_or(cidr);
            if !crate::go::parse::subnet_or_address_ok(cidr) {
                out.push(err(
                    format!("nodeIP subnet is not valid: {}", quote(cidr)),
                    &format!("nodeIP.validSubnets[{i}]"),
                ));
            }
        }
        label_errors(&mut out, "labels", "labels", crate::labels::validate_labels(&self.labels));
        label_errors(&mut out, "annotations", "annotations", crate::labels::validate_annotations(&self.annotations));
        label_errors(&mut out, "taints", "taints", crate::labels::validate_taints(&self.taints));
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::node(cx)
    }
}

impl Validate for KubePrismConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let port = self.port;
        let bad = !(1..=65535).contains(&port);
        errors(if bad {
            vec![err(format!("invalid port {port}: must be in range 1-65535"), "port")]
        } else {
            Vec::new()
        })
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::kube_prism(cx)
    }
}

impl Validate for KubeTalosApiAccessConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        let roles = cx.release.rules().talos_roles;
        let out = self
            .allowed_roles
            .iter()
            .enumerate()
            .filter(|(_, r)| !roles.contains(&r.as_str()))
            .map(|(i, r)| err(format!("invalid role {} in .allowedRoles", quote(r)), &format!("allowedRoles[{i}]")))
            .collect();
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        conflicts::talos_api_access(cx)
    }
}

/// `manifest name is required` / `... is invalid: ...` (a DNS-1123 subdomain).
fn dns_name(out: &mut Vec<Issue>, what: &str, name: &str) {
    if name.is_empty() {
        out.push(err(format!("{what} name is required"), "name"));
    } else if let Err(e) = crate::labels::validate_dns1123_subdomain(name) {
        out.push(err(format!("{what} name is invalid: {e}"), "name"));
    }
}

impl Validate for KubeExternalManifestConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        dns_name(&mut out, "manifest", &self.name);
        match &self.url.0 {
            None => out.push(err("manifest URL is required", "url")),
            Some(url) => {
                let scheme = String::from_utf8_lossy(&url.scheme).into_owned();
                if scheme != "http" && scheme != "https" {
                    out.push(err(format!("manifest URL scheme must be http or https: {}", quote(&scheme)), "url"));
                }
            }
        }
        errors(out)
    }
}

impl Validate for KubeInlineManifestConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        dns_name(&mut out, "manifest", &self.name);
        errors(out)
    }
}

impl Validate for KubeStaticPodConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        dns_name(&mut out, "static pod", &self.name);
        if self.pod.get().object.is_none_or(|o| o.is_empty()) {
            out.push(err("static pod spec is required", "pod"));
        }
        errors(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Mode, Options, Release};

    /// Each document's rendered errors as a node checks them (`None`: no node-only checks).
    fn as_node(yaml: &str) -> Vec<Option<String>> {
        let config = Config::from_bytes_for(yaml.as_bytes(), Release::V1_14_0_RC1).unwrap();
        let docs: Vec<&dyn Document> = config.docs().collect();
        let cx = Context { mode: Mode::Metal, options: Options::default(), docs: &docs, release: config.release() };
        docs.iter()
            .map(|d| {
                validate_as_node(*d, &cx)
                    .map(|f| f.errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))
            })
            .collect()
    }

    /// A node checks the Kubernetes version of each image against v1.14's window (1.32.0 up to
    /// 1.37.99); `talosctl validate` does not (see the recorded `k8s-apiserver-port` case).
    #[test]
    fn a_node_checks_the_kubernetes_images() {
        let yaml = "apiVersion: v1alpha1\nkind: KubeAPIServerConfig\nimage: registry.k8s.io/kube-apiserver:v1.31.0\n---\n\
                    apiVersion: v1alpha1\nkind: KubeControllerManagerConfig\nimage: kcm:v1.37.99\n---\n\
                    apiVersion: v1alpha1\nkind: KubeSchedulerConfig\nimage: sched:latest\nconfig: {}\n---\n\
                    apiVersion: v1alpha1\nkind: KubeletConfig\nimage: kubelet:v1.32.0\nconfig: {}\n---\n\
                    apiVersion: v1alpha1\nkind: KubeProxyConfig\nenabled: false\nimage: proxy:v1.0.0\nconfig: {}\n---\n\
                    apiVersion: v1alpha1\nkind: KubePrismConfig\nport: 7445\n";
        let found = as_node(yaml);
        assert_eq!(
            found,
            [
                Some("kube-apiserver image is not valid: version of Kubernetes 1.31.0 is too old to be used with Talos 1.14.0-rc.1".into()),
                Some("kube-controller-manager image is not valid: version of Kubernetes 1.37.99 is too new to be used with Talos 1.14.0-rc.1".into()),
                Some("scheduler image is not valid: failed to parse Kubernetes version from image reference \"sched:latest\": invalid image reference: \"sched:latest\"".into()),
                Some(String::new()),
                Some(String::new()),
                None,
            ]
        );
    }
}
