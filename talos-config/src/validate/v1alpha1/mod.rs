//! `v1alpha1.Config.Validate`: every check of the legacy document, in Talos v1.13.9's order
//! (docs/validation.md §4), with Talos's messages and warnings; plus the machine-independent part of
//! `RuntimeValidate` ([`runtime_validate`]).
//!
//! Deterministic order where Talos iterates Go maps (docs/validation.md §2.4): `apiServer.extraArgs`
//! keys, `resources.requests`/`limits` keys and the `registries.config`/`mirrors` null checks
//! are all visited in sorted (byte) key order, so the first hit in that order is reported.
//!
//! Where Talos would dereference a nil pointer and panic (a `null` entry in
//! `machine.network.interfaces`, its `vlans`, `routes`, wireguard `peers`, in
//! `systemDiskEncryption.*.keys` or `apiServer.authorizationConfig`), this code does not panic:
//! a null interface is reported as `empty device` (Talos's own text for a nil device), a null
//! authorizer as `authorizer type must be set`, and the other null entries are skipped.

mod cluster;
use crate::go::parse as goparse;
mod network;

use std::collections::BTreeSet;

use super::{Context, Findings, Issue, Mode, Validate};
use crate::model::v1alpha1::{Config, MachineConfig};

/// `machine.Type` as `ParseType` gives it (`join` and `""` are workers; anything unknown is
/// `Unknown`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MachineType {
    Unknown,
    Init,
    ControlPlane,
    Worker,
}

impl MachineType {
    pub(crate) fn parse(raw: &str) -> MachineType {
        match raw {
            "init" => MachineType::Init,
            "controlplane" => MachineType::ControlPlane,
            "worker" | "join" | "" => MachineType::Worker,
            _ => MachineType::Unknown,
        }
    }

    fn name(self) -> &'static str {
        match self {
            MachineType::Unknown => "unknown",
            MachineType::Init => "init",
            MachineType::ControlPlane => "controlplane",
            MachineType::Worker => "worker",
        }
    }

    pub(crate) fn is_control_plane(self) -> bool {
        matches!(self, MachineType::Init | MachineType::ControlPlane)
    }
}

/// Collects error items and warnings in order.
#[derive(Default)]
pub(crate) struct Out {
    pub errors: Vec<Issue>,
    pub warnings: Vec<Issue>,
}

impl Out {
    pub(crate) fn err(&mut self, message: impl Into<String>, path: &str) {
        self.errors.push(Issue::new(message, Some(path)));
    }

    pub(crate) fn warn(&mut self, message: impl Into<String>, path: &str) {
        self.warnings.push(Issue::new(message, Some(path)));
    }
}

fn q(s: &str) -> String {
    crate::gofmt::quote(s)
}

impl Validate for Config {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        let mut out = Out::default();
        let Some(machine) = &self.machine else {
            out.err("machine instructions are required", "machine");
            return Findings { errors: out.errors, warnings: Vec::new() };
        };
        let mtype = MachineType::parse(&machine.r#type);
        let v1_14 = cx.release.rules().container_validation;
        if v1_14 {
            warn_deprecated(machine, &mut out);
        }

        // 4.1 cluster
        cluster::validate_cluster(self.cluster.as_ref(), mtype.is_control_plane(), v1_14, &mut out);

        // 4.2 install (v1.14: only when present; an UnattendedInstallConfig may stand for it)
        if cx.mode.requires_install() && !cx.options.installed && (machine.install.is_some() || !v1_14) {
            validate_install(machine, cx.mode, &mut out);
        }

        // 4.3 container mode (v1.14: the container pass), 4.4 any mode
        validate_host_dns(machine, cx.mode, cx.release, &mut out);

        // 4.5 machine type warning
        if mtype != MachineType::Unknown && mtype.name() != machine.r#type {
            out.warn(
                format!("use {} instead of {} for machine type", q(mtype.name()), q(&machine.r#type)),
                "machine.type",
            );
        }

        // 4.6 CA presence
        if machine.ca.is_none() && machine.accepted_cas.is_empty() {
            out.err("issuing CA or some accepted CAs are required (.machine.ca, machine.acceptedCAs)", "machine.ca");
        }

        // 4.7 per machine type
        validate_machine_type(self, machine, mtype, &mut out);

        // 4.8 network
        if let Some(net) = &machine.network {
            network::validate_network(net, &mut out);
        }

        // 4.9 disks
        validate_disks(machine, &mut out);

        // 4.10 kubelet
        validate_kubelet(machine, &mut out);

        // 4.11
        validate_encryption(machine, &mut out);
        validate_legacy_kubespan(self, machine, v1_14, &mut out);
        validate_logging(machine, &mut out);
        validate_extensions(machine, cx.release, &mut out);
        validate_node_metadata(machine, &mut out);
        validate_features(machine, mtype, cx.release, &mut out);
        if self.persist == Some(false) {
            out.err(".persist should be enabled", "persist");
        }
        validate_base_runtime_spec(machine, cx.release, &mut out);
        validate_registries_not_null(machine, &mut out);
        // v1.14: a node checks the images' Kubernetes versions here (`ValidateKubernetesVersions`).
        if v1_14 && cx.options.node {
            let found = kubernetes_versions(self, machine, cx.release, machine.kubelet.is_some());
            out.errors.extend(found.errors);
        }

        // 2.3 strict
        if cx.options.strict {
            for w in std::mem::take(&mut out.warnings) {
                out.errors.push(Issue::new(format!("warning: {}", w.message), w.path.as_deref()));
            }
        }
        Findings { errors: out.errors, warnings: out.warnings }
    }
}

/// v1.14's first warnings: settings that dedicated documents replace.
fn warn_deprecated(machine: &MachineConfig, out: &mut Out) {
    if !machine.files.is_empty() {
        out.warn(".machine.files is deprecated; use dedicated configuration documents instead", "machine.files");
    }
    if machine.base_runtime_spec_overrides.object.as_ref().is_some_and(|o| !o.is_empty()) {
        out.warn(
            ".machine.baseRuntimeSpecOverrides is deprecated; use a CRIBaseRuntimeSpecConfig document instead",
            "machine.baseRuntimeSpecOverrides",
        );
    }
}

/// Host DNS: container mode needs it enabled and forwarding kube-dns (4.3; from v1.14 the
/// container pass checks it); forwarding needs it enabled in any mode (4.4).
fn validate_host_dns(machine: &MachineConfig, mode: Mode, release: crate::Release, out: &mut Out) {
    let host_dns = machine.features.as_ref().and_then(|f| f.host_dns.as_ref());
    let dns_enabled = host_dns.and_then(|h| h.enabled).unwrap_or(false);
    let dns_forward = host_dns.and_then(|h| h.forward_kube_dns_to_host).unwrap_or(false);
    if mode.in_container() && !release.rules().container_validation {
        if !dns_enabled {
            out.err(
                "feature HostDNS should be enabled in container mode (.machine.features.hostDNS.enabled)",
                "machine.features.hostDNS.enabled",
            );
        }
        if !dns_forward {
            out.err(
                "feature HostDNS should forward kube-dns to host in container mode (.machine.features.hostDNS.forwardKubeDNSToHost)",
                "machine.features.hostDNS.forwardKubeDNSToHost",
            );
        }
    }
    if release.rules().forward_kube_dns_needs_host_dns && host_dns.is_some() && dns_forward && !dns_enabled {
        out.err(
            "feature hostDNS.forwardKubeDNSToHost requires hostDNS.enabled to be true (.machine.features.hostDNS)",
            "machine.features.hostDNS",
        );
    }
}

/// `machine.disks` (4.9): no null disk, and only a disk's last partition may take the rest of
/// the disk (size 0).
fn validate_disks(machine: &MachineConfig, out: &mut Out) {
    for (i, disk) in machine.disks.iter().enumerate() {
        let Some(disk) = disk else {
            out.err(format!("machine.disks[{i}] is null"), &format!("machine.disks[{i}]"));
            continue;
        };
        let n = disk.partitions.len();
        for (j, p) in disk.partitions.iter().enumerate() {
            let size = p.as_ref().map_or(0, |p| p.size.0);
            if size == 0 && j + 1 != n {
                out.err(
                    format!(
                        "partition for disk {} is set to occupy full disk, but it's not the last partition in the list",
                        q(&disk.device)
                    ),
                    &format!("machine.disks[{i}].partitions[{j}].size"),
                );
            }
        }
    }
}

/// `machine.kubelet` (4.10): the nodeIP subnets parse, and `extraConfig` overrides no field
/// Talos manages.
fn validate_kubelet(machine: &MachineConfig, out: &mut Out) {
    let Some(kubelet) = &machine.kubelet else { return };
    if let Some(node_ip) = &kubelet.node_ip {
        for s in &node_ip.valid_subnets {
            let s = s.strip_prefix('!').unwrap_or(s);
            if !goparse::subnet_or_address_ok(s) {
                out.err(format!("kubelet nodeIP subnet is not valid: {}", q(s)), "machine.kubelet.nodeIP.validSubnets");
            }
        }
    }
    if let Some(obj) = &kubelet.extra_config.object {
        for field in crate::kubelet::PROTECTED_CONFIG_FIELDS {
            if obj.contains_key(*field) {
                out.err(
                    format!("kubelet configuration field {} can't be overridden", q(field)),
                    &format!("machine.kubelet.extraConfig.{field}"),
                );
            }
        }
    }
}

/// `machine.install.extensions`: no image twice, and any at all is deprecated.
fn validate_extensions(machine: &MachineConfig, release: crate::Release, out: &mut Out) {
    let Some(install) = &machine.install else { return };
    let mut seen = BTreeSet::new();
    for (i, ext) in install.extensions.iter().enumerate() {
        if !seen.insert(ext.image.as_str()) {
            out.err(
                format!("duplicate system extension {}", q(&ext.image)),
                &format!("machine.install.extensions[{i}].image"),
            );
        }
    }
    if !seen.is_empty() {
        out.warn(release.rules().extensions_deprecated, "machine.install.extensions");
    }
}

/// `machine.registries`: no null entry in `config` or `mirrors` (sorted key order).
fn validate_registries_not_null(machine: &MachineConfig, out: &mut Out) {
    for (k, v) in &machine.registries.config {
        if v.is_none() {
            out.err(format!("registries.config[{}] is null", q(k)), &format!("machine.registries.config.{k}"));
        }
    }
    for (k, v) in &machine.registries.mirrors {
        if v.is_none() {
            out.err(format!("registries.mirrors[{}] is null", q(k)), &format!("machine.registries.mirrors.{k}"));
        }
    }
}

/// `InstallConfig.DiskMatchExpression`'s failures: `Ok(true)` when a selector compiles,
/// `Ok(false)` when there is none.
fn compile_disk_selector(install: &crate::model::v1alpha1::InstallConfig) -> Result<bool, String> {
    let Some(sel) = &install.disk_selector else {
        return Ok(false);
    };
    if !sel.name.is_empty() {
        return Err("selector on name is not supported".into());
    }
    match sel.r#type.0.as_str() {
        "" | "nvme" | "sd" | "hdd" | "ssd" => Ok(true),
        t => Err(format!("unsupported disk type {}", q(t))),
    }
}

fn validate_install(machine: &MachineConfig, mode: Mode, out: &mut Out) {
    let Some(install) = &machine.install else {
        out.err(format!("install instructions are required in {} mode", q(mode.as_str())), "machine.install");
        return;
    };
    let compiled = match compile_disk_selector(install) {
        Ok(c) => c,
        Err(e) => {
            out.err(format!("install disk selector is invalid: {e}"), "machine.install.diskSelector");
            false
        }
    };
    if install.disk.is_empty() && !compiled {
        out.err("either install disk or diskSelector should be defined", "machine.install.disk");
    }
    if !install.extra_kernel_args.is_empty() && install.grub_use_uki_cmdline == Some(true) {
        out.err(
            "install.extraKernelArgs and install.grubUseUKICmdline can't be used together",
            "machine.install.extraKernelArgs",
        );
    }
}

fn validate_machine_type(cfg: &Config, machine: &MachineConfig, mtype: MachineType, out: &mut Out) {
    match mtype {
        MachineType::Init | MachineType::ControlPlane => {
            if let Some(net) = cfg.cluster.as_ref().and_then(|c| c.network.as_ref()) {
                cluster::validate_cni(net.cni.as_ref(), out);
            }
            match &machine.ca {
                None => out.err("issuing CA is required (.machine.ca)", "machine.ca"),
                Some(ca) if ca.key.as_ref().is_none_or(Vec::is_empty) => {
                    out.err("issuing CA key is required for controlplane nodes (.machine.ca.key)", "machine.ca.key")
                }
                Some(_) => {}
            }
        }
        MachineType::Worker => {
            if let Some(net) = &machine.network {
                for (i, d) in net.interfaces.0.iter().enumerate() {
                    let Some(d) = d else { continue };
                    if d.vip.is_some() {
                        out.err(
                            "virtual (shared) IP is not allowed on non-controlplane nodes",
                            &format!("machine.network.interfaces[{i}].vip"),
                        );
                    }
                    for (j, v) in d.vlans.0.iter().enumerate() {
                        if v.as_ref().is_some_and(|v| v.vip.is_some()) {
                            out.err(
                                "virtual (shared) IP is not allowed on non-controlplane nodes",
                                &format!("machine.network.interfaces[{i}].vlans[{j}].vip"),
                            );
                        }
                    }
                }
            }
            if let Some(ca) = &machine.ca {
                if ca.key.as_ref().is_some_and(|k| !k.is_empty()) {
                    out.err(
                        "issuing Talos API CA key is not allowed on non-controlplane nodes (.machine.ca)",
                        "machine.ca.key",
                    );
                }
                if ca.crt.as_ref().is_none_or(Vec::is_empty) && machine.accepted_cas.is_empty() {
                    out.err(
                        "trusted CA certificates are required on non-controlplane nodes (.machine.ca.crt, .machine.acceptedCAs)",
                        "machine.ca.crt",
                    );
                }
            }
            if cfg
                .cluster
                .as_ref()
                .and_then(|c| c.ca.as_ref())
                .is_some_and(|ca| ca.key.as_ref().is_some_and(|k| !k.is_empty()))
            {
                out.err(
                    "issuing Kubernetes API CA key is not allowed on non-controlplane nodes (.cluster.ca)",
                    "cluster.ca.key",
                );
            }
        }
        MachineType::Unknown => out.err(format!("unknown machine type {}", q(&machine.r#type)), "machine.type"),
    }
}

fn validate_encryption(machine: &MachineConfig, out: &mut Out) {
    let Some(sde) = &machine.system_disk_encryption else {
        return;
    };
    for (label, key, cfg) in [("EPHEMERAL", "ephemeral", &sde.ephemeral), ("STATE", "state", &sde.state)] {
        let Some(cfg) = cfg else { continue };
        let path = format!("machine.systemDiskEncryption.{key}.keys");
        if cfg.keys.is_empty() {
            out.err(format!("partition {}: no encryption keys provided", q(label)), &path);
        }
        let mut slots = BTreeSet::new();
        for k in cfg.keys.iter().flatten() {
            if !slots.insert(k.slot) {
                out.err(format!("partition {}: encryption key slot {} is already in use", q(label), k.slot), &path);
            }
            if k.node_id.is_none() && k.r#static.is_none() && k.kms.is_none() && k.tpm.is_none() {
                out.err(
                    format!(
                        "partition {}: encryption key at slot {} doesn't have the configuration parameters",
                        q(label),
                        k.slot
                    ),
                    &path,
                );
            }
        }
    }
}

/// `.machine.network.kubespan` when enabled: up to v1.13 it needs discovery and the cluster's
/// identity here (v1.14 checks that over the whole config); its endpoint filters in any release.
fn validate_legacy_kubespan(cfg: &Config, machine: &MachineConfig, v1_14: bool, out: &mut Out) {
    let Some(ks) = machine.network.as_ref().and_then(|n| n.kubespan.as_ref()) else {
        return;
    };
    if ks.enabled != Some(true) {
        return;
    }
    let cluster = cfg.cluster.as_ref();
    if !v1_14 {
        if !cluster.and_then(|c| c.discovery.as_ref()).and_then(|d| d.enabled).unwrap_or(false) {
            out.err(
                ".cluster.discovery should be enabled when .machine.network.kubespan is enabled",
                "cluster.discovery",
            );
        }
        if cluster.is_none_or(|c| c.id.is_empty()) {
            out.err(".cluster.id should be set when .machine.network.kubespan is enabled", "cluster.id");
        }
        if cluster.is_none_or(|c| c.secret.is_empty()) {
            out.err(".cluster.secret should be set when .machine.network.kubespan is enabled", "cluster.secret");
        }
    }
    if let Some(filters) = &ks.filters {
        for s in &filters.endpoints {
            let s = s.strip_prefix('!').unwrap_or(s);
            if !goparse::subnet_or_address_ok(s) {
                out.err(
                    format!("KubeSpan endpoint filter is not valid: {}", q(s)),
                    "machine.network.kubespan.filters.endpoints",
                );
            }
        }
        for s in &filters.exclude_advertised_networks {
            if !goparse::parse_prefix_ok(s) {
                out.err(
                    format!("KubeSpan exclude advertised networks filter is not valid: {}", q(s)),
                    "machine.network.kubespan.filters.excludeAdvertisedNetworks",
                );
            }
        }
    }
}

fn validate_logging(machine: &MachineConfig, out: &mut Out) {
    let Some(logging) = &machine.logging else {
        return;
    };
    for (i, dest) in logging.destinations.iter().enumerate() {
        let path = format!("machine.logging.destinations[{i}]");
        match &dest.endpoint {
            None => out.err("empty logging endpoint", &format!("{path}.endpoint")),
            Some(ep) => {
                if ep.0.host.is_empty() {
                    out.err("empty logging endpoint's host", &format!("{path}.endpoint"));
                }
                let scheme = String::from_utf8_lossy(&ep.0.scheme).into_owned();
                if scheme != "tcp" && scheme != "udp" {
                    out.err(format!("unexpected logging endpoint scheme {}", q(&scheme)), &format!("{path}.endpoint"));
                }
            }
        }
        if dest.format != "json_lines" {
            out.err(format!("unknown logging format {}", q(&dest.format)), &format!("{path}.format"));
        }
    }
}

fn validate_node_metadata(machine: &MachineConfig, out: &mut Out) {
    let groups: [(&str, &str, Vec<crate::labels::LabelError>); 3] = [
        ("invalid machine node labels", "machine.nodeLabels", crate::labels::validate_labels(&machine.node_labels)),
        (
            "invalid machine node annotations",
            "machine.nodeAnnotations",
            crate::labels::validate_annotations(&machine.node_annotations),
        ),
        ("invalid machine node taints", "machine.nodeTaints", crate::labels::validate_taints(&machine.node_taints)),
    ];
    for (prefix, path, errs) in groups {
        if !errs.is_empty() {
            // Each item names its key, so that a tool can point at the line that wrote it.
            let children = errs
                .into_iter()
                .map(|e| {
                    let key_path =
                        (!e.key.is_empty()).then(|| crate::provenance::FieldPath::parse(path).key(e.key).to_string());
                    Issue::new(e.message, key_path.as_deref())
                })
                .collect();
            out.errors.push(Issue::list(prefix, Some(path), children));
        }
    }
}

fn validate_features(machine: &MachineConfig, mtype: MachineType, release: crate::Release, out: &mut Out) {
    let Some(features) = &machine.features else {
        return;
    };
    if let Some(access) = features.kubernetes_talos_api_access.as_ref().filter(|a| a.enabled == Some(true)) {
        if !mtype.is_control_plane() {
            out.err(
                "feature Kubernetes Talos API Access can only be enabled on control plane machines",
                "machine.features.kubernetesTalosAPIAccess.enabled",
            );
        }
        for r in &access.allowed_roles {
            if !release.rules().talos_roles.contains(&r.as_str()) {
                out.err(
                    format!("invalid role {} in allowed roles for Kubernetes Talos API Access", q(r)),
                    "machine.features.kubernetesTalosAPIAccess.allowedRoles",
                );
            }
        }
    }
    let algo = &features.node_address_sort_algorithm;
    if !algo.is_empty() && !matches!(algo.to_lowercase().as_str(), "v1" | "v2") {
        out.err(
            format!("invalid node address sort algorithm: {algo} does not belong to AddressSortAlgorithm values"),
            "machine.features.nodeAddressSortAlgorithm",
        );
    }
}

/// `baseRuntimeSpecOverrides` must decode (through JSON) into an OCI runtime `Spec`, with Go's
/// `encoding/json` type-error text.
fn validate_base_runtime_spec(machine: &MachineConfig, release: crate::Release, out: &mut Out) {
    let Some(obj) = machine.base_runtime_spec_overrides.object.as_ref() else {
        return;
    };
    if let Some((text, key)) = crate::validate::oci_spec::first_error(obj, release) {
        out.err(text, &format!("machine.baseRuntimeSpecOverrides.{key}"));
    }
}

/// The v1alpha1 part of the node-only `RuntimeValidate` (docs/validation.md §4.12): the install disk
/// selector must compile (metal, not installed), the install-extensions deprecation warning is
/// given again, and the kubelet image (and, on control-plane machines, the kube-apiserver,
/// kube-controller-manager and kube-scheduler images) must carry a Kubernetes version Talos
/// 1.13 supports (1.31.0 up to, not including, 1.36.99).
///
/// Not done, because they need the machine itself: matching the disk selector against the
/// node's disks (`no disks matched the expression: …` and matching errors), the SDBoot
/// `extra kernel arguments are not supported when booting using SDBoot` warning (an EFI
/// variable), and `PCIDriverRebindConfig`'s IOMMU warning (`/sys/class/iommu`).
#[cfg(test)]
pub fn runtime_validate(config: &Config, mode: Mode, installed: bool) -> Findings {
    runtime_validate_for(config, mode, installed, crate::Release::DEFAULT)
}

/// [`runtime_validate`] as `release` runs it (its Kubernetes window and texts).
pub fn runtime_validate_for(config: &Config, mode: Mode, installed: bool, release: crate::Release) -> Findings {
    let rules = release.rules();
    let mut out = Out::default();
    if let Some(machine) = &config.machine {
        if mode.requires_install()
            && !installed
            && let Some(install) = &machine.install
            && let Err(e) = compile_disk_selector(install)
        {
            out.err(format!("install disk selector is invalid: {e}"), "machine.install.diskSelector");
        }
        if machine.install.as_ref().is_some_and(|i| !i.extensions.is_empty()) {
            out.warn(rules.extensions_deprecated, "machine.install.extensions");
        }
        // From v1.14 a node checks the images in `Validate` instead.
        if !rules.container_validation {
            let found = kubernetes_versions(config, machine, release, true);
            out.errors.extend(found.errors);
        }
    }
    Findings { errors: out.errors, warnings: out.warnings }
}

/// The Kubernetes images' versions against the release's window: the kubelet's (only when
/// `machine.kubelet` is present from v1.14: `with_kubelet`) and, on control planes, the API
/// server's, controller manager's and scheduler's (the release's defaults when unset).
fn kubernetes_versions(
    config: &Config,
    machine: &MachineConfig,
    release: crate::Release,
    with_kubelet: bool,
) -> Findings {
    let default_kubernetes = release.rules().default_kubernetes;
    let mut out = Out::default();
    {
        if with_kubelet {
            let kubelet_image = machine
                .kubelet
                .as_ref()
                .map(|k| k.image.clone())
                .filter(|i| !i.is_empty())
                .unwrap_or_else(|| format!("ghcr.io/siderolabs/kubelet:v{default_kubernetes}"));
            if let Err(e) = validate_kubernetes_image_tag(&kubelet_image, release) {
                out.err(format!("kubelet image is not valid: {e}"), "machine.kubelet.image");
            }
        }
        if let Some(cluster) = &config.cluster
            && MachineType::parse(&machine.r#type).is_control_plane()
        {
            let image = |set: Option<&String>, repo: &str| {
                set.filter(|i| !i.is_empty())
                    .cloned()
                    .unwrap_or_else(|| format!("registry.k8s.io/{repo}:v{default_kubernetes}"))
            };
            let specs = [
                (
                    "kube-apiserver",
                    image(cluster.api_server.as_ref().map(|a| &a.image), "kube-apiserver"),
                    "cluster.apiServer.image",
                ),
                (
                    "kube-controller-manager",
                    image(cluster.controller_manager.as_ref().map(|a| &a.image), "kube-controller-manager"),
                    "cluster.controllerManager.image",
                ),
                (
                    "kube-scheduler",
                    image(cluster.scheduler.as_ref().map(|a| &a.image), "kube-scheduler"),
                    "cluster.scheduler.image",
                ),
            ];
            for (name, image, path) in specs {
                if let Err(e) = validate_kubernetes_image_tag(&image, release) {
                    out.err(format!("{name} image is not valid: {e}"), path);
                }
            }
        }
    }
    Findings { errors: out.errors, warnings: out.warnings }
}

/// Talos's `KubernetesVersionFromImageRef`: the text after the last `:v`, up to an `@`, parsed
/// tolerantly as a semantic version and printed back.
pub fn kubernetes_version_from_image_ref(image_ref: &str) -> Result<String, String> {
    let Some(idx) = image_ref.rfind(":v") else {
        return Err(format!("invalid image reference: {}", q(image_ref)));
    };
    let mut version = &image_ref[idx + 2..];
    if let Some(at) = version.find('@') {
        version = &version[..at];
    }
    goparse::semver_parse_tolerant(version).map(|v| v.to_string())
}

/// Talos's `ValidateKubernetesImageTag` as `release` runs it.
pub(crate) fn validate_kubernetes_image_tag(image_ref: &str, release: crate::Release) -> Result<(), String> {
    let (oldest, too_new) = release.rules().kubernetes_window;
    let talos = release.number();
    let v = kubernetes_version_from_image_ref(image_ref)
        .map_err(|e| format!("failed to parse Kubernetes version from image reference {}: {e}", q(image_ref)))?;
    let parsed = goparse::semver_parse_tolerant(&v).map_err(|e| e.to_string())?;
    let core = (parsed.major, parsed.minor, parsed.patch);
    if core < oldest {
        return Err(format!("version of Kubernetes {v} is too old to be used with Talos {talos}"));
    }
    if core >= too_new {
        return Err(format!("version of Kubernetes {v} is too new to be used with Talos {talos}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::render_list;

    fn rt(yaml: &str) -> String {
        let cfg = crate::Config::from_bytes(yaml.as_bytes()).unwrap();
        let found = runtime_validate(cfg.get::<Config>().unwrap(), Mode::Cloud, false);
        if found.errors.is_empty() { String::new() } else { render_list(&found.errors) }
    }

    const CP: &str = "version: v1alpha1\nmachine:\n  type: controlplane\ncluster:\n  controlPlane:\n    endpoint: https://localhost:6443\n";

    #[test]
    fn kubernetes_version_from_image_refs() {
        assert_eq!(kubernetes_version_from_image_ref("ghcr.io/siderolabs/kubelet:v1.32.2").unwrap(), "1.32.2");
        assert_eq!(
            kubernetes_version_from_image_ref("ghcr.io/siderolabs/kubelet:v1.32.2@sha256:123456").unwrap(),
            "1.32.2"
        );
        assert_eq!(
            kubernetes_version_from_image_ref("kubelet:latest").unwrap_err(),
            "invalid image reference: \"kubelet:latest\""
        );
    }

    #[test]
    fn runtime_validate_defaults_ok() {
        assert_eq!(rt(CP), "");
    }

    #[test]
    fn runtime_validate_old_kubelet() {
        let yaml =
            "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    image: ghcr.io/siderolabs/kubelet:v1.24.0\n";
        assert_eq!(
            rt(yaml),
            "1 error occurred:\n\t* kubelet image is not valid: version of Kubernetes 1.24.0 is too old to be used with Talos 1.13.9\n\n"
        );
    }

    #[test]
    fn runtime_validate_control_plane_images() {
        let yaml = format!("{CP}  apiServer:\n    image: registry.k8s.io/kube-apiserver:v1.24.0\n");
        assert_eq!(
            rt(&yaml),
            "1 error occurred:\n\t* kube-apiserver image is not valid: version of Kubernetes 1.24.0 is too old to be used with Talos 1.13.9\n\n"
        );
        let yaml = format!(
            "{CP}  controllerManager:\n    image: registry.k8s.io/kube-controller-manager:v1.24.0\n  scheduler:\n    image: registry.k8s.io/kube-scheduler:v1.37.0\n"
        );
        assert_eq!(
            rt(&yaml),
            "2 errors occurred:\n\t* kube-controller-manager image is not valid: version of Kubernetes 1.24.0 is too old to be used with Talos 1.13.9\n\t* kube-scheduler image is not valid: version of Kubernetes 1.37.0 is too new to be used with Talos 1.13.9\n\n"
        );
        let yaml = format!("{CP}  scheduler:\n    image: registry.k8s.io/kube-scheduler:latest\n");
        assert_eq!(
            rt(&yaml),
            "1 error occurred:\n\t* kube-scheduler image is not valid: failed to parse Kubernetes version from image reference \"registry.k8s.io/kube-scheduler:latest\": invalid image reference: \"registry.k8s.io/kube-scheduler:latest\"\n\n"
        );
    }

    #[test]
    fn runtime_validate_install_and_extensions() {
        let yaml = "version: v1alpha1\nmachine:\n  type: worker\n  install:\n    diskSelector:\n      name: sda\n    extensions:\n      - image: a:v1\n";
        let cfg = crate::Config::from_bytes(yaml.as_bytes()).unwrap();
        let found = runtime_validate(cfg.get::<Config>().unwrap(), Mode::Metal, false);
        assert_eq!(
            render_list(&found.errors),
            "1 error occurred:\n\t* install disk selector is invalid: selector on name is not supported\n\n"
        );
        let messages: Vec<&str> = found.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(messages, [crate::Release::DEFAULT.rules().extensions_deprecated]);
        let found = runtime_validate(cfg.get::<Config>().unwrap(), Mode::Metal, true);
        assert!(found.errors.is_empty());
    }
}
