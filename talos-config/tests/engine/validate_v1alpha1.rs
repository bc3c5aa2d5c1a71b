//! `v1alpha1.Config.Validate` against Talos v1.13.9 (docs/validation.md §4, §11.1, §11.2), and the
//! container-level texts it feeds (§0, §2.3, §9.1). Every case is YAML loaded through
//! `Config::from_bytes`, so decoding is exercised too.

use crate::common;

use talos_config::Config;
use talos_config::model::v1alpha1;
use talos_config::testing::{Context, Validate, render_list};
use talos_config::{Mode, Options};

const EXT_WARNING: &str = ".machine.install.extensions is deprecated, please see https://docs.siderolabs.com/talos/latest/platform-specific-installations/boot-assets";

/// Runs the legacy document's checks directly (no `v1alpha1.Config:` wrapper).
fn run(yaml: &str, mode: Mode, strict: bool) -> (String, Vec<String>) {
    let cfg = Config::from_bytes(yaml.as_bytes()).unwrap_or_else(|e| panic!("load failed: {e}\n{yaml}"));
    let doc = cfg.get::<v1alpha1::Config>().expect("a v1alpha1 document");
    let docs: Vec<&dyn talos_config::Document> = cfg.docs().collect();
    let cx =
        Context { mode, options: Options { strict, ..Options::default() }, docs: &docs, release: Default::default() };
    let found = Validate::validate(doc, &cx);
    let text = if found.errors.is_empty() { String::new() } else { render_list(&found.errors) };
    (text, found.warnings.into_iter().map(|w| w.message).collect())
}

fn check(yaml: &str, mode: Mode, strict: bool, err: &str, warnings: &[&str]) {
    let (text, warns) = run(yaml, mode, strict);
    assert_eq!(text, err, "errors for\n{yaml}");
    assert_eq!(warns, warnings, "warnings for\n{yaml}");
}

fn one(e: &str) -> String {
    format!("1 error occurred:\n\t* {e}\n\n")
}

fn many(es: &[&str]) -> String {
    format!("{} errors occurred:\n\t* {}\n\n", es.len(), es.join("\n\t* "))
}

const CLUSTER: &str = "cluster:\n  controlPlane:\n    endpoint: https://localhost:6443/\n";

/// A worker with `machine.ca.crt` "foo"; `m` and `c` are extra lines under `machine:` and
/// `cluster:` (2-space indented).
fn worker(m: &str, c: &str) -> String {
    format!("version: v1alpha1\nmachine:\n  type: worker\n  ca:\n    crt: Zm9v\n{m}{CLUSTER}{c}")
}

/// A control plane with `machine.ca` crt "foo", key "bar".
fn cp(m: &str, c: &str) -> String {
    format!("version: v1alpha1\nmachine:\n  type: controlplane\n  ca:\n    crt: Zm9v\n    key: YmFy\n{m}{CLUSTER}{c}")
}

macro_rules! case {
    ($name:ident, $yaml:expr, $mode:expr, $strict:expr, $err:expr, [$($w:expr),*]) => {
        #[test]
        fn $name() {
            let err: String = $err.into();
            check(&$yaml, $mode, $strict, &err, &[$($w),*]);
        }
    };
}

const OK: &str = "";
const CLOUD: Mode = Mode::Cloud;
/// The upstream cases use a fake mode with `RequiresInstall()` true; `metal` is that mode.
const METAL: Mode = Mode::Metal;

// ---- §11.1 machine type and CA ----
case!(t01_no_machine, "version: v1alpha1\npersist: true\n", CLOUD, false, one("machine instructions are required"), []);
case!(
    t02_no_machine_type,
    format!("version: v1alpha1\nmachine:\n  ca:\n    crt: Zm9v\n{CLUSTER}"),
    CLOUD,
    false,
    OK,
    ["use \"worker\" instead of \"\" for machine type"]
);
case!(
    t03_join_machine_type,
    format!("version: v1alpha1\nmachine:\n  type: join\n  ca:\n    crt: Zm9v\n{CLUSTER}"),
    CLOUD,
    false,
    OK,
    ["use \"worker\" instead of \"join\" for machine type"]
);
case!(
    t04_no_machine_type_strict,
    format!("version: v1alpha1\nmachine:\n  ca:\n    crt: Zm9v\n{CLUSTER}"),
    CLOUD,
    true,
    one("warning: use \"worker\" instead of \"\" for machine type"),
    []
);
case!(
    t05_worker_no_accepted_cas,
    format!("version: v1alpha1\nmachine:\n  type: worker\n  ca: {{}}\n{CLUSTER}"),
    CLOUD,
    true,
    one("trusted CA certificates are required on non-controlplane nodes (.machine.ca.crt, .machine.acceptedCAs)"),
    []
);
case!(
    t06_worker_only_accepted_cas,
    format!("version: v1alpha1\nmachine:\n  type: worker\n  acceptedCAs:\n    - crt: Zm9v\n{CLUSTER}"),
    CLOUD,
    true,
    OK,
    []
);
case!(
    t07_controlplane_no_ca_key,
    format!("version: v1alpha1\nmachine:\n  type: controlplane\n  ca:\n    crt: Zm9v\n{CLUSTER}"),
    CLOUD,
    true,
    one("issuing CA key is required for controlplane nodes (.machine.ca.key)"),
    []
);

// ---- install ----
case!(t08_no_machine_install, worker("", ""), CLOUD, false, OK, []);
case!(
    t09_no_machine_install_required,
    worker("", ""),
    METAL,
    false,
    one("install instructions are required in \"metal\" mode"),
    []
);
case!(t10_machine_install_disk, worker("  install:\n    disk: /dev/vda\n", ""), METAL, false, OK, []);
case!(
    t11_machine_install_extensions,
    worker("  install:\n    disk: /dev/vda\n    extensions:\n      - image: ghcr.io/siderolabs/gvisor:v0.1.0\n", ""),
    METAL,
    false,
    OK,
    [EXT_WARNING]
);
case!(
    t12_extra_args_and_uki_cmdline,
    worker("  install:\n    disk: /dev/vda\n    extraKernelArgs: [foo=bar]\n    grubUseUKICmdline: true\n", ""),
    METAL,
    false,
    one("install.extraKernelArgs and install.grubUseUKICmdline can't be used together"),
    []
);

// ---- external cloud provider, inline manifests, DNS domain ----
case!(
    t13_ecp_enabled,
    worker(
        "",
        "  externalCloudProvider:\n    enabled: true\n    manifests:\n      - https://www.example.com/manifest1.yaml\n      - https://www.example.com/manifest2.yaml\n"
    ),
    CLOUD,
    false,
    OK,
    []
);
case!(t14_ecp_enabled_no_manifests, worker("", "  externalCloudProvider:\n    enabled: true\n"), CLOUD, false, OK, []);
case!(t15_ecp_disabled, worker("", "  externalCloudProvider: {}\n"), CLOUD, false, OK, []);
case!(
    t16_ecp_extra_manifests,
    worker(
        "",
        "  externalCloudProvider:\n    manifests:\n      - https://www.example.com/manifest1.yaml\n      - https://www.example.com/manifest2.yaml\n"
    ),
    CLOUD,
    false,
    one("external cloud provider is disabled, but manifests are provided"),
    []
);
case!(
    t17_ecp_invalid_manifests,
    worker("", "  externalCloudProvider:\n    enabled: true\n    manifests:\n      - /manifest.yaml\n"),
    CLOUD,
    false,
    one("invalid external cloud provider manifest url \"/manifest.yaml\": hostname must not be blank"),
    []
);
case!(
    t18_inline_manifests,
    cp(
        "",
        "  inlineManifests:\n    - name: \"\"\n      contents: a\n    - name: foo\n      contents: b\n    - name: bar\n      contents: c\n    - name: foo\n      contents: d\n"
    ),
    CLOUD,
    false,
    many(&["inline manifest name can't be empty", "inline manifest name \"foo\" is duplicate"]),
    []
);
case!(t19_dns_domain_empty, worker("", "  network: {}\n"), CLOUD, false, OK, []);

// ---- interface addressing ----
const CIDR_WARN: &str =
    "\"eth0\": machine.network.interface.cidr is deprecated, please use machine.network.interface.addresses";
case!(
    t20_device_cidr_invalid,
    cp("  network:\n    interfaces:\n      - interface: eth0\n        cidr: 10.3.x\n", ""),
    CLOUD,
    false,
    one("[networking.os.device.CIDR] \"eth0\": failed to parse IP address \"10.3.x\""),
    [CIDR_WARN]
);
case!(
    t21_device_address_invalid,
    cp(
        "  network:\n    interfaces:\n      - interface: eth0\n        addresses: [192.168.0.5/24, 10.35.7.8, 10.3.x/24]\n",
        ""
    ),
    CLOUD,
    false,
    one("[networking.os.device.addresses] \"eth0\": invalid CIDR address: 10.3.x/24"),
    []
);
case!(
    t22_device_address_and_cidr,
    cp(
        "  network:\n    interfaces:\n      - interface: eth0\n        cidr: 192.24.3.45\n        addresses: [192.168.0.5/24]\n",
        ""
    ),
    CLOUD,
    false,
    one("[networking.os.device] \"eth0\": interface can't have both .cidr and .addresses set"),
    [CIDR_WARN]
);

// ---- VLANs ----
case!(
    t23_vlan_cidr_invalid,
    cp(
        "  network:\n    interfaces:\n      - interface: eth0\n        vlans:\n          - vlanId: 25\n            cidr: 10.3.x\n",
        ""
    ),
    CLOUD,
    false,
    one("[networking.os.device.vlan.CIDR] eth0.25: failed to parse IP address \"10.3.x\""),
    []
);
case!(
    t24_vlan_address_invalid,
    cp(
        "  network:\n    interfaces:\n      - interface: eth0\n        vlans:\n          - vlanId: 25\n            addresses: [192.168.0.5/24, 10.35.7.8, 10.3.x/24]\n",
        ""
    ),
    CLOUD,
    false,
    one("[networking.os.device.vlan.addresses] eth0.25: invalid CIDR address: 10.3.x/24"),
    []
);
case!(
    t25_vlan_address_and_cidr,
    cp(
        "  network:\n    interfaces:\n      - interface: eth0\n        vlans:\n          - vlanId: 26\n            cidr: 192.168.0.6\n            addresses: [192.168.0.5/24]\n",
        ""
    ),
    CLOUD,
    false,
    one("[networking.os.device.vlan] eth0.26: vlan can't have both .cidr and .addresses set"),
    []
);

// ---- bonds and bridges ----
case!(
    t26_bond_default,
    cp("  network:\n    interfaces:\n      - interface: bond0\n        bond: {}\n", ""),
    CLOUD,
    false,
    OK,
    []
);
case!(
    t27_bond_wrong_mode,
    cp(
        "  network:\n    interfaces:\n      - interface: bond0\n        bond:\n          mode: roundrobin\n          updelay: 100\n          packetsPerSlave: 8\n          adActorSysPrio: 48\n          interfaces: [eth0, eth1]\n",
        ""
    ),
    CLOUD,
    false,
    many(&[
        "invalid bond type roundrobin",
        "bond.upDelay can't be set if miiMon is zero",
        "bond.adActorSysPrio is only available in 802.3ad mode"
    ]),
    []
);
case!(
    t28_bond_interfaces_and_selectors,
    cp(
        "  network:\n    interfaces:\n      - interface: bond0\n        bond:\n          interfaces: [eth0, eth1]\n          deviceSelectors:\n            - driver: virtio\n",
        ""
    ),
    CLOUD,
    false,
    one("interface \"bond0\" has both interfaces and selectors set: config sections are mutually exclusive"),
    []
);
case!(
    t29_bond_double_bond,
    cp(
        "  network:\n    interfaces:\n      - interface: bond0\n        bond:\n          interfaces: [eth0, eth1]\n      - interface: bond1\n        bond:\n          interfaces: [eth1, eth2]\n",
        ""
    ),
    CLOUD,
    false,
    one("interface \"eth1\" is declared as part of two separate links: \"bond0\" and \"bond1\""),
    []
);
fn slaves(kind: &str, name: &str) -> String {
    cp(
        &format!(
            "  network:\n    interfaces:\n      - interface: {name}\n        {kind}:\n          interfaces: [eth0, eth1, eth2]\n      - interface: eth0\n        dhcp: true\n      - interface: eth1\n        addresses: [192.168.0.5/24]\n      - interface: eth2\n        cidr: 192.168.0.6/24\n"
        ),
        "",
    )
}
const SLAVE_ERRS: &[&str] = &[
    "[networking.os.device] \"eth0\": bonded/bridged interface shouldn't have any addressing methods configured",
    "[networking.os.device] \"eth1\": bonded/bridged interface shouldn't have any addressing methods configured",
    "[networking.os.device] \"eth2\": bonded/bridged interface shouldn't have any addressing methods configured",
];
const ETH2_WARN: &str =
    "\"eth2\": machine.network.interface.cidr is deprecated, please use machine.network.interface.addresses";
case!(t30_bond_slave_addressing, slaves("bond", "bond0"), CLOUD, false, many(SLAVE_ERRS), [ETH2_WARN]);
case!(t31_bridge_slave_addressing, slaves("bridge", "br0"), CLOUD, false, many(SLAVE_ERRS), [ETH2_WARN]);
case!(
    t32_bridge_double_bridge,
    cp(
        "  network:\n    interfaces:\n      - interface: br0\n        bridge:\n          interfaces: [eth0, eth1]\n      - interface: br1\n        bridge:\n          interfaces: [eth1, eth2]\n",
        ""
    ),
    CLOUD,
    false,
    one("interface \"eth1\" is declared as part of two separate links: \"br0\" and \"br1\""),
    []
);
case!(
    t33_both_bridge_and_bond,
    cp("  network:\n    interfaces:\n      - interface: bridgebond0\n        bond: {}\n        bridge: {}\n", ""),
    CLOUD,
    false,
    one("interface has both bridge and bond sections set \"bridgebond0\": config sections are mutually exclusive"),
    []
);
case!(
    t34_part_of_bridge_and_bond,
    cp(
        "  network:\n    interfaces:\n      - interface: br0\n        bridge:\n          interfaces: [eth0, eth1]\n      - interface: bond0\n        bond:\n          interfaces: [eth1, eth2]\n",
        ""
    ),
    CLOUD,
    false,
    one("interface \"eth1\" is declared as part of two separate links: \"br0\" and \"bond0\""),
    []
);

// ---- wireguard and routes ----
case!(
    t35_wireguard,
    cp(
        "  network:\n    interfaces:\n      - interface: wg0\n        wireguard:\n          privateKey: AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n          peers:\n            - {}\n            - publicKey: AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=\n              endpoint: 12.3.4.5:1234\n              allowedIPs: [10.2.0.0/16]\n            - publicKey: 4A3rogGVHuVjeZz5cbqryWXGkGBdIGC0E6+5mX2Iz1==\n              endpoint: 12.3.4.5\n              allowedIPs: [10.2.0]\n",
        ""
    ),
    CLOUD,
    false,
    many(&[
        "public key invalid: wrong key \"\" length: 0",
        "public key invalid: wrong key \"4A3rogGVHuVjeZz5cbqryWXGkGBdIGC0E6+5mX2Iz1==\" length: 31",
        "peer endpoint \"12.3.4.5\" is invalid",
        "peer allowed IP \"10.2.0\" is invalid: invalid CIDR address: 10.2.0"
    ]),
    []
);
case!(
    t36_static_routes,
    cp(
        "  network:\n    interfaces:\n      - interface: eth0\n        routes:\n          - gateway: 172.0.0.1\n          - network: 10.0.0.0/8\n            gateway: 10.0.0.1\n          - network: 10.0.0.0/8\n            gateway: 10.0.0.1\n            source: 10.0.0.3\n          - gateway: 172.0.0.x\n          - network: 10.0.0.0\n            gateway: 10.0.0.1\n          - gateway: 10.0.0.1\n            source: 10.0.0.3/32\n          - network: 169.254.254.254/32\n          - source: 10.0.0.3\n",
        ""
    ),
    CLOUD,
    false,
    many(&[
        "[networking.os.device.route[3].gateway] \"172.0.0.x\": invalid network address",
        "[networking.os.device.route[4].network] \"10.0.0.0\": invalid network address",
        "[networking.os.device.route[5].source] \"10.0.0.3/32\": invalid network address",
        "[networking.os.device.route[7]]: either network or gateway should be set"
    ]),
    []
);

// ---- KubeSpan and discovery ----
case!(
    t37_kubespan_no_discovery,
    cp("  network:\n    kubespan:\n      enabled: true\n", ""),
    CLOUD,
    false,
    many(&[
        ".cluster.discovery should be enabled when .machine.network.kubespan is enabled",
        ".cluster.id should be set when .machine.network.kubespan is enabled",
        ".cluster.secret should be set when .machine.network.kubespan is enabled"
    ]),
    []
);
case!(
    t38_discovery_service_endpoint,
    cp(
        "",
        "  id: foo\n  secret: bar\n  discovery:\n    enabled: true\n    registries:\n      service:\n        endpoint: foo\n"
    ),
    CLOUD,
    false,
    one("cluster discovery service registry endpoint is invalid: parse \"foo\": invalid URI for request"),
    []
);
case!(
    t39_discovery_cluster_id_secret,
    cp("", "  discovery:\n    enabled: true\n"),
    CLOUD,
    false,
    many(&["cluster discovery service requires .cluster.id", "cluster discovery service requires .cluster.secret"]),
    []
);

// ---- etcd ----
case!(t40_etcd_missing_ca, cp("", "  etcd: {}\n"), CLOUD, false, one("key/cert combination should not be empty"), []);
case!(
    t41_etcd_for_worker,
    worker("", "  etcd: {}\n"),
    CLOUD,
    false,
    one("etcd config is only allowed on control plane machines"),
    []
);
case!(
    t42_good_etcd_subnet,
    cp(
        "",
        "  etcd:\n    ca: {}\n    advertisedSubnets: [10.0.0.0/8, \"!1.1.1.1/32\"]\n    listenSubnets: [10.0.0.0/8, 1.1.1.1/32]\n"
    ),
    CLOUD,
    false,
    OK,
    []
);
case!(
    t43_bad_etcd_subnet,
    cp("", "  etcd:\n    ca: {}\n    advertisedSubnets: [\"1234:\"]\n    listenSubnets: [\"10\"]\n"),
    CLOUD,
    false,
    many(&["etcd advertised subnet is not valid: \"1234:\"", "etcd listen subnet is not valid: \"10\""]),
    []
);

// ---- kubelet ----
case!(
    t44_good_kubelet_subnet,
    worker(
        "  kubelet:\n    nodeIP:\n      validSubnets: [10.0.0.0/8, \"!10.0.0.3/32\", \"!fd00::169:254:2:53/128\"]\n",
        ""
    ),
    CLOUD,
    false,
    OK,
    []
);
case!(
    t45_bad_kubelet_subnet,
    worker("  kubelet:\n    nodeIP:\n      validSubnets: [10.0.0.0.3, \"[fd00::169:254:2:53]:344\"]\n", ""),
    CLOUD,
    false,
    many(&[
        "kubelet nodeIP subnet is not valid: \"10.0.0.0.3\"",
        "kubelet nodeIP subnet is not valid: \"[fd00::169:254:2:53]:344\""
    ]),
    []
);
case!(
    t46_bad_kubelet_extra_config,
    format!(
        "version: v1alpha1\nmachine:\n  type: worker\n  acceptedCAs:\n    - crt: Zm9v\n  kubelet:\n    extraConfig:\n      port: 345\n{CLUSTER}"
    ),
    CLOUD,
    false,
    one("kubelet configuration field \"port\" can't be overridden"),
    []
);

// ---- device selectors ----
case!(
    t47_device_interface_invalid,
    cp("  network:\n    interfaces:\n      - {}\n", ""),
    CLOUD,
    false,
    one(
        "[networking.os.device.interface], [networking.os.device.deviceSelector]: required either config section to be set"
    ),
    []
);
case!(
    t48_device_selector_and_interface,
    cp(
        "  network:\n    interfaces:\n      - interface: eth0\n        deviceSelector:\n          busPath: \"00:01\"\n",
        ""
    ),
    CLOUD,
    false,
    one(
        "[networking.os.device.interface], [networking.os.device.deviceSelector]: config sections are mutually exclusive"
    ),
    []
);
case!(
    t49_device_selector_empty,
    cp("  network:\n    interfaces:\n      - deviceSelector: {}\n", ""),
    CLOUD,
    false,
    one("[networking.os.device.deviceSelector]: config section should contain at least one field"),
    []
);

// ---- Talos API access ----
case!(
    t50_talos_api_access_worker,
    worker("  features:\n    rbac: true\n    kubernetesTalosAPIAccess:\n      enabled: true\n", ""),
    CLOUD,
    false,
    one("feature Kubernetes Talos API Access can only be enabled on control plane machines"),
    []
);
case!(
    t51_talos_api_access_invalid_role,
    cp(
        "  features:\n    rbac: true\n    kubernetesTalosAPIAccess:\n      enabled: true\n      allowedRoles: [\"os:reader\", \"invalid:role1\", \"os:etcd:backup\", \"invalid:role2\"]\n",
        ""
    ),
    CLOUD,
    false,
    many(&[
        "invalid role \"invalid:role1\" in allowed roles for Kubernetes Talos API Access",
        "invalid role \"invalid:role2\" in allowed roles for Kubernetes Talos API Access"
    ]),
    []
);

// ---- node labels (rules in crate::labels) ----
#[test]
fn t52_node_labels() {
    let long = "a".repeat(64);
    let yaml = worker(
        &format!(
            "  nodeLabels:\n    /foo: bar\n    key: value\n    talos.dev/foo: bar\n    \"@!\": \"#$\"\n    123@.dev/: \"456\"\n    a/b/c: {long}\n"
        ),
        "",
    );
    let inner = format!(
        "6 errors occurred:\n\t* prefix cannot be empty: \"/foo\"\n\t* prefix \"123@.dev\" is invalid: domain doesn't match required format: \"123@.dev\"\n\t* name \"@!\" is invalid\n\t* label value \"#$\" is invalid\n\t* invalid format: too many slashes: \"a/b/c\"\n\t* label value length exceeds limit of 63: \"{long}\"\n\n"
    );
    check(&yaml, CLOUD, false, &one(&format!("invalid machine node labels: {inner}")), &[]);
}

#[test]
fn node_annotations_and_taints_nest() {
    let yaml = worker(
        "  nodeAnnotations:\n    talos.dev/owned-labels: x\n    a b: anything\n  nodeTaints:\n    t1: NoSchedule\n    t3: value\n",
        "",
    );
    check(
        &yaml,
        CLOUD,
        false,
        &many(&[
            "invalid machine node annotations: 2 errors occurred:\n\t* name \"a b\" is invalid\n\t* annotation \"talos.dev/owned-labels\" is reserved\n\n",
            "invalid machine node taints: 1 error occurred:\n\t* invalid taint effect: \"value\"\n\n",
        ]),
        &[],
    );
}

// ---- KubeSpan filters and MTU ----
const KS: &str = "  id: foo\n  secret: bar\n  discovery:\n    enabled: true\n";
case!(
    t53_good_kubespan_endpoint_filters,
    worker(
        "  network:\n    kubespan:\n      enabled: true\n      filters:\n        endpoints: [0.0.0.0/0, \"::/0\", \"!192.168.0.0/16\"]\n",
        KS
    ),
    CLOUD,
    false,
    OK,
    []
);
case!(
    t54_bad_kubespan_endpoint_filters,
    worker(
        "  network:\n    kubespan:\n      enabled: true\n      filters:\n        endpoints: [\"!10\", \"123::/456\"]\n",
        KS
    ),
    CLOUD,
    false,
    many(&["KubeSpan endpoint filter is not valid: \"10\"", "KubeSpan endpoint filter is not valid: \"123::/456\""]),
    []
);
case!(
    t55_good_kubespan_advertised_filters,
    worker(
        "  network:\n    kubespan:\n      enabled: true\n      filters:\n        excludeAdvertisedNetworks: [0.0.0.0/0, 10.0.0.0/8, 172.16.0.0/12, \"::/0\"]\n",
        KS
    ),
    CLOUD,
    false,
    OK,
    []
);
case!(
    t56_bad_kubespan_advertised_filters,
    worker(
        "  network:\n    kubespan:\n      enabled: true\n      filters:\n        excludeAdvertisedNetworks: [invalid, \"123::/456\"]\n",
        KS
    ),
    CLOUD,
    false,
    many(&[
        "KubeSpan exclude advertised networks filter is not valid: \"invalid\"",
        "KubeSpan exclude advertised networks filter is not valid: \"123::/456\""
    ]),
    []
);
case!(
    t57_kubespan_small_mtu,
    worker("  network:\n    kubespan:\n      enabled: true\n      mtu: 576\n", KS),
    CLOUD,
    false,
    one("kubespan link MTU must be at least 1280"),
    []
);

// ---- control-plane components ----
case!(
    t58_control_plane_pod_resources,
    cp(
        "",
        "  apiServer:\n    resources:\n      requests:\n        cpu: 1\n        invalid1: 1\n  controllerManager:\n    resources:\n      limits:\n        memory: 1\n        invalid2: 1\n  scheduler:\n    resources:\n      requests:\n        cpu: 1\n      limits:\n        invalid3: 1\n"
    ),
    CLOUD,
    false,
    many(&[
        "apiserver resource validation failed: unsupported pod resource \"invalid1\"",
        "controller-manager resource validation failed: unsupported pod resource \"invalid2\"",
        "scheduler resource validation failed: unsupported pod resource \"invalid3\""
    ]),
    []
);
case!(
    t59_invalid_authorization_config,
    cp("", "  apiServer:\n    authorizationConfig:\n      - name: foo\n"),
    CLOUD,
    false,
    one("apiserver authorization config validation failed: authorizer type must be set"),
    []
);
// Upstream uses an empty (non-nil) authorizationConfig list: `[]` counts as set.
case!(
    t60_authorization_config_with_mode_flag,
    cp("", "  apiServer:\n    authorizationConfig: []\n    extraArgs:\n      authorization-mode: Node\n"),
    CLOUD,
    false,
    one(
        "authorization-mode cannot be used in conjunction with AuthorizationConfig, use eitherr AuthorizationConfig or authorization-mode"
    ),
    []
);
case!(
    t61_authorization_config_with_webhook_flag,
    cp("", "  apiServer:\n    authorizationConfig: []\n    extraArgs:\n      authorization-webhook-version: v1\n"),
    CLOUD,
    false,
    one(
        "authorization-webhook-* flags cannot be used in conjunction with AuthorizationConfig, use either AuthorizationConfig or authorization-webhook-* flags"
    ),
    []
);

// ---- miscellaneous ----
case!(
    t62_base_runtime_spec_overrides,
    cp(
        "  baseRuntimeSpecOverrides:\n    process:\n      rlimits:\n        - type: RLIMIT_NOFILE\n          hard: 1024\n          soft: 1024\n",
        ""
    ),
    CLOUD,
    false,
    OK,
    []
);
case!(
    t63_invalid_address_sorting_algorithm,
    cp("  features:\n    nodeAddressSortAlgorithm: xyz\n", ""),
    CLOUD,
    false,
    one("invalid node address sort algorithm: xyz does not belong to AddressSortAlgorithm values"),
    []
);
case!(
    t64_forward_kube_dns_without_host_dns,
    cp("  features:\n    hostDNS:\n      enabled: false\n      forwardKubeDNSToHost: true\n", ""),
    CLOUD,
    false,
    one("feature hostDNS.forwardKubeDNSToHost requires hostDNS.enabled to be true (.machine.features.hostDNS)"),
    []
);

// ---- §11.2 ValidateCNI (through Validate on a control plane) ----
fn cni(block: &str) -> String {
    cp("", &format!("  network:\n{block}"))
}
case!(cni_nil, cni("    dnsDomain: cluster.local\n"), CLOUD, false, OK, []);
case!(
    cni_empty,
    cni("    cni: {}\n"),
    CLOUD,
    false,
    one("cni name should be one of [\"flannel\", \"custom\", \"none\"]"),
    []
);
case!(cni_flannel_no_manifests, cni("    cni:\n      name: flannel\n"), CLOUD, false, OK, []);
case!(
    cni_flannel_manifests,
    cni("    cni:\n      name: flannel\n      urls: [https://example.com/cni.yaml]\n"),
    CLOUD,
    false,
    one("\"urls\" field should be empty for \"flannel\" CNI"),
    []
);
case!(
    cni_flannel_extra_args,
    cni(
        "    cni:\n      name: flannel\n      flannel:\n        extraArgs: [--foo]\n        kubeNetworkPoliciesEnabled: true\n"
    ),
    CLOUD,
    false,
    OK,
    []
);
case!(
    cni_custom_no_manifests,
    cni("    cni:\n      name: custom\n"),
    CLOUD,
    false,
    OK,
    ["\"urls\" field should not be empty for \"custom\" CNI"]
);
case!(
    cni_custom_flannel_extra_args,
    cni(
        "    cni:\n      name: custom\n      urls: [https://example.com/cni.yaml]\n      flannel:\n        extraArgs: [--foo]\n"
    ),
    CLOUD,
    false,
    one("\"flanneldExtraArgs\" field should be empty for \"custom\" CNI"),
    []
);
case!(
    cni_custom_policies_disabled,
    cni(
        "    cni:\n      name: custom\n      urls: [https://example.com/cni.yaml]\n      flannel:\n        kubeNetworkPoliciesEnabled: false\n"
    ),
    CLOUD,
    false,
    OK,
    []
);
case!(
    cni_custom_policies_enabled,
    cni(
        "    cni:\n      name: custom\n      urls: [https://example.com/cni.yaml]\n      flannel:\n        kubeNetworkPoliciesEnabled: true\n"
    ),
    CLOUD,
    false,
    one("\"flannelKubeNetworkPoliciesEnabled\" should not be enabled for \"custom\" CNI"),
    []
);
case!(
    cni_custom_manifests,
    cni("    cni:\n      name: custom\n      urls: [https://example.com/cni.yaml]\n"),
    CLOUD,
    false,
    OK,
    []
);
case!(
    cni_custom_bad_url,
    cni("    cni:\n      name: custom\n      urls: [/cni.yaml]\n"),
    CLOUD,
    false,
    one("hostname must not be blank"),
    []
);
case!(cni_none_no_manifests, cni("    cni:\n      name: none\n"), CLOUD, false, OK, []);
case!(
    cni_none_manifests,
    cni("    cni:\n      name: none\n      urls: [https://example.com/cni.yaml]\n"),
    CLOUD,
    false,
    one("\"urls\" field should be empty for \"none\" CNI"),
    []
);
case!(
    cni_none_extra_args,
    cni("    cni:\n      name: none\n      flannel:\n        extraArgs: [--foo]\n"),
    CLOUD,
    false,
    one("\"flanneldExtraArgs\" field should be empty for \"none\" CNI"),
    []
);
case!(
    cni_none_policies_enabled,
    cni("    cni:\n      name: none\n      flannel:\n        kubeNetworkPoliciesEnabled: true\n"),
    CLOUD,
    false,
    one("\"flannelKubeNetworkPoliciesEnabled\" should not be enabled for \"none\" CNI"),
    []
);
case!(cni_worker_not_checked, worker("", "  network:\n    cni: {}\n"), CLOUD, false, OK, []);

// ---- other checks of §4, one exact string each ----
case!(
    no_cluster,
    "version: v1alpha1\nmachine:\n  type: worker\n  ca:\n    crt: Zm9v\n",
    CLOUD,
    false,
    one("cluster instructions are required"),
    []
);
case!(
    no_endpoint,
    "version: v1alpha1\nmachine:\n  type: worker\n  ca:\n    crt: Zm9v\ncluster:\n  controlPlane: {}\n",
    CLOUD,
    false,
    one("cluster controlplane endpoint is required"),
    []
);
case!(
    bad_endpoint_port,
    "version: v1alpha1\nmachine:\n  type: worker\n  ca:\n    crt: Zm9v\ncluster:\n  controlPlane:\n    endpoint: https://host:0\n",
    CLOUD,
    false,
    one("invalid controlplane endpoint: port number must be between 1 and 65535"),
    []
);
case!(
    bad_dns_domain,
    worker("", "  network:\n    dnsDomain: -bad\n"),
    CLOUD,
    false,
    one("\"-bad\" is not a valid DNS name"),
    []
);
case!(
    etcd_subnet_and_advertised,
    cp("", "  etcd:\n    ca: {}\n    subnet: 10.0.0.0/8\n    advertisedSubnets: [10.0.0.0/8]\n"),
    CLOUD,
    false,
    one("etcd subnet can't be set when advertised subnets are set"),
    []
);
case!(
    etcd_bad_advertised_reported_twice,
    cp("", "  etcd:\n    ca: {}\n    advertisedSubnets: [x]\n"),
    CLOUD,
    false,
    many(&["etcd advertised subnet is not valid: \"x\"", "etcd listen subnet is not valid: \"x\""]),
    []
);
case!(
    worker_cluster_ca_key_twice,
    worker("", "  ca:\n    crt: Zm9v\n    key: YmFy\n"),
    CLOUD,
    false,
    many(&[
        "cluster CA key is not allowed on non-controlplane nodes (.cluster.ca)",
        "issuing Kubernetes API CA key is not allowed on non-controlplane nodes (.cluster.ca)"
    ]),
    []
);
case!(
    worker_machine_ca_key,
    worker("", "").replace("    crt: Zm9v\n", "    crt: Zm9v\n    key: YmFy\n"),
    CLOUD,
    false,
    one("issuing Talos API CA key is not allowed on non-controlplane nodes (.machine.ca)"),
    []
);
case!(
    discovery_path,
    cp(
        "",
        "  id: a\n  secret: b\n  discovery:\n    enabled: true\n    registries:\n      service:\n        endpoint: https://x/path\n"
    ),
    CLOUD,
    false,
    one("cluster discovery service path should be empty"),
    []
);
case!(
    authorizer_name_and_type,
    cp("", "  apiServer:\n    authorizationConfig:\n      - type: Foo\n        name: foo\n"),
    CLOUD,
    false,
    one(
        "apiserver authorization config validation failed: authorizer type Foo is not allowed, allowed types are [Node RBAC Webhook]"
    ),
    []
);
case!(
    install_selector_name,
    worker("  install:\n    diskSelector:\n      name: sda\n", ""),
    METAL,
    false,
    many(&[
        "install disk selector is invalid: selector on name is not supported",
        "either install disk or diskSelector should be defined"
    ]),
    []
);
case!(
    install_selector_type,
    worker("  install:\n    disk: /dev/sda\n    diskSelector:\n      type: floppy\n", ""),
    METAL,
    false,
    one("install disk selector is invalid: unsupported disk type \"floppy\""),
    []
);
#[test]
fn metal_installed_does_not_require_install() {
    let cfg = Config::from_bytes(worker("", "").as_bytes()).unwrap();
    let doc = cfg.get::<v1alpha1::Config>().unwrap();
    let docs: Vec<&dyn talos_config::Document> = cfg.docs().collect();
    let cx = Context {
        mode: METAL,
        options: Options { installed: true, ..Options::default() },
        docs: &docs,
        release: Default::default(),
    };
    assert_eq!(Validate::validate(doc, &cx).errors, vec![]);
}
case!(
    container_needs_host_dns,
    worker("  features:\n    hostDNS:\n      forwardKubeDNSToHost: true\n", ""),
    Mode::Container,
    false,
    many(&[
        "feature HostDNS should be enabled in container mode (.machine.features.hostDNS.enabled)",
        "feature hostDNS.forwardKubeDNSToHost requires hostDNS.enabled to be true (.machine.features.hostDNS)"
    ]),
    []
);
case!(
    unknown_machine_type,
    worker("", "").replace("type: worker", "type: master"),
    CLOUD,
    false,
    one("unknown machine type \"master\""),
    []
);
case!(
    no_ca_at_all_controlplane,
    format!("version: v1alpha1\nmachine:\n  type: init\n{CLUSTER}"),
    CLOUD,
    false,
    many(&[
        "issuing CA or some accepted CAs are required (.machine.ca, machine.acceptedCAs)",
        "issuing CA is required (.machine.ca)"
    ]),
    []
);
case!(
    worker_vips,
    worker(
        "  network:\n    interfaces:\n      - interface: eth0\n        vip:\n          ip: 10.0.0.1\n        vlans:\n          - vlanId: 5\n            vip:\n              ip: 10.0.0.2\n",
        ""
    ),
    CLOUD,
    false,
    many(&[
        "virtual (shared) IP is not allowed on non-controlplane nodes",
        "virtual (shared) IP is not allowed on non-controlplane nodes"
    ]),
    []
);
case!(
    bad_vip,
    cp("  network:\n    interfaces:\n      - interface: eth0\n        vip:\n          ip: 10.0.0.x\n", ""),
    CLOUD,
    false,
    one("[networking.os.device.vip] failed to parse \"10.0.0.x\" as IP address"),
    []
);
case!(
    ignored_interface,
    cp("  network:\n    interfaces:\n      - interface: eth0\n        ignore: true\n        cidr: bad\n", ""),
    CLOUD,
    false,
    OK,
    []
);
case!(
    bond_mode_restrictions,
    cp(
        "  network:\n    interfaces:\n      - interface: bond0\n        bond:\n          mode: 802.3ad\n          miimon: 100\n          updelay: 150\n          downdelay: 200\n          arpIPTarget: [10.0.0.1]\n          adActorSystem: 00:11\n          arpValidate: all\n          primary: eth0\n          arpInterval: 1\n          packetsPerSlave: 2\n          tlbDynamicLb: 1\n          xmitHashPolicy: bad\n",
        ""
    ),
    CLOUD,
    false,
    many(&[
        "invalid xmit hash policy bad",
        "bond.upDelay should be a multiple of miiMon",
        "bond.arpIPTarget is not supported",
        "bond.adActorSystem is not supported",
        "bond.arpValidate is not available in 802.3ad mode",
        "bond.primary is not available in 802.3ad mode",
        "bond.arpInterval is not available in 802.3ad mode",
        "bond.packetsPerSlave is not available in 802.3ad mode",
        "bond.tlbDynamicTLB is not available in 802.3ad mode"
    ]),
    []
);
case!(
    bond_lacp_outside_8023ad,
    cp(
        "  network:\n    interfaces:\n      - interface: bond0\n        bond:\n          lacpRate: fast\n          adUserPortKey: 1\n",
        ""
    ),
    CLOUD,
    false,
    many(&["bond.lacpRate is only available in 802.3ad mode", "bond.adUserPortKey is only available in 802.3ad mode"]),
    []
);
case!(
    wireguard_private_key_base64,
    cp("  network:\n    interfaces:\n      - interface: wg0\n        wireguard:\n          privateKey: abc!\n", ""),
    CLOUD,
    false,
    one("private key is invalid: illegal base64 data at input byte 3"),
    []
);
case!(
    disks,
    worker(
        "  disks:\n    - null\n    - device: /dev/sdb\n      partitions:\n        - mountpoint: /var/a\n        - size: 1GB\n          mountpoint: /var/b\n",
        ""
    ),
    CLOUD,
    false,
    many(&[
        "machine.disks[0] is null",
        "partition for disk \"/dev/sdb\" is set to occupy full disk, but it's not the last partition in the list"
    ]),
    []
);
case!(
    encryption,
    worker(
        "  systemDiskEncryption:\n    ephemeral:\n      provider: luks2\n      keys: []\n    state:\n      provider: luks2\n      keys:\n        - slot: 0\n          nodeID: {}\n        - slot: 0\n",
        ""
    ),
    CLOUD,
    false,
    many(&[
        "partition \"EPHEMERAL\": no encryption keys provided",
        "partition \"STATE\": encryption key slot 0 is already in use",
        "partition \"STATE\": encryption key at slot 0 doesn't have the configuration parameters"
    ]),
    []
);
case!(
    logging,
    worker(
        "  logging:\n    destinations:\n      - endpoint: http://\n        format: text\n      - endpoint: udp://127.0.0.1:12345\n        format: json_lines\n",
        ""
    ),
    CLOUD,
    false,
    many(&[
        "empty logging endpoint's host",
        "unexpected logging endpoint scheme \"http\"",
        "unknown logging format \"text\""
    ]),
    []
);
case!(
    duplicate_extension_any_mode,
    worker("  install:\n    extensions:\n      - image: a:v1\n      - image: a:v1\n", ""),
    CLOUD,
    false,
    one("duplicate system extension \"a:v1\""),
    [EXT_WARNING]
);
case!(
    persist_false,
    worker("", "").replace("version: v1alpha1\n", "version: v1alpha1\npersist: false\n"),
    CLOUD,
    false,
    one(".persist should be enabled"),
    []
);
case!(
    base_runtime_spec_bad_type,
    cp("  baseRuntimeSpecOverrides:\n    process: foo\n", ""),
    CLOUD,
    false,
    one(
        "failed to unmarshal base runtime spec overrides: json: cannot unmarshal string into Go struct field Spec.process of type specs.Process"
    ),
    []
);
case!(
    registries_null,
    worker("  registries:\n    config:\n      b.io: null\n      a.io: null\n    mirrors:\n      docker.io: null\n", ""),
    CLOUD,
    false,
    many(&[
        "registries.config[\"a.io\"] is null",
        "registries.config[\"b.io\"] is null",
        "registries.mirrors[\"docker.io\"] is null"
    ]),
    []
);
case!(
    strict_collects_all_warnings_last,
    cp(
        "  network:\n    interfaces:\n      - interface: eth0\n        cidr: 10.0.0.1/8\n",
        "  network:\n    cni:\n      name: custom\n"
    )
    .replace("type: controlplane", "type: controlplane\n  persist: true")
    .replace("  persist: true\n", ""),
    CLOUD,
    true,
    many(&[
        "warning: \"urls\" field should not be empty for \"custom\" CNI",
        "warning: \"eth0\": machine.network.interface.cidr is deprecated, please use machine.network.interface.addresses"
    ]),
    []
);

// ---- container level (Config::validate) ----
use talos_config::Report;

fn fixture(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn validate(yaml: &str, mode: Mode, strict: bool) -> Report {
    Config::from_bytes(yaml.as_bytes()).unwrap().validate(mode, Options { strict, ..Options::default() })
}

fn step7_config() -> String {
    fixture("worker.yaml").replacen(
        "machine:\n",
        "machine:\n    nodeLabels:\n        lab.talos.dev/team name: platform\n",
        1,
    )
}

#[test]
fn step7_space_in_label_is_rejected_exactly() {
    let report = validate(&step7_config(), Mode::Container, false);
    assert_eq!(report.warnings, Vec::<String>::new());
    let err = report.error.expect("rejected");
    assert_eq!(
        err.to_string(),
        "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* invalid machine node labels: 1 error occurred:\n\t* name \"team name\" is invalid\n\n\n\n\n\n"
    );
    assert_eq!(
        crate::common::fields_of(&err.diagnostics()),
        vec![(
            Some(r#"machine.nodeLabels["lab.talos.dev/team name"]"#.to_string()),
            "name \"team name\" is invalid".to_string()
        )]
    );
}

#[test]
fn ci_pitfall_bare_patch_validated_as_config() {
    let report = validate("machine:\n  nodeLabels:\n    lab.talos.dev/team name: platform\n", Mode::Container, false);
    assert_eq!(report.warnings, vec!["use \"worker\" instead of \"\" for machine type".to_string()]);
    assert_eq!(
        report.error.expect("rejected").to_string(),
        "1 error occurred:\n\t* v1alpha1.Config: 5 errors occurred:\n\t* cluster instructions are required\n\t* feature HostDNS should be enabled in container mode (.machine.features.hostDNS.enabled)\n\t* feature HostDNS should forward kube-dns to host in container mode (.machine.features.hostDNS.forwardKubeDNSToHost)\n\t* issuing CA or some accepted CAs are required (.machine.ca, machine.acceptedCAs)\n\t* invalid machine node labels: 1 error occurred:\n\t* name \"team name\" is invalid\n\n\n\n\n\n"
    );
}

#[test]
fn strict_examples() {
    // §2.3: the warning becomes an error item, warnings are cleared.
    let yaml = format!("version: v1alpha1\nmachine:\n  ca:\n    crt: Zm9v\n{CLUSTER}");
    let report = validate(&yaml, CLOUD, true);
    assert_eq!(report.warnings, Vec::<String>::new());
    assert_eq!(
        report.error.expect("rejected").to_string(),
        "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* warning: use \"worker\" instead of \"\" for machine type\n\n\n\n"
    );
    let report = validate(&yaml, CLOUD, false);
    assert_eq!(report.error, None);
    assert_eq!(report.warnings, vec!["use \"worker\" instead of \"\" for machine type".to_string()]);
    let report = validate("version: v1alpha1\npersist: true\n", CLOUD, true);
    assert_eq!(
        report.error.expect("rejected").to_string(),
        "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* machine instructions are required\n\n\n\n"
    );
}

#[test]
fn fixtures_validate_in_container_mode() {
    for name in ["controlplane.yaml", "worker.yaml"] {
        for strict in [false, true] {
            let report = validate(&fixture(name), Mode::Container, strict);
            assert_eq!(report.error, None, "{name}");
            assert_eq!(report.warnings, Vec::<String>::new(), "{name}");
        }
    }
}

/// Talos's encoding-stability configs (`gen config` output for each version contract) in
/// `cloud` mode: the upstream integration test validates generated configs in cloud and metal,
/// but these carry no install disk (base) or combine `extraKernelArgs` with
/// `grubUseUKICmdline` (v1.13 overrides), so `metal` would reject them; the v1.3–v1.6 files
/// lack `hostDNS`, so `container` would too.
#[test]
fn stability_configs_validate_in_cloud_mode() {
    let Some(peer) = common::peer_dir() else { return };
    let dir = peer.join("types/v1alpha1/testdata/stability");
    let mut count = 0;
    let mut versions: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().filter(|e| e.path().is_dir()).collect();
    versions.sort_by_key(|e| e.path());
    for v in versions {
        let mut files: Vec<_> = std::fs::read_dir(v.path()).unwrap().flatten().map(|e| e.path()).collect();
        files.sort();
        for f in files {
            let yaml = std::fs::read_to_string(&f).unwrap();
            for strict in [false, true] {
                let report = validate(&yaml, CLOUD, strict);
                assert_eq!(report.error.map(|e| e.to_string()), None, "{}", f.display());
                assert_eq!(report.warnings, Vec::<String>::new(), "{}", f.display());
            }
            count += 1;
        }
    }
    assert_eq!(count, 44);
}
