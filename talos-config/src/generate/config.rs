//! Machine configs made from a secrets bundle, as `talosctl gen config` makes them (Talos's
//! `generate` package): the documents each machine type gets under each version contract.

use std::collections::{BTreeMap, BTreeSet};

use super::contract::VersionContract;
use super::secrets::{Parts, Secrets, SecretsBundle};
use crate::config::Entry;
use crate::document::Document;
use crate::model::block::{CelExpression, FilesystemTrimConfig, VolumeConfig};
use crate::model::cluster::{DiscoveryIdentityConfig, DiscoveryServiceConfig};
use crate::model::cri::{CertificateAndKey, RegistryEndpoint, RegistryMirrorConfig, RegistryTlsConfig};
use crate::model::k8s::{
    KubeAdmissionControlConfig, KubeAggregatorCaConfig, KubeApiServerCaConfig, KubeApiServerConfig,
    KubeAuditPolicyConfig, KubeAuthenticationConfig, KubeAuthorizerConfig, KubeClusterConfig,
    KubeControllerManagerConfig, KubeCoreDnsConfig, KubeEtcdEncryptionConfig, KubeExternalManifestConfig,
    KubeFlannelCniConfig, KubeNetworkConfig, KubeNodeConfig, KubePrismConfig, KubeProxyConfig, KubeSchedulerConfig,
    KubeServiceAccountConfig, KubeletConfig,
};
use crate::model::meta::Meta;
use crate::model::network::types::{AutoHostnameKind, IpPrefix, Prefix};
use crate::model::network::{HostnameConfig, KubeSpanConfig, ResolverConfig};
use crate::model::runtime::{SecurityProfileConfig, SysctlConfig, UnattendedInstallConfig};
use crate::model::siderolink::MetaUrl;
use crate::model::v1alpha1 as v1;
use crate::value::{DecodeCx, Replaced, Unstructured, Value};
use crate::{Config, Error, ErrorKind, Release};

/// The Kubernetes version `talosctl gen config` v1.13.9 defaults to (another release's:
/// [`GenOptions::for_release`]).
pub const DEFAULT_KUBERNETES_VERSION: &str = crate::kubelet::DEFAULT_KUBERNETES_VERSION;
/// The installer image `talosctl gen config` v1.13.9 defaults to (another release's:
/// [`GenOptions::for_release`]).
pub const DEFAULT_INSTALL_IMAGE: &str = "ghcr.io/siderolabs/installer:v1.13.9";

const KUBELET_IMAGE: &str = "ghcr.io/siderolabs/kubelet";
const API_SERVER_IMAGE: &str = "registry.k8s.io/kube-apiserver";
const CONTROLLER_MANAGER_IMAGE: &str = "registry.k8s.io/kube-controller-manager";
const PROXY_IMAGE: &str = "registry.k8s.io/kube-proxy";
const SCHEDULER_IMAGE: &str = "registry.k8s.io/kube-scheduler";
const KUBE_PRISM_PORT: i64 = 7445;
const EXCLUDE_FROM_EXTERNAL_LB: &str = "node.kubernetes.io/exclude-from-external-load-balancers";

/// The three kinds of machine config Talos generates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MachineType {
    /// The legacy first control-plane node (`init`); `talosctl gen config` no longer writes it.
    Init,
    /// A control-plane node (`controlplane.yaml`).
    ControlPlane,
    /// A worker node (`worker.yaml`).
    Worker,
}

impl MachineType {
    /// The name in `machine.type`.
    pub fn as_str(self) -> &'static str {
        match self {
            MachineType::Init => "init",
            MachineType::ControlPlane => "controlplane",
            MachineType::Worker => "worker",
        }
    }
}

/// What `talosctl gen config`'s flags choose, with its defaults: Kubernetes
/// [`DEFAULT_KUBERNETES_VERSION`], install disk `/dev/sda`, image [`DEFAULT_INSTALL_IMAGE`],
/// DNS domain `cluster.local`, cluster discovery on, the current version contract, as Talos
/// [`Release::DEFAULT`] makes configs; [`GenOptions::for_release`] gives another release's.
///
/// ```
/// use talos_config::generate::{GenOptions, VersionContract};
/// let mut options = GenOptions::default();
/// options.contract = VersionContract::new(1, 11);
/// options.registry_mirrors.entry("docker.io".into()).or_default().push("https://mirror.example.com".into());
/// assert_eq!(options.install_disk, "/dev/sda");
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GenOptions {
    /// The Talos release whose `gen config` makes the configs (labctl's `--talos-release`); the
    /// configs carry it ([`Config::release`]). Set it with [`GenOptions::for_release`], which
    /// also picks that release's default Kubernetes version and installer image.
    pub release: Release,
    /// The Talos release the configs are for (`--talos-version`).
    pub contract: VersionContract,
    /// The Kubernetes version without a leading `v` (`--kubernetes-version`); empty leaves
    /// every Kubernetes image empty.
    pub kubernetes_version: String,
    /// `machine.install.disk` (`--install-disk`).
    pub install_disk: String,
    /// `machine.install.image` (`--install-image`).
    pub install_image: String,
    /// `machine.install.extraKernelArgs`.
    pub install_extra_kernel_args: Vec<String>,
    /// Extra names for the API server's and the machines' certificates (`--additional-sans`).
    pub additional_sans: Vec<String>,
    /// `cluster.network.dnsDomain` (`--dns-domain`).
    pub dns_domain: String,
    /// `cluster.network.cni`.
    pub cni: Option<v1::CNIConfig>,
    /// `cluster.discovery.enabled` (`--with-cluster-discovery`).
    pub cluster_discovery: bool,
    /// KubeSpan on or off, `None` to leave it unset (`--with-kubespan` sets `Some(true)`).
    pub kubespan: Option<bool>,
    /// Registry mirrors: endpoints per registry host (`--registry-mirror host=url`).
    pub registry_mirrors: BTreeMap<String, Vec<String>>,
    /// PEM CA certificates per registry host.
    pub registry_ca_certs: BTreeMap<String, String>,
    /// Registry hosts whose TLS certificate is not verified.
    pub registry_insecure: BTreeSet<String>,
    /// `debug`.
    pub debug: bool,
    /// `persist` (`--persist` of talosctl v1.12.11, default true). Talos v1.13.9 dropped the
    /// option and always writes `persist: true`: with that release this is not read.
    pub persist: bool,
    /// Lets workloads run on control-plane nodes.
    pub allow_scheduling_on_control_planes: bool,
    /// `cluster.controlPlane.localAPIServerPort` (0: unset).
    pub local_api_server_port: i64,
    /// KubePrism's port; `Some(0)` turns KubePrism off, `None` keeps the contract's default.
    pub kube_prism_port: Option<i64>,
    /// `machine.features.hostDNS.forwardKubeDNSToHost`, `None` for the contract's default.
    pub host_dns_forward_kube_dns_to_host: Option<bool>,
    /// `machine.sysctls`.
    pub sysctls: BTreeMap<String, String>,
    /// The talosconfig's endpoints.
    pub endpoints: Vec<String>,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions::for_release(Release::DEFAULT)
    }
}

impl GenOptions {
    /// The defaults of `release`'s `talosctl gen config`: its Kubernetes version and installer
    /// image, the rest as [`GenOptions::default`].
    ///
    /// ```
    /// use talos_config::Release;
    /// use talos_config::generate::GenOptions;
    /// let options = GenOptions::for_release(Release::V1_12_11);
    /// assert_eq!(options.kubernetes_version, "1.35.4");
    /// assert_eq!(options.install_image, "ghcr.io/siderolabs/installer:v1.12.11");
    /// ```
    pub fn for_release(release: Release) -> GenOptions {
        let rules = release.rules();
        GenOptions {
            release,
            contract: VersionContract::CURRENT,
            kubernetes_version: rules.default_kubernetes.into(),
            install_disk: "/dev/sda".into(),
            install_image: rules.default_installer_image.into(),
            install_extra_kernel_args: Vec::new(),
            additional_sans: Vec::new(),
            dns_domain: "cluster.local".into(),
            cni: None,
            cluster_discovery: true,
            kubespan: None,
            registry_mirrors: BTreeMap::new(),
            registry_ca_certs: BTreeMap::new(),
            registry_insecure: BTreeSet::new(),
            debug: false,
            persist: true,
            allow_scheduling_on_control_planes: false,
            local_api_server_port: 0,
            kube_prism_port: None,
            host_dns_forward_kube_dns_to_host: None,
            sysctls: BTreeMap::new(),
            endpoints: Vec::new(),
        }
    }
}

/// A cluster to generate configs for: its name, the Kubernetes API endpoint (a URL such as
/// `https://10.5.0.2:6443`), its secrets and the options.
///
/// ```
/// use talos_config::generate::{GenOptions, Input, MachineType, SecretsBundle};
/// # let bundle = talos_config::generate::SecretsBundle::from_yaml(include_bytes!("../../tests/engine/data/secrets/generated-v1.13.yaml"))?;
/// let input = Input::new("demo", "https://10.5.0.2:6443", bundle, GenOptions::default());
/// let worker = input.config(MachineType::Worker)?;
/// assert_eq!(worker.v1alpha1().map(|v1| v1.cluster().cluster_name.as_str()), Some("demo"));
/// # Ok::<(), talos_config::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Input {
    cluster_name: String,
    endpoint: String,
    secrets: SecretsBundle,
    options: GenOptions,
}

impl Input {
    /// The input of a cluster.
    pub fn new(
        cluster_name: impl Into<String>,
        endpoint: impl Into<String>,
        secrets: SecretsBundle,
        options: GenOptions,
    ) -> Input {
        Input { cluster_name: cluster_name.into(), endpoint: endpoint.into(), secrets, options }
    }

    /// The secrets the configs are made from.
    pub fn secrets(&self) -> &SecretsBundle {
        &self.secrets
    }

    /// The options.
    pub fn options(&self) -> &GenOptions {
        &self.options
    }

    /// The cluster's name.
    pub fn cluster_name(&self) -> &str {
        &self.cluster_name
    }

    /// The config of one machine type, as Talos (the options' release) generates it before any
    /// patch; the config carries that release. Fails when the
    /// endpoint is not a URL (Go's `url.Parse` text), when the bundle lacks a section
    /// (checked as `talosctl gen config --with-secrets` does), or, from Talos v1.14, without a
    /// Kubernetes version.
    ///
    /// From Talos v1.14 the current contract writes Kubernetes, the install, host DNS,
    /// discovery and the cluster's identity as documents of their own, and keeps in the
    /// v1alpha1 document only the machine's type, token, CA, names and disk quota, the
    /// bootstrap token and etcd's CA:
    ///
    /// ```
    /// use talos_config::Release;
    /// use talos_config::generate::{GenOptions, Input, MachineType, SecretsBundle};
    /// # let bundle = SecretsBundle::from_yaml(include_bytes!("../../tests/engine/data/secrets/generated-v1.13.yaml"))?;
    /// let input = Input::new("demo", "https://10.5.0.2:6443", bundle, GenOptions::for_release(Release::V1_14_0_RC1));
    /// let worker = input.config(MachineType::Worker)?;
    /// let kinds: Vec<&str> = worker.docs().map(|d| d.kind()).collect();
    /// assert_eq!(kinds[..3], ["v1alpha1", "DiscoveryServiceConfig", "DiscoveryIdentityConfig"]);
    /// assert_eq!(kinds.len(), 15);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn config(&self, machine_type: MachineType) -> Result<Config, Error> {
        let release = self.options.release;
        let contract = self.options.contract.for_release(release);
        if release.rules().gen_contract >= (1, 14) && self.options.kubernetes_version.is_empty() {
            return Err(Error::new(ErrorKind::InvalidValue, "kubernetes version must be specified"));
        }
        let parts = self.secrets.parts(contract).map_err(|e| Error::new(ErrorKind::InvalidValue, e))?;
        let endpoint = v1::Endpoint::parse(&self.endpoint).map_err(|e| Error::new(ErrorKind::InvalidValue, e))?;
        let build = Build { input: self, contract, parts, endpoint };
        let mut legacy = match machine_type {
            MachineType::Worker => build.worker(),
            _ => build.control_plane(machine_type),
        };
        let mut docs = build.machine_documents()?;
        let machine = legacy.machine.get_or_insert_with(Default::default);
        docs.extend(build.registry_documents(machine)?);
        docs.extend(build.network_documents(machine));
        if contract.multidoc_kubernetes() && !contract.kubernetes_disabled() {
            docs.extend(build.kubernetes_documents(machine_type != MachineType::Worker)?);
            if machine_type != MachineType::Worker {
                docs.extend(build.control_plane_documents()?);
            }
        }
        let mut entries = vec![Entry::Doc(Box::new(legacy))];
        entries.extend(docs.into_iter().map(Entry::Doc));
        Config::new(entries, release)
    }
}

struct Build<'a> {
    input: &'a Input,
    contract: VersionContract,
    parts: Parts<'a>,
    endpoint: v1::Endpoint,
}

impl Build<'_> {
    fn options(&self) -> &GenOptions {
        &self.input.options
    }

    /// `IMAGE:vVERSION`, or empty without a Kubernetes version.
    fn image(&self, name: &str) -> String {
        let version = &self.options().kubernetes_version;
        if version.is_empty() { String::new() } else { format!("{name}:v{version}") }
    }

    fn header(&self) -> v1::Config {
        let options = self.options();
        v1::Config {
            version: "v1alpha1".into(),
            debug: Some(options.debug),
            persist: Some(!options.release.rules().gen_persist || options.persist),
            machine: None,
            cluster: None,
        }
    }

    /// The machine section both machine types share.
    fn machine(&self, machine_type: MachineType, ca: v1::PEMEncodedCertificateAndKey) -> v1::MachineConfig {
        let options = self.options();
        let contract = self.contract;
        let mut features = v1::FeaturesConfig::default();
        if !contract.hide_rbac_and_key_usage() {
            features.rbac = Some(true);
            if contract.apid_ext_key_usage_check() {
                features.apid_check_ext_key_usage = Some(true);
            }
        }
        if contract.disk_quota_support() {
            features.disk_quota_support = Some(true);
        }
        let multidoc = contract.multidoc_kubernetes();
        let prism_port = match options.kube_prism_port {
            Some(port) => (port > 0).then_some(port),
            None => contract.kube_prism().then_some(KUBE_PRISM_PORT),
        };
        features.kube_prism = prism_port.filter(|_| !multidoc).map(|port| v1::KubePrism { enabled: Some(true), port });
        if contract.host_dns() && !contract.host_dns_multidoc() {
            let forward =
                options.host_dns_forward_kube_dns_to_host.unwrap_or(false) || contract.host_dns_forward_kube_dns();
            features.host_dns = Some(v1::HostDNSConfig {
                enabled: Some(true),
                forward_kube_dns_to_host: forward.then_some(true),
                ..Default::default()
            });
        }
        let kubelet = v1::KubeletConfig {
            image: self.image(KUBELET_IMAGE),
            default_runtime_seccomp_profile_enabled: contract.kubelet_seccomp_default().then_some(true),
            disable_manifests_directory: contract.kubelet_manifests_directory_disabled().then_some(true),
            ..Default::default()
        };
        let install = v1::InstallConfig {
            disk: options.install_disk.clone(),
            image: options.install_image.clone(),
            wipe: Some(false),
            extra_kernel_args: options.install_extra_kernel_args.clone(),
            grub_use_uki_cmdline: contract.grub_uki_cmdline_default().then_some(true),
            ..Default::default()
        };
        v1::MachineConfig {
            r#type: machine_type.as_str().into(),
            token: self.parts.trustd.token.clone(),
            ca: Some(ca),
            cert_sans: options.additional_sans.clone(),
            kubelet: (!multidoc).then_some(kubelet),
            install: (!contract.unattended_install()).then_some(install),
            sysctls: if contract.multidoc_sysctl() { BTreeMap::new() } else { options.sysctls.clone() },
            features: Some(features),
            ..Default::default()
        }
    }

    /// `cluster.discovery`, up to contract v1.13 (a `DiscoveryServiceConfig` document after it).
    fn discovery(&self) -> Option<v1::ClusterDiscoveryConfig> {
        if self.contract.discovery_multidoc() {
            return None;
        }
        let mut discovery =
            v1::ClusterDiscoveryConfig { enabled: Some(self.options().cluster_discovery), ..Default::default() };
        if self.contract.kubernetes_discovery_disabled() {
            discovery.registries.kubernetes.disabled = Some(true);
        }
        Some(discovery)
    }

    /// `cluster.network`, up to contract v1.13 (a `KubeNetworkConfig` document after it).
    fn network(&self) -> Option<v1::ClusterNetworkConfig> {
        if self.contract.multidoc_kubernetes() {
            return None;
        }
        // Talos picks IPv6 networks only for an endpoint that is a bare IPv6 address, which is
        // never a valid URL: generated configs always get the IPv4 networks.
        let (pods, services) = match self.input.endpoint.parse::<std::net::IpAddr>() {
            Ok(std::net::IpAddr::V6(_)) => ("fc00:db8:10::/56", "fc00:db8:20::/112"),
            _ => (crate::subnets::DEFAULT_POD_SUBNET, crate::subnets::DEFAULT_SERVICE_SUBNET),
        };
        Some(v1::ClusterNetworkConfig {
            cni: self.options().cni.clone(),
            dns_domain: self.options().dns_domain.clone(),
            pod_subnets: Replaced(Some(vec![pods.into()])),
            service_subnets: Replaced(Some(vec![services.into()])),
        })
    }

    /// The pod and service networks (IPv4: see [`Build::network`]).
    fn subnets(&self) -> (&'static str, &'static str) {
        (crate::subnets::DEFAULT_POD_SUBNET, crate::subnets::DEFAULT_SERVICE_SUBNET)
    }

    fn control_plane(&self, machine_type: MachineType) -> v1::Config {
        let options = self.options();
        let contract = self.contract;
        let certs = self.parts.certs;
        let multidoc = contract.multidoc_kubernetes();
        let identity = !contract.discovery_multidoc();
        let mut machine = self.machine(machine_type, self.parts.os.clone());
        if contract.exclude_from_external_lb() && !multidoc {
            machine.node_labels.insert(EXCLUDE_FROM_EXTERNAL_LB.into(), String::new());
        }
        let mut api_server = v1::APIServerConfig {
            image: self.image(API_SERVER_IMAGE),
            cert_sans: self.api_server_sans(),
            ..Default::default()
        };
        if contract.pod_security_admission() {
            api_server.admission_control.0.push(Some(v1::AdmissionPluginConfig {
                name: "PodSecurity".into(),
                configuration: unstructured(POD_SECURITY_CONFIGURATION),
            }));
        }
        if contract.audit_policy() {
            api_server.audit_policy = Replaced(Some(unstructured(DEFAULT_AUDIT_POLICY)));
        }
        if !contract.hide_disable_psp() {
            api_server.disable_pod_security_policy = Some(true);
        }
        let mut cluster = v1::ClusterConfig {
            id: if identity { self.parts.cluster.id.clone() } else { String::new() },
            secret: if identity { self.parts.cluster.secret.clone() } else { String::new() },
            cluster_name: if identity { self.input.cluster_name.clone() } else { String::new() },
            network: self.network(),
            token: if contract.kubernetes_disabled() { String::new() } else { self.bootstrap_token() },
            discovery: self.discovery(),
            etcd: (!contract.etcd_disabled()).then(|| v1::EtcdConfig { ca: certs.etcd.clone(), ..Default::default() }),
            ..Default::default()
        };
        if !multidoc {
            cluster.control_plane = Some(v1::ControlPlaneConfig {
                endpoint: Some(self.endpoint.clone()),
                local_api_server_port: options.local_api_server_port,
            });
            cluster.ca = certs.k8s.clone();
            cluster.aggregator_ca = certs.k8s_aggregator.clone();
            cluster.service_account = certs.k8s_service_account.clone();
            cluster.api_server = Some(api_server);
            cluster.controller_manager =
                Some(v1::ControllerManagerConfig { image: self.image(CONTROLLER_MANAGER_IMAGE), ..Default::default() });
            cluster.proxy = Some(v1::ProxyConfig { image: self.image(PROXY_IMAGE), ..Default::default() });
            cluster.scheduler = Some(v1::SchedulerConfig { image: self.image(SCHEDULER_IMAGE), ..Default::default() });
        }
        if options.allow_scheduling_on_control_planes && !multidoc {
            if contract.allow_scheduling_on_control_planes() {
                cluster.allow_scheduling_on_control_planes = Some(true);
            } else {
                cluster.allow_scheduling_on_masters = Some(true);
            }
        }
        if !multidoc {
            let secrets = self.secrets();
            if contract.secretbox_encryption() {
                cluster.secretbox_encryption_secret = secrets.secretbox_encryption_secret.clone();
            } else {
                cluster.aescbc_encryption_secret = secrets.aescbc_encryption_secret.clone();
            }
        }
        let mut config = self.header();
        config.machine = Some(machine);
        config.cluster = Some(cluster);
        config
    }

    fn worker(&self) -> v1::Config {
        let contract = self.contract;
        let multidoc = contract.multidoc_kubernetes();
        let identity = !contract.discovery_multidoc();
        let ca = v1::PEMEncodedCertificateAndKey { crt: self.parts.os.crt.clone(), key: None };
        let mut machine = self.machine(MachineType::Worker, ca);
        if contract.alternate_image_registries() {
            machine.registries.mirrors.entry("k8s.gcr.io".into()).or_insert_with(k8s_gcr_mirror);
        }
        let cluster = v1::ClusterConfig {
            id: if identity { self.parts.cluster.id.clone() } else { String::new() },
            secret: if identity { self.parts.cluster.secret.clone() } else { String::new() },
            control_plane: (!multidoc)
                .then(|| v1::ControlPlaneConfig { endpoint: Some(self.endpoint.clone()), ..Default::default() }),
            cluster_name: if contract.cluster_name_for_workers() && !multidoc {
                self.input.cluster_name.clone()
            } else {
                String::new()
            },
            network: self.network(),
            token: self.bootstrap_token(),
            ca: (!multidoc).then(|| v1::PEMEncodedCertificateAndKey { crt: self.k8s_ca().crt.clone(), key: None }),
            discovery: self.discovery(),
            ..Default::default()
        };
        let mut config = self.header();
        config.machine = Some(machine);
        config.cluster = Some(cluster);
        config
    }

    /// The bundle's Kubernetes secrets (empty when a contract without Kubernetes left them out).
    fn secrets(&self) -> &Secrets {
        static EMPTY: Secrets = Secrets {
            bootstrap_token: String::new(),
            aescbc_encryption_secret: String::new(),
            secretbox_encryption_secret: String::new(),
        };
        self.parts.secrets.unwrap_or(&EMPTY)
    }

    fn bootstrap_token(&self) -> String {
        self.secrets().bootstrap_token.clone()
    }

    /// The Kubernetes CA (empty when a contract without Kubernetes left it out).
    fn k8s_ca(&self) -> &v1::PEMEncodedCertificateAndKey {
        static EMPTY: v1::PEMEncodedCertificateAndKey = v1::PEMEncodedCertificateAndKey { crt: None, key: None };
        self.parts.k8s.unwrap_or(&EMPTY)
    }

    /// The documents every machine type gets from contract v1.14 on, before the registry,
    /// hostname and KubeSpan ones: discovery service and identity, unattended install, host
    /// DNS, sysctls, the EPHEMERAL volume and trim, the security profile.
    fn machine_documents(&self) -> Result<Vec<Box<dyn Document>>, Error> {
        let options = self.options();
        let contract = self.contract;
        let mut docs: Vec<Box<dyn Document>> = Vec::new();
        if options.cluster_discovery && contract.discovery_multidoc() {
            docs.push(Box::new(DiscoveryServiceConfig {
                meta: meta("DiscoveryServiceConfig"),
                name: "default".into(),
                endpoint: MetaUrl::parse(DEFAULT_DISCOVERY_ENDPOINT).map_err(Error::invalid_value)?,
            }));
        }
        if contract.discovery_multidoc() {
            docs.push(Box::new(DiscoveryIdentityConfig {
                meta: meta("DiscoveryIdentityConfig"),
                cluster_id: self.parts.cluster.id.clone(),
                cluster_secret: self.parts.cluster.secret.clone(),
            }));
        }
        if contract.unattended_install() && !options.install_disk.is_empty() {
            let mut install = UnattendedInstallConfig { meta: meta("UnattendedInstallConfig"), ..Default::default() };
            install.installer.image = options.install_image.clone();
            install.provisioning.wipe = Some(false);
            install.provisioning.disk_selector.r#match =
                CelExpression(format!("disk.dev_path == {}", crate::gofmt::quote(&options.install_disk)));
            docs.push(Box::new(install));
        }
        if contract.host_dns() && contract.host_dns_multidoc() {
            let forward =
                options.host_dns_forward_kube_dns_to_host.unwrap_or(false) || contract.host_dns_forward_kube_dns();
            let mut resolver = ResolverConfig { meta: meta("ResolverConfig"), ..Default::default() };
            resolver.host_dns.enabled = Some(true);
            resolver.host_dns.forward_kube_dns_to_host = forward.then_some(true);
            docs.push(Box::new(resolver));
        }
        if !options.sysctls.is_empty() && contract.multidoc_sysctl() {
            docs.push(Box::new(SysctlConfig { meta: meta("SysctlConfig"), params: options.sysctls.clone() }));
        }
        if contract.filesystem_trim_default() {
            let mut ephemeral =
                VolumeConfig { meta: meta("VolumeConfig"), name: "EPHEMERAL".into(), ..Default::default() };
            ephemeral.mount.secure = Some(true);
            docs.push(Box::new(ephemeral));
            docs.push(Box::new(FilesystemTrimConfig {
                meta: meta("FilesystemTrimConfig"),
                interval: crate::model::Duration { nanos: TRIM_INTERVAL_NANOS },
            }));
        }
        if contract.workload_isolation_default() {
            docs.push(Box::new(SecurityProfileConfig {
                meta: meta("SecurityProfileConfig"),
                workload_isolation: Some(true),
            }));
        }
        Ok(docs)
    }

    /// The Kubernetes documents every machine type gets from contract v1.14 on: cluster, node,
    /// kubelet, networks, the API server's CA (issuing on control planes, accepted on
    /// workers), KubePrism.
    fn kubernetes_documents(&self, control_plane: bool) -> Result<Vec<Box<dyn Document>>, Error> {
        let options = self.options();
        let mut docs: Vec<Box<dyn Document>> = vec![Box::new(KubeClusterConfig {
            meta: meta("KubeClusterConfig"),
            cluster_name: self.input.cluster_name.clone(),
            endpoint: MetaUrl(Some(self.endpoint.0.clone())),
        })];
        let mut node = KubeNodeConfig { meta: meta("KubeNodeConfig"), ..Default::default() };
        if control_plane {
            node.labels.insert(CONTROL_PLANE_ROLE.into(), String::new());
            if self.contract.exclude_from_external_lb() {
                node.labels.insert(EXCLUDE_FROM_EXTERNAL_LB.into(), String::new());
            }
            if !options.allow_scheduling_on_control_planes {
                node.taints.insert(CONTROL_PLANE_ROLE.into(), "NoSchedule".into());
            }
        }
        docs.push(Box::new(node));
        docs.push(Box::new(KubeletConfig {
            meta: meta("KubeletConfig"),
            image: self.image(KUBELET_IMAGE),
            default_runtime_seccomp_profile_enabled: Some(true),
            ..Default::default()
        }));
        let (pods, services) = self.subnets();
        let prefix = |text: &str| IpPrefix::unmarshal_text(text).map(Prefix).map_err(Error::invalid_value);
        docs.push(Box::new(KubeNetworkConfig {
            meta: meta("KubeNetworkConfig"),
            dns_domain: options.dns_domain.clone(),
            pod_subnets: Replaced(Some(vec![prefix(pods)?])),
            service_subnets: Replaced(Some(vec![prefix(services)?])),
            ..Default::default()
        }));
        let ca = self.k8s_ca();
        let mut api_ca = KubeApiServerCaConfig { meta: meta("KubeAPIServerCAConfig"), ..Default::default() };
        if control_plane {
            api_ca.issuing_ca = Some(CertificateAndKey { cert: pem_text(&ca.crt), key: pem_text(&ca.key) });
        } else {
            api_ca.accepted_cas = vec![pem_text(&ca.crt)];
        }
        docs.push(Box::new(api_ca));
        let port = options.kube_prism_port.unwrap_or(KUBE_PRISM_PORT);
        if port > 0 {
            docs.push(Box::new(KubePrismConfig { meta: meta("KubePrismConfig"), port, ..Default::default() }));
        }
        Ok(docs)
    }

    /// The control plane's Kubernetes documents from contract v1.14 on: the aggregator CA,
    /// admission, audit, authentication, the two authorizers, etcd encryption, the
    /// service-account key, the four components, Flannel (or a custom CNI's manifest, after
    /// CoreDNS), CoreDNS.
    fn control_plane_documents(&self) -> Result<Vec<Box<dyn Document>>, Error> {
        let certs = self.parts.certs;
        let aggregator = certs.k8s_aggregator.as_ref();
        let mut docs: Vec<Box<dyn Document>> = vec![Box::new(KubeAggregatorCaConfig {
            meta: meta("KubeAggregatorCAConfig"),
            issuing_ca: Some(CertificateAndKey {
                cert: pem_text(&aggregator.and_then(|a| a.crt.clone())),
                key: pem_text(&aggregator.and_then(|a| a.key.clone())),
            }),
            ..Default::default()
        })];
        docs.extend(api_server_policy_documents());
        docs.push(Box::new(KubeEtcdEncryptionConfig {
            meta: meta("KubeEtcdEncryptionConfig"),
            config: unstructured(&self.etcd_encryption_text()),
        }));
        let sa_key = certs.k8s_service_account.as_ref().and_then(|k| k.key.clone());
        let mut service_account =
            KubeServiceAccountConfig { meta: meta("KubeServiceAccountConfig"), ..Default::default() };
        service_account.issuer.private_key = pem_text(&sa_key);
        service_account.issuer.issuer_url = MetaUrl(Some(self.endpoint.0.clone()));
        docs.push(Box::new(service_account));
        let options = self.options();
        docs.push(Box::new(KubeApiServerConfig {
            meta: meta("KubeAPIServerConfig"),
            image: self.image(API_SERVER_IMAGE),
            cert_extra_sans: self.api_server_sans(),
            api_port: (options.local_api_server_port != 0).then_some(options.local_api_server_port),
            ..Default::default()
        }));
        docs.push(Box::new(KubeControllerManagerConfig {
            meta: meta("KubeControllerManagerConfig"),
            image: self.image(CONTROLLER_MANAGER_IMAGE),
            ..Default::default()
        }));
        docs.push(Box::new(KubeSchedulerConfig {
            meta: meta("KubeSchedulerConfig"),
            image: self.image(SCHEDULER_IMAGE),
            ..Default::default()
        }));
        docs.push(Box::new(KubeProxyConfig {
            meta: meta("KubeProxyConfig"),
            image: self.image(PROXY_IMAGE),
            ..Default::default()
        }));
        let custom_cni = self.custom_cni_url()?;
        if custom_cni.is_none() {
            docs.push(Box::new(KubeFlannelCniConfig {
                meta: meta("KubeFlannelCNIConfig"),
                backend_type: "vxlan".into(),
                backend_port: 4789,
                ..Default::default()
            }));
        }
        docs.push(Box::new(KubeCoreDnsConfig {
            meta: meta("KubeCoreDNSConfig"),
            enabled: Some(true),
            ..Default::default()
        }));
        if let Some(url) = custom_cni {
            docs.push(Box::new(KubeExternalManifestConfig {
                meta: meta("KubeExternalManifestConfig"),
                name: "custom-cni".into(),
                url,
                ..Default::default()
            }));
        }
        Ok(docs)
    }

    /// The custom CNI's manifest URL from contract v1.14 on: [`GenOptions::cni`] named
    /// `custom`, its first URL (Talos v1.14's generator takes one URL and no other CNI).
    fn custom_cni_url(&self) -> Result<Option<MetaUrl>, Error> {
        let Some(cni) = &self.options().cni else { return Ok(None) };
        match (cni.name.as_str(), cni.urls.first()) {
            ("flannel", _) => Ok(None),
            ("custom", Some(url)) => MetaUrl::parse(url)
                .map(Some)
                .map_err(|e| Error::invalid_value(format!("failed to parse custom CNI URL: {e}"))),
            (name, _) => Err(Error::invalid_value(format!(
                "Talos v1.14 generates either Flannel or a custom CNI from one manifest URL, not the CNI {}: \
                 set the CNI's name to custom with its manifest URL, or leave the CNI unset and patch the \
                 KubeFlannelCNIConfig document",
                crate::gofmt::quote(name)
            ))),
        }
    }

    /// The API server's `EncryptionConfiguration`: one secretbox provider for secrets, its key
    /// `key2`; a bundle's AES-CBC secret (contracts up to v1.2) becomes a secretbox key `key1`,
    /// as Talos v1.14 writes it.
    fn etcd_encryption_text(&self) -> String {
        let secrets = self.secrets();
        let mut providers = String::new();
        for (name, secret) in
            [("key2", &secrets.secretbox_encryption_secret), ("key1", &secrets.aescbc_encryption_secret)]
        {
            if !secret.is_empty() {
                providers.push_str(&format!(
                    "      - secretbox:\n          keys:\n            - name: {name}\n              secret: {}\n",
                    crate::gofmt::quote(secret)
                ));
            }
        }
        if providers.is_empty() {
            providers = "      []\n".into();
        }
        format!("resources:\n  - providers:\n{providers}    resources:\n      - secrets\n")
    }

    /// Upstream `GetAPIServerSANs`: the endpoint's host name (contracts up to v1.11), then the
    /// additional names.
    fn api_server_sans(&self) -> Vec<String> {
        let mut sans = Vec::new();
        if self.contract.cluster_sans_from_endpoint() {
            sans.push(self.endpoint.0.hostname());
        }
        sans.extend(self.options().additional_sans.iter().cloned());
        sans
    }

    /// Registry settings: in `machine.registries` up to contract v1.11, as
    /// `RegistryMirrorConfig` and `RegistryTLSConfig` documents after it.
    fn registry_documents(&self, machine: &mut v1::MachineConfig) -> Result<Vec<Box<dyn Document>>, Error> {
        let options = self.options();
        if !self.contract.multidoc_network_config() {
            let registries = &mut machine.registries;
            if self.contract.alternate_image_registries() {
                registries.mirrors.entry("k8s.gcr.io".into()).or_insert_with(k8s_gcr_mirror);
            }
            for (host, endpoints) in &options.registry_mirrors {
                let mirror = v1::RegistryMirrorConfig { endpoints: endpoints.clone(), ..Default::default() };
                registries.mirrors.insert(host.clone(), Some(mirror));
            }
            for (host, ca) in &options.registry_ca_certs {
                registry_tls(registries, host).ca = v1::Base64Bytes(Some(ca.clone().into_bytes()));
            }
            for host in &options.registry_insecure {
                registry_tls(registries, host).insecure_skip_verify = Some(true);
            }
            return Ok(Vec::new());
        }
        let mut docs: Vec<Box<dyn Document>> = Vec::new();
        for (host, endpoints) in &options.registry_mirrors {
            let endpoints = endpoints
                .iter()
                .map(|ep| {
                    MetaUrl::parse(ep).map(|url| RegistryEndpoint { url, ..Default::default() }).map_err(|e| {
                        let text = format!(
                            "failed to generate registry configs: failed to parse registry mirror endpoint {}: {e}",
                            crate::gofmt::quote(ep)
                        );
                        Error::new(ErrorKind::InvalidValue, text)
                    })
                })
                .collect::<Result<Vec<_>, Error>>()?;
            docs.push(Box::new(RegistryMirrorConfig {
                meta: meta("RegistryMirrorConfig"),
                name: host.clone(),
                endpoints,
                ..Default::default()
            }));
        }
        let hosts: BTreeSet<&String> = options.registry_ca_certs.keys().chain(&options.registry_insecure).collect();
        for host in hosts {
            docs.push(Box::new(RegistryTlsConfig {
                meta: meta("RegistryTLSConfig"),
                name: host.clone(),
                ca: options.registry_ca_certs.get(host).cloned().unwrap_or_default(),
                insecure_skip_verify: options.registry_insecure.contains(host).then_some(true),
                ..Default::default()
            }));
        }
        Ok(docs)
    }

    /// Hostname and KubeSpan settings: legacy fields up to their contracts, documents after
    /// (Talos v1.12 writes KubeSpan, and `machine.network`, in the legacy document always).
    fn network_documents(&self, machine: &mut v1::MachineConfig) -> Vec<Box<dyn Document>> {
        let contract = self.contract;
        let kubespan_document = self.options().release.rules().gen_kubespan_document && contract.kubespan_multidoc();
        let mut docs: Vec<Box<dyn Document>> = Vec::new();
        if machine.network.is_none() && !kubespan_document {
            machine.network = Some(v1::NetworkConfig::default());
        }
        if contract.stable_hostname() && !contract.multidoc_network_config() {
            machine.features.get_or_insert_with(Default::default).stable_hostname = Some(true);
        }
        if contract.multidoc_network_config() {
            docs.push(Box::new(HostnameConfig {
                meta: meta("HostnameConfig"),
                auto: Some(AutoHostnameKind(2)),
                ..Default::default()
            }));
        }
        if let Some(enabled) = self.options().kubespan {
            if kubespan_document {
                docs.push(Box::new(KubeSpanConfig {
                    meta: meta("KubeSpanConfig"),
                    enabled: Some(enabled),
                    ..Default::default()
                }));
            } else if let Some(network) = machine.network.as_mut() {
                network.kubespan = Some(v1::NetworkKubeSpan { enabled: Some(enabled), ..Default::default() });
            }
        }
        docs
    }
}

fn meta(kind: &str) -> Meta {
    Meta { api_version: "v1alpha1".into(), kind: kind.into() }
}

fn k8s_gcr_mirror() -> Option<v1::RegistryMirrorConfig> {
    Some(v1::RegistryMirrorConfig {
        endpoints: vec!["https://registry.k8s.io".into(), "https://k8s.gcr.io".into()],
        ..Default::default()
    })
}

fn registry_tls<'a>(registries: &'a mut v1::RegistriesConfig, host: &str) -> &'a mut v1::RegistryTLSConfig {
    let config = registries.config.entry(host.into()).or_default().get_or_insert_with(Default::default);
    config.tls.get_or_insert_with(Default::default)
}

/// The PodSecurity admission plugin's configuration Talos generates.
const POD_SECURITY_CONFIGURATION: &str = "apiVersion: pod-security.admission.config.k8s.io/v1alpha1
kind: PodSecurityConfiguration
defaults:
  enforce: baseline
  enforce-version: latest
  audit: restricted
  audit-version: latest
  warn: restricted
  warn-version: latest
exemptions:
  usernames: []
  runtimeClasses: []
  namespaces: [kube-system]
";

/// The API server's default policies from contract v1.14 on: PodSecurity admission, the audit
/// policy, anonymous authentication of the health endpoints, the Node and RBAC authorizers.
fn api_server_policy_documents() -> Vec<Box<dyn Document>> {
    let mut docs: Vec<Box<dyn Document>> = vec![
        Box::new(KubeAdmissionControlConfig {
            meta: meta("KubeAdmissionControlConfig"),
            name: "PodSecurity".into(),
            configuration: unstructured(POD_SECURITY_CONFIGURATION),
        }),
        Box::new(KubeAuditPolicyConfig {
            meta: meta("KubeAuditPolicyConfig"),
            configuration: Replaced(Some(unstructured(DEFAULT_AUDIT_POLICY))),
        }),
        Box::new(KubeAuthenticationConfig {
            meta: meta("KubeAuthenticationConfig"),
            configuration: Replaced(Some(unstructured(DEFAULT_AUTHENTICATION))),
        }),
    ];
    for (name, kind) in [("node", "Node"), ("rbac", "RBAC")] {
        docs.push(Box::new(KubeAuthorizerConfig {
            meta: meta("KubeAuthorizerConfig"),
            name: name.into(),
            r#type: kind.into(),
            ..Default::default()
        }));
    }
    docs
}

/// Talos v1.14's default API server authentication configuration.
const DEFAULT_AUTHENTICATION: &str = "anonymous:
  enabled: true
  conditions:
    - path: /livez
    - path: /readyz
    - path: /healthz
jwt: []
";

/// The default discovery service.
const DEFAULT_DISCOVERY_ENDPOINT: &str = "https://discovery.talos.dev/";

/// The default filesystem trim interval: a week.
const TRIM_INTERVAL_NANOS: i64 = 168 * 3600 * 1_000_000_000;

/// The control-plane role's label and taint.
const CONTROL_PLANE_ROLE: &str = "node-role.kubernetes.io/control-plane";

/// PEM bytes as the text a document holds.
fn pem_text(bytes: &Option<Vec<u8>>) -> String {
    String::from_utf8_lossy(bytes.as_deref().unwrap_or_default()).into_owned()
}

/// The API server audit policy Talos generates.
const DEFAULT_AUDIT_POLICY: &str = "apiVersion: audit.k8s.io/v1
kind: Policy
rules:
  - level: Metadata
";

/// A constant YAML mapping as an `Unstructured` value.
fn unstructured(yaml: &str) -> Unstructured {
    match crate::yaml::parse::parse_first_document(yaml.as_bytes()) {
        Ok(Some(doc)) => Unstructured::decode(&doc.root, &mut DecodeCx::new()),
        _ => Unstructured::default(),
    }
}

/// Patches for generated configs, as `talosctl gen config --config-patch`,
/// `--config-patch-control-plane` and `--config-patch-worker` take them.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct GenPatches {
    /// Applied to every machine type.
    pub all: Vec<crate::Patch>,
    /// Applied to control-plane configs, after `all`.
    pub control_plane: Vec<crate::Patch>,
    /// Applied to worker configs, after `all`.
    pub worker: Vec<crate::Patch>,
}

/// The control-plane and worker configs of a cluster, patched.
#[derive(Clone, Debug)]
pub struct GeneratedConfigs {
    /// `controlplane.yaml`.
    pub control_plane: Config,
    /// `worker.yaml`.
    pub worker: Config,
}

impl Input {
    /// Both configs with the patches applied in Talos's order (everything's patches to both
    /// types, then the control plane's, then the worker's); the error is Talos's text
    /// (`error patching configs: ...`).
    ///
    /// ```
    /// use talos_config::generate::{GenOptions, GenPatches, Input, SecretsBundle};
    /// use talos_config::{PatchSource, load_patches};
    /// # let bundle = SecretsBundle::from_yaml(include_bytes!("../../tests/engine/data/secrets/generated-v1.13.yaml"))?;
    /// let mut patches = GenPatches::default();
    /// patches.worker = load_patches([PatchSource::new("inline", "machine:\n  nodeLabels:\n    pool: blue\n")])?;
    /// let input = Input::new("demo", "https://10.5.0.2:6443", bundle, GenOptions::default());
    /// let configs = input.configs(&patches)?;
    /// let labels = &configs.worker.v1alpha1().unwrap().machine().node_labels;
    /// assert_eq!(labels.get("pool").map(String::as_str), Some("blue"));
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn configs(&self, patches: &GenPatches) -> Result<GeneratedConfigs, Error> {
        let mut control_plane = self.config(MachineType::ControlPlane)?;
        let mut worker = self.config(MachineType::Worker)?;
        let stage = |config: Config, patches: &[crate::Patch], what: &str| -> Result<Config, Error> {
            if patches.is_empty() {
                return Ok(config);
            }
            let release = config.release();
            crate::patch::apply_patches_to_config(config, patches)
                .and_then(|bytes| Config::from_vec_for(bytes, release))
                .map_err(|e| Error::new(e.kind(), format!("{what}: {}", e.message())))
        };
        control_plane = stage(control_plane, &patches.all, "error patching configs")?;
        worker = stage(worker, &patches.all, "error patching configs")?;
        control_plane = stage(control_plane, &patches.control_plane, "error patching control plane configs")?;
        worker = stage(worker, &patches.worker, "error patching worker config")?;
        Ok(GeneratedConfigs { control_plane, worker })
    }
}
