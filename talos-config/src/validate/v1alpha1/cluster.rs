//! `ClusterConfig.Validate(isControlPlane)` and `ValidateCNI` (docs/validation.md §4.1, §4.7.1).

use std::collections::BTreeSet;

use super::{Out, goparse, q};
use crate::model::v1alpha1::{CNIConfig, ClusterConfig, EtcdConfig, ExternalCloudProviderConfig, ResourcesConfig};

const DEFAULT_DISCOVERY_ENDPOINT: &str = "https://discovery.talos.dev/";

/// The first key of `requests`, then of `limits`, that is neither `cpu` nor `memory` (keys in
/// sorted order: Talos iterates a Go map here).
fn check_resources(r: Option<&ResourcesConfig>) -> Result<(), String> {
    let Some(r) = r else { return Ok(()) };
    for part in [&r.requests, &r.limits] {
        if let Some(obj) = &part.object
            && let Some(k) = obj.keys().find(|k| *k != "cpu" && *k != "memory")
        {
            return Err(format!("unsupported pod resource {}", q(k)));
        }
    }
    Ok(())
}

/// `ClusterConfig.Validate`. From v1.14 (`control_plane_optional`) the endpoint is checked only
/// when `.cluster.controlPlane` is present: a `KubeClusterConfig` document may carry it instead.
pub(super) fn validate_cluster(
    cluster: Option<&ClusterConfig>,
    is_control_plane: bool,
    control_plane_optional: bool,
    out: &mut Out,
) {
    let Some(c) = cluster else {
        out.err("cluster instructions are required", "cluster");
        return;
    };
    if c.control_plane.is_some() || !control_plane_optional {
        let Some(endpoint) = c.control_plane.as_ref().and_then(|cp| cp.endpoint.as_ref()) else {
            out.err("cluster controlplane endpoint is required", "cluster.controlPlane.endpoint");
            return;
        };
        if let Err(e) = goparse::validate_endpoint_uri(&endpoint.to_string()) {
            out.err(format!("invalid controlplane endpoint: {e}"), "cluster.controlPlane.endpoint");
        }
    }
    if let Some(net) = &c.network
        && !net.dns_domain.is_empty()
        && !goparse::is_valid_dns_name(&net.dns_domain)
    {
        out.err(format!("{} is not a valid DNS name", q(&net.dns_domain)), "cluster.network.dnsDomain");
    }
    if let Some(ecp) = &c.external_cloud_provider {
        validate_external_cloud_provider(ecp, out);
    }
    if let Some(etcd) = &c.etcd {
        validate_etcd(etcd, is_control_plane, out);
    }
    if !is_control_plane && c.ca.as_ref().is_some_and(|ca| ca.key.as_ref().is_some_and(|k| !k.is_empty())) {
        out.err("cluster CA key is not allowed on non-controlplane nodes (.cluster.ca)", "cluster.ca.key");
    }
    validate_inline_manifest_names(c, out);
    validate_discovery(c, out);
    validate_control_plane_components(c, out);
}

/// Manifests only when the external cloud provider is enabled, each a valid URL.
fn validate_external_cloud_provider(ecp: &ExternalCloudProviderConfig, out: &mut Out) {
    if ecp.enabled != Some(true) && !ecp.manifests.is_empty() {
        out.err(
            "external cloud provider is disabled, but manifests are provided",
            "cluster.externalCloudProvider.manifests",
        );
        return;
    }
    for (i, m) in ecp.manifests.iter().enumerate() {
        if let Err(e) = goparse::validate_endpoint_uri(m) {
            out.err(
                format!("invalid external cloud provider manifest url {}: {e}", q(m)),
                &format!("cluster.externalCloudProvider.manifests[{i}]"),
            );
        }
    }
}

/// `cluster.etcd`: control planes only, with a CA, and with valid advertised and listen subnets
/// (listen defaults to advertised, advertised to the legacy `subnet`).
fn validate_etcd(etcd: &EtcdConfig, is_control_plane: bool, out: &mut Out) {
    if !is_control_plane {
        out.err("etcd config is only allowed on control plane machines", "cluster.etcd");
        return;
    }
    if etcd.ca.is_none() {
        out.err("key/cert combination should not be empty", "cluster.etcd.ca");
    }
    if !etcd.subnet.is_empty() && !etcd.advertised_subnets.is_empty() {
        out.err("etcd subnet can't be set when advertised subnets are set", "cluster.etcd.subnet");
    }
    let advertised: Vec<&String> = if !etcd.advertised_subnets.is_empty() {
        etcd.advertised_subnets.iter().collect()
    } else if !etcd.subnet.is_empty() {
        vec![&etcd.subnet]
    } else {
        Vec::new()
    };
    let listen: Vec<&String> =
        if !etcd.listen_subnets.is_empty() { etcd.listen_subnets.iter().collect() } else { advertised.clone() };
    for s in advertised {
        let s = s.strip_prefix('!').unwrap_or(s);
        if !goparse::subnet_or_address_ok(s) {
            out.err(format!("etcd advertised subnet is not valid: {}", q(s)), "cluster.etcd.advertisedSubnets");
        }
    }
    for s in listen {
        let s = s.strip_prefix('!').unwrap_or(s);
        if !goparse::subnet_or_address_ok(s) {
            out.err(format!("etcd listen subnet is not valid: {}", q(s)), "cluster.etcd.listenSubnets");
        }
    }
}

/// Every inline manifest has a name, and no two the same.
fn validate_inline_manifest_names(c: &ClusterConfig, out: &mut Out) {
    let mut names = BTreeSet::new();
    for (i, m) in c.inline_manifests.0.iter().enumerate() {
        let path = format!("cluster.inlineManifests[{i}].name");
        if m.name.trim().is_empty() {
            out.err("inline manifest name can't be empty", &path);
        }
        if !names.insert(m.name.as_str()) {
            out.err(format!("inline manifest name {} is duplicate", q(&m.name)), &path);
        }
    }
}

/// Enabled discovery with its service registry on: a valid endpoint with no path, and the
/// cluster's id and secret set.
fn validate_discovery(c: &ClusterConfig, out: &mut Out) {
    let Some(d) = c.discovery.as_ref().filter(|d| d.enabled == Some(true)) else { return };
    let service = &d.registries.service;
    if service.disabled == Some(true) {
        return;
    }
    let endpoint = if service.endpoint.is_empty() { DEFAULT_DISCOVERY_ENDPOINT } else { service.endpoint.as_str() };
    let path = "cluster.discovery.registries.service.endpoint";
    match goparse::parse_request_uri_path(endpoint) {
        Err(e) => out.err(format!("cluster discovery service registry endpoint is invalid: {e}"), path),
        Ok(p) if !p.is_empty() && p != b"/" => out.err("cluster discovery service path should be empty", path),
        Ok(_) => {}
    }
    if c.id.is_empty() {
        out.err("cluster discovery service requires .cluster.id", "cluster.id");
    }
    if c.secret.is_empty() {
        out.err("cluster discovery service requires .cluster.secret", "cluster.secret");
    }
}

/// The API server's flags, then the controller manager's and the scheduler's resources.
fn validate_control_plane_components(c: &ClusterConfig, out: &mut Out) {
    if let Some(api) = &c.api_server
        && let Err(e) = validate_api_server(api)
    {
        out.err(e.0, e.1);
    }
    if let Some(cm) = &c.controller_manager
        && let Err(e) = check_resources(cm.resources.as_ref())
    {
        out.err(format!("controller-manager resource validation failed: {e}"), "cluster.controllerManager.resources");
    }
    if let Some(s) = &c.scheduler
        && let Err(e) = check_resources(s.resources.as_ref())
    {
        out.err(format!("scheduler resource validation failed: {e}"), "cluster.scheduler.resources");
    }
}

/// `APIServerConfig.Validate`: the first problem only. `authorizationConfig` counts as set when
/// it is not nil: an explicit empty list is set.
fn validate_api_server(api: &crate::model::v1alpha1::APIServerConfig) -> Result<(), (String, &'static str)> {
    if !api.authorization_config.is_nil() {
        // Sorted key order (Talos iterates a Go map and reports whichever it meets first).
        for k in api.extra_args.0.keys() {
            if k == "authorization-mode" {
                return Err((
                    "authorization-mode cannot be used in conjunction with AuthorizationConfig, use eitherr AuthorizationConfig or authorization-mode".into(),
                    "cluster.apiServer.extraArgs",
                ));
            }
            if k.starts_with("authorization-webhook-") {
                return Err((
                    "authorization-webhook-* flags cannot be used in conjunction with AuthorizationConfig, use either AuthorizationConfig or authorization-webhook-* flags".into(),
                    "cluster.apiServer.extraArgs",
                ));
            }
        }
    }
    for a in api.authorization_config.items() {
        let (t, n) = a.as_ref().map_or(("", ""), |a| (a.r#type.as_str(), a.name.as_str()));
        let err = if t.is_empty() {
            Some("authorizer type must be set".to_string())
        } else if n.is_empty() {
            Some("authorizer name must be set".to_string())
        } else if !["Node", "RBAC", "Webhook"].contains(&t) {
            Some(format!("authorizer type {t} is not allowed, allowed types are [Node RBAC Webhook]"))
        } else {
            None
        };
        if let Some(e) = err {
            return Err((
                format!("apiserver authorization config validation failed: {e}"),
                "cluster.apiServer.authorizationConfig",
            ));
        }
    }
    check_resources(api.resources.as_ref())
        .map_err(|e| (format!("apiserver resource validation failed: {e}"), "cluster.apiServer.resources"))
}

/// `ValidateCNI` on `cluster.network.cni` (no block means `flannel`).
pub(super) fn validate_cni(cni: Option<&CNIConfig>, out: &mut Out) {
    let Some(cni) = cni else { return };
    let path = "cluster.network.cni";
    let extra_args = cni.flannel.as_ref().is_some_and(|f| !f.extra_args.is_empty());
    let policies = cni.flannel.as_ref().and_then(|f| f.kube_network_policies_enabled).unwrap_or(false);
    let name = cni.name.as_str();
    match name {
        "flannel" | "none" | "custom" => {}
        _ => {
            out.err(r#"cni name should be one of ["flannel", "custom", "none"]"#, "cluster.network.cni.name");
            return;
        }
    }
    if name == "custom" {
        if cni.urls.is_empty() {
            out.warn(format!(r#""urls" field should not be empty for {} CNI"#, q(name)), "cluster.network.cni.urls");
        }
    } else if !cni.urls.is_empty() {
        out.err(format!(r#""urls" field should be empty for {} CNI"#, q(name)), "cluster.network.cni.urls");
    }
    if name != "flannel" {
        if extra_args {
            out.err(
                format!(r#""flanneldExtraArgs" field should be empty for {} CNI"#, q(name)),
                "cluster.network.cni.flannel.extraArgs",
            );
        }
        if policies {
            out.err(
                format!(r#""flannelKubeNetworkPoliciesEnabled" should not be enabled for {} CNI"#, q(name)),
                "cluster.network.cni.flannel.kubeNetworkPoliciesEnabled",
            );
        }
    }
    if name == "custom" {
        for u in &cni.urls {
            if let Err(e) = goparse::validate_endpoint_uri(u) {
                out.err(e, path);
            }
        }
    }
}
