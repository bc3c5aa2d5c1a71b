//! What kubelet v1.36 accepts on its command line, as Talos v1.13.9 starts it
//! (`spec/kubelet-flags.md`): the flag names, which are deprecated, the keys Talos refuses, the
//! flags removed in earlier versions and the config-file fields that have no flag. The linter's
//! `kubelet-unknown-flag` rule and the simulator's crash loop both read it.
//!
//! ```
//! use talos_config::kubelet::{Flag, Suggestion, check_flag};
//!
//! assert_eq!(check_flag("max-pod"), Flag::Unknown { name: "max-pod".into(), suggestion: Some(Suggestion::DidYouMean("max-pods")) });
//! assert!(matches!(check_flag("max_pods"), Flag::Known { name: "max-pods", .. }));
//! assert_eq!(check_flag("config"), Flag::Denied);
//! ```

/// Talos v1.13.9's default Kubernetes version (`constants.DefaultKubernetesVersion`), the kubelet
/// it runs when `machine.kubelet.image` is empty.
pub(crate) const DEFAULT_KUBERNETES_VERSION: &str = crate::release::V1_13_RULES.default_kubernetes;

/// The kubelet minor version the flag table describes.
pub(crate) const FLAGS_VERSION: (u64, u64) = (1, 36);

/// The extraArgs keys Talos refuses (`extra arg "<key>" is not allowed`): the config is
/// accepted, but the kubelet keeps its previous arguments (§2.4).
pub(crate) const DENY_LIST: [&str; 6] =
    ["bootstrap-kubeconfig", "kubeconfig", "container-runtime", "container-runtime-endpoint", "config", "cert-dir"];

/// Every flag kubelet v1.36 takes (the extraArgs key, without `--`), and why it is deprecated
/// when it is: what an editor offers under `machine.kubelet.extraArgs`.
///
/// ```
/// let flags: Vec<_> = talos_config::kubelet::flags().collect();
/// assert!(flags.iter().any(|(name, _)| *name == "max-pods"));
/// ```
pub fn flags() -> impl Iterator<Item = (&'static str, Option<Deprecation>)> {
    FLAGS.iter().copied()
}

/// Why a kubelet flag is deprecated: each class prints its own warning (§3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Deprecation {
    /// The flag mirrors a field of the kubelet's config file.
    ConfigFile,
    /// A cadvisor flag, to be removed in Kubernetes 1.37.
    Cadvisor,
    /// Replaced by `--eviction-hard` / `--eviction-soft`.
    Eviction,
    /// `--experimental-mounter-path`.
    Mounter,
    /// `--experimental-allocatable-ignore-eviction`.
    Allocatable,
}

impl Deprecation {
    /// The kubelet's own text after `Flag --<name> has been deprecated, `.
    pub fn message(self) -> &'static str {
        match self {
            Deprecation::ConfigFile => {
                "This parameter should be set via the config file specified by the Kubelet's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information."
            }
            Deprecation::Cadvisor => {
                "This is a cadvisor flag that was mistakenly registered with the Kubelet. Due to legacy concerns, it will follow the standard CLI deprecation timeline before being removed."
            }
            Deprecation::Eviction => {
                "Use --eviction-hard or --eviction-soft instead. Will be removed in a future version."
            }
            Deprecation::Mounter => "will be removed in 1.25 or later. in favor of using CSI.",
            Deprecation::Allocatable => "will be removed in 1.25 or later.",
        }
    }
}

/// The 150 long flag names kubelet v1.36.3 accepts on Linux, sorted, with their deprecation
/// (§3.2). `tls-curve-preferences` is new in 1.36 and taken from the release notes.
pub(crate) const FLAGS: &[(&str, Option<Deprecation>)] = &[
    ("address", Some(Deprecation::ConfigFile)),
    ("allowed-unsafe-sysctls", Some(Deprecation::ConfigFile)),
    ("anonymous-auth", Some(Deprecation::ConfigFile)),
    ("application-metrics-count-limit", Some(Deprecation::Cadvisor)),
    ("authentication-token-webhook", Some(Deprecation::ConfigFile)),
    ("authentication-token-webhook-cache-ttl", Some(Deprecation::ConfigFile)),
    ("authorization-mode", Some(Deprecation::ConfigFile)),
    ("authorization-webhook-cache-authorized-ttl", Some(Deprecation::ConfigFile)),
    ("authorization-webhook-cache-unauthorized-ttl", Some(Deprecation::ConfigFile)),
    ("boot-id-file", Some(Deprecation::Cadvisor)),
    ("bootstrap-kubeconfig", None),
    ("cert-dir", None),
    ("cgroup-driver", Some(Deprecation::ConfigFile)),
    ("cgroup-root", Some(Deprecation::ConfigFile)),
    ("cgroups-per-qos", Some(Deprecation::ConfigFile)),
    ("client-ca-file", Some(Deprecation::ConfigFile)),
    ("cloud-provider", None),
    ("cluster-dns", Some(Deprecation::ConfigFile)),
    ("cluster-domain", Some(Deprecation::ConfigFile)),
    ("config", None),
    ("config-dir", None),
    ("container-hints", Some(Deprecation::Cadvisor)),
    ("container-log-max-files", Some(Deprecation::ConfigFile)),
    ("container-log-max-size", Some(Deprecation::ConfigFile)),
    ("container-runtime-endpoint", Some(Deprecation::ConfigFile)),
    ("containerd", Some(Deprecation::Cadvisor)),
    ("containerd-namespace", Some(Deprecation::Cadvisor)),
    ("contention-profiling", Some(Deprecation::ConfigFile)),
    ("cpu-cfs-quota", Some(Deprecation::ConfigFile)),
    ("cpu-cfs-quota-period", Some(Deprecation::ConfigFile)),
    ("cpu-manager-policy", Some(Deprecation::ConfigFile)),
    ("cpu-manager-policy-options", Some(Deprecation::ConfigFile)),
    ("cpu-manager-reconcile-period", Some(Deprecation::ConfigFile)),
    ("enable-controller-attach-detach", Some(Deprecation::ConfigFile)),
    ("enable-debugging-handlers", Some(Deprecation::ConfigFile)),
    ("enable-load-reader", Some(Deprecation::Cadvisor)),
    ("enable-server", Some(Deprecation::ConfigFile)),
    ("enforce-node-allocatable", Some(Deprecation::ConfigFile)),
    ("event-burst", Some(Deprecation::ConfigFile)),
    ("event-qps", Some(Deprecation::ConfigFile)),
    ("event-storage-age-limit", Some(Deprecation::Cadvisor)),
    ("event-storage-event-limit", Some(Deprecation::Cadvisor)),
    ("eviction-hard", Some(Deprecation::ConfigFile)),
    ("eviction-max-pod-grace-period", Some(Deprecation::ConfigFile)),
    ("eviction-minimum-reclaim", Some(Deprecation::ConfigFile)),
    ("eviction-pressure-transition-period", Some(Deprecation::ConfigFile)),
    ("eviction-soft", Some(Deprecation::ConfigFile)),
    ("eviction-soft-grace-period", Some(Deprecation::ConfigFile)),
    ("exit-on-lock-contention", None),
    ("experimental-allocatable-ignore-eviction", Some(Deprecation::Allocatable)),
    ("experimental-mounter-path", Some(Deprecation::Mounter)),
    ("fail-cgroupv1", None),
    ("fail-swap-on", Some(Deprecation::ConfigFile)),
    ("feature-gates", Some(Deprecation::ConfigFile)),
    ("file-check-frequency", Some(Deprecation::ConfigFile)),
    ("global-housekeeping-interval", Some(Deprecation::Cadvisor)),
    ("hairpin-mode", Some(Deprecation::ConfigFile)),
    ("healthz-bind-address", Some(Deprecation::ConfigFile)),
    ("healthz-port", Some(Deprecation::ConfigFile)),
    ("help", None),
    ("hostname-override", None),
    ("housekeeping-interval", None),
    ("http-check-frequency", Some(Deprecation::ConfigFile)),
    ("image-credential-provider-bin-dir", None),
    ("image-credential-provider-config", None),
    ("image-gc-high-threshold", Some(Deprecation::ConfigFile)),
    ("image-gc-low-threshold", Some(Deprecation::ConfigFile)),
    ("image-service-endpoint", Some(Deprecation::ConfigFile)),
    ("kernel-memcg-notification", Some(Deprecation::ConfigFile)),
    ("kube-api-burst", Some(Deprecation::ConfigFile)),
    ("kube-api-content-type", Some(Deprecation::ConfigFile)),
    ("kube-api-qps", Some(Deprecation::ConfigFile)),
    ("kube-reserved", Some(Deprecation::ConfigFile)),
    ("kube-reserved-cgroup", Some(Deprecation::ConfigFile)),
    ("kubeconfig", None),
    ("kubelet-cgroups", Some(Deprecation::ConfigFile)),
    ("local-storage-capacity-isolation", Some(Deprecation::ConfigFile)),
    ("lock-file", None),
    ("log-cadvisor-usage", Some(Deprecation::Cadvisor)),
    ("log-flush-frequency", None),
    ("log-json-info-buffer-size", Some(Deprecation::ConfigFile)),
    ("log-json-split-stream", Some(Deprecation::ConfigFile)),
    ("log-text-info-buffer-size", Some(Deprecation::ConfigFile)),
    ("log-text-split-stream", Some(Deprecation::ConfigFile)),
    ("logging-format", Some(Deprecation::ConfigFile)),
    ("machine-id-file", Some(Deprecation::Cadvisor)),
    ("make-iptables-util-chains", Some(Deprecation::ConfigFile)),
    ("manifest-url", Some(Deprecation::ConfigFile)),
    ("manifest-url-header", Some(Deprecation::ConfigFile)),
    ("max-open-files", Some(Deprecation::ConfigFile)),
    ("max-pods", Some(Deprecation::ConfigFile)),
    ("maximum-dead-containers", Some(Deprecation::Eviction)),
    ("maximum-dead-containers-per-container", Some(Deprecation::Eviction)),
    ("memory-manager-policy", Some(Deprecation::ConfigFile)),
    ("minimum-container-ttl-duration", Some(Deprecation::Eviction)),
    ("minimum-image-ttl-duration", Some(Deprecation::ConfigFile)),
    ("node-ip", None),
    ("node-labels", None),
    ("node-status-max-images", Some(Deprecation::ConfigFile)),
    ("node-status-update-frequency", Some(Deprecation::ConfigFile)),
    ("oom-score-adj", Some(Deprecation::ConfigFile)),
    ("pod-cidr", Some(Deprecation::ConfigFile)),
    ("pod-manifest-path", Some(Deprecation::ConfigFile)),
    ("pod-max-pids", Some(Deprecation::ConfigFile)),
    ("pods-per-core", Some(Deprecation::ConfigFile)),
    ("port", Some(Deprecation::ConfigFile)),
    ("protect-kernel-defaults", Some(Deprecation::ConfigFile)),
    ("provider-id", None),
    ("qos-reserved", Some(Deprecation::ConfigFile)),
    ("read-only-port", Some(Deprecation::ConfigFile)),
    ("register-node", Some(Deprecation::ConfigFile)),
    ("register-with-taints", Some(Deprecation::ConfigFile)),
    ("registry-burst", Some(Deprecation::ConfigFile)),
    ("registry-qps", Some(Deprecation::ConfigFile)),
    ("reserved-cpus", Some(Deprecation::ConfigFile)),
    ("reserved-memory", Some(Deprecation::ConfigFile)),
    ("resolv-conf", Some(Deprecation::ConfigFile)),
    ("root-dir", None),
    ("rotate-certificates", Some(Deprecation::ConfigFile)),
    ("rotate-server-certificates", Some(Deprecation::ConfigFile)),
    ("runonce", Some(Deprecation::ConfigFile)),
    ("runtime-cgroups", None),
    ("runtime-request-timeout", Some(Deprecation::ConfigFile)),
    ("seccomp-default", None),
    ("serialize-image-pulls", Some(Deprecation::ConfigFile)),
    ("storage-driver-buffer-duration", Some(Deprecation::Cadvisor)),
    ("storage-driver-db", Some(Deprecation::Cadvisor)),
    ("storage-driver-host", Some(Deprecation::Cadvisor)),
    ("storage-driver-password", Some(Deprecation::Cadvisor)),
    ("storage-driver-secure", Some(Deprecation::Cadvisor)),
    ("storage-driver-table", Some(Deprecation::Cadvisor)),
    ("storage-driver-user", Some(Deprecation::Cadvisor)),
    ("streaming-connection-idle-timeout", Some(Deprecation::ConfigFile)),
    ("sync-frequency", Some(Deprecation::ConfigFile)),
    ("system-cgroups", Some(Deprecation::ConfigFile)),
    ("system-reserved", Some(Deprecation::ConfigFile)),
    ("system-reserved-cgroup", Some(Deprecation::ConfigFile)),
    ("tls-cert-file", Some(Deprecation::ConfigFile)),
    ("tls-cipher-suites", Some(Deprecation::ConfigFile)),
    ("tls-curve-preferences", Some(Deprecation::ConfigFile)),
    ("tls-min-version", Some(Deprecation::ConfigFile)),
    ("tls-private-key-file", Some(Deprecation::ConfigFile)),
    ("topology-manager-policy", Some(Deprecation::ConfigFile)),
    ("topology-manager-policy-options", Some(Deprecation::ConfigFile)),
    ("topology-manager-scope", Some(Deprecation::ConfigFile)),
    ("v", None),
    ("version", None),
    ("vmodule", None),
    ("volume-plugin-dir", Some(Deprecation::ConfigFile)),
    ("volume-stats-agg-period", Some(Deprecation::ConfigFile)),
];

/// Flags earlier kubelets had, unknown to v1.36, with the version that removed them (§3.5).
pub(crate) const REMOVED_FLAGS: &[(&str, &str)] = &[
    ("pod-infra-container-image", "1.35"),
    ("azure-container-registry-config", "1.30"),
    ("register-schedulable", "1.34"),
    ("cloud-config", "1.34"),
    ("keep-terminated-pod-volumes", "1.30"),
    ("iptables-masquerade-bit", "1.30"),
    ("iptables-drop-bit", "1.30"),
    ("container-runtime", "1.27"),
    ("network-plugin", "1.24"),
    ("cni-bin-dir", "1.24"),
    ("cni-conf-dir", "1.24"),
    ("cni-cache-dir", "1.24"),
    ("docker-endpoint", "1.24"),
    ("image-pull-progress-deadline", "1.24"),
    ("experimental-dockershim-root-directory", "1.24"),
    ("logtostderr", "1.26"),
    ("alsologtostderr", "1.26"),
    ("log-dir", "1.26"),
    ("log-file", "1.26"),
    ("log-file-max-size", "1.26"),
    ("log-backtrace-at", "1.26"),
    ("one-output", "1.26"),
    ("skip-headers", "1.26"),
    ("skip-log-headers", "1.26"),
    ("stderrthreshold", "1.26"),
    ("add-dir-header", "1.26"),
];

/// The top-level fields of the kubelet's config file (`KubeletConfiguration` v1beta1 at
/// v0.36.3, §3.6), set in Talos through `machine.kubelet.extraConfig`.
pub(crate) const CONFIG_FIELDS: &[&str] = &[
    "address",
    "allowedUnsafeSysctls",
    "authentication",
    "authorization",
    "cgroupDriver",
    "cgroupRoot",
    "cgroupsPerQOS",
    "clusterDNS",
    "clusterDomain",
    "configMapAndSecretChangeDetectionStrategy",
    "containerLogMaxFiles",
    "containerLogMaxSize",
    "containerLogMaxWorkers",
    "containerLogMonitorInterval",
    "containerRuntimeEndpoint",
    "contentType",
    "cpuCFSQuota",
    "cpuCFSQuotaPeriod",
    "cpuManagerPolicy",
    "cpuManagerPolicyOptions",
    "cpuManagerReconcilePeriod",
    "crashLoopBackOff",
    "enableContentionProfiling",
    "enableControllerAttachDetach",
    "enableDebugFlagsHandler",
    "enableDebuggingHandlers",
    "enableProfilingHandler",
    "enableServer",
    "enableSystemLogHandler",
    "enableSystemLogQuery",
    "enforceNodeAllocatable",
    "eventBurst",
    "eventRecordQPS",
    "evictionHard",
    "evictionMaxPodGracePeriod",
    "evictionMinimumReclaim",
    "evictionPressureTransitionPeriod",
    "evictionSoft",
    "evictionSoftGracePeriod",
    "failCgroupV1",
    "failSwapOn",
    "featureGates",
    "fileCheckFrequency",
    "hairpinMode",
    "healthzBindAddress",
    "healthzPort",
    "httpCheckFrequency",
    "imageGCHighThresholdPercent",
    "imageGCLowThresholdPercent",
    "imageMaximumGCAge",
    "imageMinimumGCAge",
    "imagePullCredentialsVerificationPolicy",
    "imageServiceEndpoint",
    "iptablesDropBit",
    "iptablesMasqueradeBit",
    "kernelMemcgNotification",
    "kubeAPIBurst",
    "kubeAPIQPS",
    "kubeReserved",
    "kubeReservedCgroup",
    "kubeletCgroups",
    "localStorageCapacityIsolation",
    "logging",
    "makeIPTablesUtilChains",
    "maxOpenFiles",
    "maxParallelImagePulls",
    "maxPods",
    "memoryManagerPolicy",
    "memoryReservationPolicy",
    "memorySwap",
    "memoryThrottlingFactor",
    "mergeDefaultEvictionSettings",
    "nodeLeaseDurationSeconds",
    "nodeStatusMaxImages",
    "nodeStatusReportFrequency",
    "nodeStatusUpdateFrequency",
    "oomScoreAdj",
    "podCIDR",
    "podLogsDir",
    "podPidsLimit",
    "podsPerCore",
    "port",
    "preloadedImagesVerificationAllowlist",
    "protectKernelDefaults",
    "providerID",
    "qosReserved",
    "readOnlyPort",
    "registerNode",
    "registerWithTaints",
    "registryBurst",
    "registryPullQPS",
    "reservedMemory",
    "reservedSystemCPUs",
    "resolvConf",
    "rotateCertificates",
    "runOnce",
    "runtimeRequestTimeout",
    "seccompDefault",
    "serializeImagePulls",
    "serverTLSBootstrap",
    "showHiddenMetricsForVersion",
    "shutdownGracePeriod",
    "shutdownGracePeriodByPodPriority",
    "shutdownGracePeriodCriticalPods",
    "singleProcessOOMKill",
    "staticPodPath",
    "staticPodURL",
    "staticPodURLHeader",
    "streamingConnectionIdleTimeout",
    "syncFrequency",
    "systemCgroups",
    "systemReserved",
    "systemReservedCgroup",
    "tlsCertFile",
    "tlsCipherSuites",
    "tlsCurvePreferences",
    "tlsMinVersion",
    "tlsPrivateKeyFile",
    "topologyManagerPolicy",
    "topologyManagerPolicyOptions",
    "topologyManagerScope",
    "tracing",
    "userNamespaces",
    "volumePluginDir",
    "volumeStatsAggPeriod",
];

/// The `extraConfig` fields Talos refuses (`field "<f>" can't be overridden`, §3.6;
/// `kubelet.ProtectedConfigurationFields`, in Talos's order).
pub(crate) const PROTECTED_CONFIG_FIELDS: &[&str] = &[
    "apiVersion",
    "authentication",
    "authorization",
    "cgroupRoot",
    "kind",
    "kubeletCgroups",
    "port",
    "protectKernelDefaults",
    "resolvConf",
    "rotateCertificates",
    "systemCgroups",
    "staticPodPath",
    "seccompDefault",
];

/// What the kubelet makes of one `machine.kubelet.extraArgs` key.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Flag {
    /// A flag v1.36 knows (`name` is the registered name, after `_` became `-`).
    Known {
        /// The registered name.
        name: &'static str,
        /// Whether (and why) it is deprecated: accepted, with a warning in the kubelet's log.
        deprecated: Option<Deprecation>,
    },
    /// Talos refuses the key and keeps the kubelet's previous arguments.
    Denied,
    /// `--<key>=...` is not a flag at all (an empty key, or one starting with `-`): the kubelet
    /// exits with `bad flag syntax`.
    BadSyntax,
    /// The kubelet exits at start with `unknown flag: --<name>`.
    Unknown {
        /// The name as the kubelet reports it (as typed, up to a `=`).
        name: String,
        /// What the user probably meant.
        suggestion: Option<Suggestion>,
    },
}

/// A hint for an unknown flag.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Suggestion {
    /// A known flag with a close name.
    DidYouMean(&'static str),
    /// The flag existed in an earlier Kubernetes version, removed in this one.
    Removed(&'static str),
    /// A kubelet config-file field with no flag: set `machine.kubelet.extraConfig.<field>`.
    ConfigField(&'static str),
}

/// How kubelet v1.36 (with Talos's deny-list first) takes the extraArgs key `key` (§5).
pub fn check_flag(key: &str) -> Flag {
    if DENY_LIST.contains(&key) {
        return Flag::Denied;
    }
    if key.is_empty() || key.starts_with('-') || key.starts_with('=') {
        return Flag::BadSyntax;
    }
    let name = key.split('=').next().unwrap_or(key);
    let normalized = name.replace('_', "-");
    if let Some((known, deprecated)) = FLAGS.iter().find(|(f, _)| *f == normalized) {
        return Flag::Known { name: known, deprecated: *deprecated };
    }
    Flag::Unknown { name: name.to_string(), suggestion: suggest(&normalized) }
}

fn suggest(normalized: &str) -> Option<Suggestion> {
    if let Some((_, version)) = REMOVED_FLAGS.iter().find(|(f, _)| *f == normalized) {
        return Some(Suggestion::Removed(version));
    }
    let camel = lower_camel(normalized);
    if let Some(field) = CONFIG_FIELDS.iter().find(|f| **f == camel) {
        return Some(Suggestion::ConfigField(field));
    }
    closest(normalized).map(Suggestion::DidYouMean)
}

/// `max-parallel-image-pulls` -> `maxParallelImagePulls`.
pub(crate) fn lower_camel(name: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in name.chars() {
        if c == '-' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The known flag closest to `name` (§5.6): within 2 edits (1 for names of 5 characters or
/// fewer), or sharing a prefix of at least 4 characters with it as a whole; prefix matches
/// first, then fewer edits, then flags that are not deprecated, then by name.
fn closest(name: &str) -> Option<&'static str> {
    let limit = if name.chars().count() <= 5 { 1 } else { 2 };
    FLAGS
        .iter()
        .filter_map(|(flag, deprecated)| {
            // Names whose lengths differ by more than the limit cannot be that close (and a
            // huge key must not cost a huge edit-distance table).
            let distance = if name.len().abs_diff(flag.len()) > limit { usize::MAX } else { edit_distance(name, flag) };
            let shorter = name.len().min(flag.len());
            let prefix = shorter >= 4 && (flag.starts_with(name) || name.starts_with(flag));
            (distance <= limit || prefix).then_some(((!prefix, distance, deprecated.is_some(), *flag), *flag))
        })
        .min_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, flag)| flag)
}

/// Damerau-Levenshtein distance (optimal string alignment) over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The kubelet version Talos reads from an image reference (`VersionFromImageRef`): the tag,
/// without a leading `v`, as `(major, minor, patch)`. An empty image is Talos's default
/// kubelet. `None` when the tag is not a version (`latest`, a digest only).
#[cfg(test)]
pub(crate) fn kubelet_version(image: &str) -> Option<(u64, u64, u64)> {
    kubelet_version_for(image, crate::Release::DEFAULT)
}

/// [`kubelet_version`] on a node of `release` (an empty image is that release's default kubelet).
pub(crate) fn kubelet_version_for(image: &str, release: crate::Release) -> Option<(u64, u64, u64)> {
    let text = if image.is_empty() { release.rules().default_kubernetes } else { image_tag(image)? };
    let text = text.strip_prefix('v').unwrap_or(text);
    let core = text.split(['-', '+']).next().unwrap_or(text);
    let mut parts = core.split('.').map(|p| p.parse::<u64>().ok());
    let (major, minor, patch) = (parts.next()??, parts.next()??, parts.next().flatten().unwrap_or(0));
    Some((major, minor, patch))
}

/// The tag of an image reference: after the last `:` of the last path element, before `@`.
fn image_tag(image: &str) -> Option<&str> {
    let without_digest = image.split('@').next().unwrap_or(image);
    let last = without_digest.rsplit('/').next().unwrap_or(without_digest);
    last.split_once(':').map(|(_, tag)| tag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubelet_versions_of_image_refs() {
        assert_eq!(kubelet_version(""), Some((1, 36, 3)));
        assert_eq!(kubelet_version("ghcr.io/siderolabs/kubelet:v1.35.2@sha256:0123"), Some((1, 35, 2)));
        assert_eq!(kubelet_version("registry:5000/kubelet"), None);
        assert_eq!(kubelet_version_for("", crate::Release::V1_12_11), Some((1, 35, 4)));
    }

    #[test]
    fn the_table_is_sorted_and_complete() {
        assert_eq!(FLAGS.len(), 150);
        assert!(FLAGS.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(FLAGS.iter().filter(|(_, d)| d.is_none()).count(), 24);
        assert_eq!(CONFIG_FIELDS.len(), 125);
    }

    #[test]
    fn suggestions_of_the_spec() {
        let cases = [
            ("max-pod", Some(Suggestion::DidYouMean("max-pods"))),
            ("maxpods", Some(Suggestion::DidYouMean("max-pods"))),
            ("node-labes", Some(Suggestion::DidYouMean("node-labels"))),
            ("rotate-server-certificate", Some(Suggestion::DidYouMean("rotate-server-certificates"))),
            ("cgroup-drivers", Some(Suggestion::DidYouMean("cgroup-driver"))),
            ("system-reserve", Some(Suggestion::DidYouMean("system-reserved"))),
            ("feature-gate", Some(Suggestion::DidYouMean("feature-gates"))),
            ("cluster-dns-ip", Some(Suggestion::DidYouMean("cluster-dns"))),
            ("logtostderr", Some(Suggestion::Removed("1.26"))),
            ("pod-infra-container-image", Some(Suggestion::Removed("1.35"))),
            ("max-parallel-image-pulls", Some(Suggestion::ConfigField("maxParallelImagePulls"))),
            ("shutdown-grace-period", Some(Suggestion::ConfigField("shutdownGracePeriod"))),
            ("zzzz", None),
        ];
        for (key, want) in cases {
            assert_eq!(check_flag(key), Flag::Unknown { name: key.into(), suggestion: want }, "{key}");
        }
    }

    #[test]
    fn syntax_and_denied() {
        assert_eq!(check_flag(""), Flag::BadSyntax);
        assert_eq!(check_flag("-x"), Flag::BadSyntax);
        assert_eq!(check_flag("cert-dir"), Flag::Denied);
        assert_eq!(
            check_flag("max-pods=1"),
            Flag::Known { name: "max-pods", deprecated: Some(Deprecation::ConfigFile) }
        );
        assert_eq!(check_flag("windows-service"), Flag::Unknown { name: "windows-service".into(), suggestion: None });
    }
}
