//! One snapshot per merge rule of docs/merge.md (§7, §8, §12) and per `$patch: delete` form, plus
//! the exact bytes docs/merge.md gives for its worked examples (W1–W14), which were checked against
//! the upstream code.

use talos_config::{PatchSource, apply_patches, load_patches};

/// `talosctl machineconfig patch BASE -p P1 -p P2 ...` with `-o`: the bytes, or `ERROR: <text>`.
fn patch(base: &str, patches: &[&str]) -> String {
    let sources = patches.iter().enumerate().map(|(i, p)| PatchSource::new(format!("patch{i}"), *p));
    match load_patches(sources).and_then(|ps| apply_patches(base.as_bytes(), &ps)) {
        Ok(bytes) => String::from_utf8(bytes).expect("UTF-8 output"),
        Err(e) => format!("ERROR: {e}"),
    }
}

const W1_BASE: &str = "version: v1alpha1\nmachine:\n  type: worker\n";
const W1_HEAD: &str = "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n";

macro_rules! rule {
    ($name:ident, $base:expr, [$($p:expr),* $(,)?]) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(patch($base, &[$($p),*]));
        }
    };
    ($name:ident, $base:expr, [$($p:expr),* $(,)?], $want:expr) => {
        #[test]
        fn $name() {
            let got = patch($base, &[$($p),*]);
            assert_eq!(got, $want);
            insta::assert_snapshot!(got);
        }
    };
}

// ---- §12 worked examples (exact bytes from docs/merge.md) ----

rule!(
    w01_strategic_on_minimal_legacy,
    W1_BASE,
    ["machine: {network: {hostname: foo}}"],
    format!("{W1_HEAD}    network:\n        hostname: foo\ncluster: null\n")
);
rule!(
    w02_json6902_only,
    W1_BASE,
    [r#"[{"op":"add","path":"/machine/certSANs","value":["a.example.com"]}]"#],
    "machine:\n  certSANs:\n  - a.example.com\n  type: worker\nversion: v1alpha1\n"
);
rule!(
    w03_replace_idiom,
    "version: v1alpha1\nmachine:\n  type: worker\n  network:\n    hostname: old\n    nameservers: [1.1.1.1]\n",
    ["machine:\n  network:\n    $patch: delete\n---\nmachine:\n  network:\n    hostname: new\n"],
    format!("{W1_HEAD}    network:\n        hostname: new\ncluster: null\n")
);
rule!(w04_zero_string_is_ignored, W1_BASE, ["machine: {type: \"\"}"], format!("{W1_HEAD}cluster: null\n"));
rule!(w04_empty_list_appends_nothing, W1_BASE, ["machine: {certSANs: []}"], format!("{W1_HEAD}cluster: null\n"));
rule!(
    w04_false_through_pointer,
    W1_BASE,
    ["machine: {features: {rbac: false}}"],
    format!("{W1_HEAD}    features:\n        rbac: false\ncluster: null\n")
);
rule!(
    w04_replace_field_cleared,
    "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  network:\n    podSubnets: [10.244.0.0/16]\n",
    ["cluster: {network: {podSubnets: []}}"],
    format!(
        "{W1_HEAD}cluster:\n    controlPlane: null\n    network:\n        dnsDomain: \"\"\n        podSubnets: []\n        serviceSubnets: []\n"
    )
);
rule!(
    w05_lists_append,
    "version: v1alpha1\nmachine:\n  type: worker\n  certSANs: [a]\n",
    ["machine: {certSANs: [b, a]}"],
    "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs:\n        - a\n        - b\n        - a\ncluster: null\n"
);
rule!(
    w06_extra_args_per_key_replace,
    "version: v1alpha1\nmachine:\n  type: worker\n  kubelet: {extraArgs: {a: \"1\", b: x}}\n",
    ["machine: {kubelet: {extraArgs: {b: [y, z]}}}"],
    format!(
        "{W1_HEAD}    kubelet:\n        extraArgs:\n            a: \"1\"\n            b:\n                - y\n                - z\ncluster: null\n"
    )
);
rule!(
    w07_always_overwrite_volume_fields,
    "apiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\nprovisioning:\n    diskSelector:\n        match: disk.transport == \"nvme\"\n    minSize: 2GiB\n    maxSize: 40GiB\n",
    ["apiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\nprovisioning:\n  grow: true\n"],
    "apiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\nprovisioning:\n    grow: true\n    maxSize: 40GiB\n"
);
rule!(
    w08_delete_absent_unnamed_document,
    W1_BASE,
    ["apiVersion: v1alpha1\nkind: SideroLinkConfig\n$patch: delete\n"],
    format!("{W1_HEAD}cluster: null\n---\n{{}}\n")
);
rule!(
    w08_delete_absent_named_document_is_refused,
    W1_BASE,
    ["apiVersion: v1alpha1\nkind: DummyLinkConfig\nname: dummy0\n$patch: delete\n"],
    "ERROR: named patch delete: document v1alpha1/DummyLinkConfig/dummy0 does not exist"
);
rule!(w09_empty_patch_reencodes_single_document, W1_BASE, [""], "machine:\n  type: worker\nversion: v1alpha1\n");
rule!(
    w09_empty_patch_on_multi_document,
    "version: v1alpha1\nmachine:\n  type: worker\n---\napiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n",
    ["[]"],
    "ERROR: JSON6902 patches are not supported for multi-document machine configuration"
);
rule!(
    w10_unknown_key,
    W1_BASE,
    ["machine: {foo: bar}"],
    "ERROR: error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    foo: bar\n"
);
rule!(
    w10_delete_missing_element,
    "version: v1alpha1\nmachine:\n  type: worker\n  network:\n    interfaces:\n      - interface: eth0\n",
    ["machine:\n  network:\n    interfaces:\n      - interface: eth9\n        $patch: delete\n"],
    "ERROR: patch delete: path 'machine.network.interfaces.[0]' in document '/v1alpha1': failed to delete path 'machine.network.interfaces.[0]': lookup failed"
);
rule!(
    w10_delete_inner_key_of_element,
    W1_BASE,
    ["machine:\n  network:\n    interfaces:\n      - interface: eth0\n        vip:\n          $patch: delete\n"],
    "ERROR: error processing patch delete statements at line 1: cannot delete an inner key in 'machine.network.interfaces.[0].vip'"
);
rule!(
    w10_delete_statement_line_is_the_documents_dashes,
    W1_BASE,
    ["---\nmachine:\n  network:\n    interfaces:\n      - interface: eth0\n        vip:\n          $patch: delete\n"],
    "ERROR: error processing patch delete statements at line 1: cannot delete an inner key in 'machine.network.interfaces.[0].vip'"
);
rule!(
    // Upstream indexes each path segment's first byte: an empty key is Go's recovered panic.
    w10_delete_under_an_empty_key,
    W1_BASE,
    ["\"\":\n    $patch: delete\n"],
    "ERROR: error processing patch delete statements at line 1: runtime error: index out of range [0] with length 0"
);
rule!(
    w10_delete_below_an_empty_key,
    W1_BASE,
    ["machine:\n  \"\":\n    kubelet:\n      $patch: delete\n"],
    "ERROR: error processing patch delete statements at line 1: runtime error: index out of range [0] with length 0"
);
rule!(
    // Segments are checked in order: a list position before the empty key wins.
    w10_delete_empty_key_after_a_list_position,
    W1_BASE,
    ["machine:\n  network:\n    interfaces:\n      - interface: eth0\n        \"\":\n          $patch: delete\n"],
    "ERROR: error processing patch delete statements at line 1: cannot delete an inner key in 'machine.network.interfaces.[0].'"
);
rule!(
    w10_delete_statement_line_of_a_later_document,
    W1_BASE,
    [
        "machine: {}\n\n---\n\nmachine:\n  network:\n    interfaces:\n      - interface: eth0\n        vip:\n          $patch: delete\n"
    ],
    "ERROR: error processing patch delete statements at line 3: cannot delete an inner key in 'machine.network.interfaces.[0].vip'"
);
rule!(
    // The YAML-list form of a JSON6902 patch is read like `yaml.Unmarshal`: the first document
    // only (here empty, so no operations), whatever follows it.
    json6902_yaml_list_reads_the_first_document_only,
    "version: v1alpha1\nmachine:\n  type: worker\n---\napiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n",
    ["---\n---\n- op: add\n  path: [unclosed\n"],
    "ERROR: JSON6902 patches are not supported for multi-document machine configuration"
);
rule!(
    w10_delete_nested_list_element,
    "version: v1alpha1\nmachine:\n  type: worker\n  network:\n    interfaces:\n      - interface: eth0\n        vlans:\n          - vlanId: 100\n",
    [
        "machine:\n  network:\n    interfaces:\n      - interface: eth0\n        vlans:\n          - vlanId: 100\n            $patch: delete\n"
    ],
    "ERROR: patch delete: path 'machine.network.interfaces.[0].vlans.[0]' in document '/v1alpha1': failed to delete path 'machine.network.interfaces.[0].vlans.[0]': searching for complex paths in slices is not supported"
);
rule!(
    w10_conflicting_link_documents,
    "apiVersion: v1alpha1\nkind: BondConfig\nname: eth0\nlinks: [eth1]\nbondMode: active-backup\n",
    ["apiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\nmtu: 1500\n"],
    "ERROR: conflicting documents: BondConfig/eth0 and LinkConfig/eth0"
);
rule!(
    w10_routing_rule_merge_defect,
    "apiVersion: v1alpha1\nkind: RoutingRuleConfig\nname: \"100\"\ntable: \"100\"\n",
    ["apiVersion: v1alpha1\nkind: RoutingRuleConfig\nname: \"100\"\naction: unicast\n"],
    "ERROR: merge field network.RoutingRuleConfigV1Alpha1.RuleSrc: merge field network.Prefix.Prefix: merge field netip.Prefix.ip: merge field netip.Addr.addr: merge field netip.uint128.hi: merge not possible, left 0 is not settable"
);
rule!(
    w11_json_step_changes_arg_words,
    "version: v1alpha1\nmachine:\n    type: worker\n    kubelet:\n        extraArgs:\n            a: on\n",
    [r#"[{"op":"replace","path":"/machine/type","value":"worker"}]"#, "machine: {type: worker}"],
    format!("{W1_HEAD}    kubelet:\n        extraArgs:\n            a: \"true\"\ncluster: null\n")
);
rule!(
    w12_unloadable_block_scalar,
    W1_BASE,
    [r#"cluster: {inlineManifests: [{name: m, contents: " x: 1\n"}]}"#],
    format!(
        "{W1_HEAD}cluster:\n    controlPlane: null\n    inlineManifests:\n        - name: m\n          contents: |4\n             x: 1\n"
    )
);
rule!(
    w13_outside_bmp,
    W1_BASE,
    ["{\"machine\":{\"nodeLabels\":{\"e\":\"\u{1F600}\"}}}"],
    format!("{W1_HEAD}    nodeLabels:\n        e: \"\\U0001F600\"\ncluster: null\n")
);
rule!(
    w14_named_kind_deleted_without_name,
    "version: v1alpha1\nmachine:\n  type: worker\n---\napiVersion: v1alpha1\nkind: DummyLinkConfig\nname: dummy0\n",
    ["apiVersion: v1alpha1\nkind: DummyLinkConfig\n$patch: delete\n"],
    format!("{W1_HEAD}cluster: null\n---\napiVersion: v1alpha1\nkind: DummyLinkConfig\nname: dummy0\n---\n{{}}\n")
);
rule!(
    w14_named_kind_deleted_with_name,
    "version: v1alpha1\nmachine:\n  type: worker\n---\napiVersion: v1alpha1\nkind: DummyLinkConfig\nname: dummy0\n",
    ["apiVersion: v1alpha1\nkind: DummyLinkConfig\nname: dummy0\n$patch: delete\n"],
    format!("{W1_HEAD}cluster: null\n")
);

// ---- §7 generic merge rules ----

rule!(r7_scalar_replaces, W1_BASE, ["machine: {type: controlplane}"]);
rule!(
    r7_zero_int_ignored_on_plain_field,
    "version: v1alpha1\nmachine:\n  type: worker\n  features:\n    kubePrism:\n      enabled: true\n      port: 7445\n",
    ["machine: {features: {kubePrism: {port: 0, enabled: false}}}"]
);
rule!(
    r7_zero_through_pointer_overwrites,
    "version: v1alpha1\nmachine:\n  type: worker\n  network:\n    kubespan:\n      mtu: 1420\n",
    ["machine: {network: {kubespan: {mtu: 0}}}"]
);
rule!(
    r7_null_is_no_effect,
    "version: v1alpha1\nmachine:\n  type: worker\n  network:\n    hostname: keep\n",
    ["machine:\n  network:\n    hostname: null\n"]
);
rule!(
    r7_empty_map_is_no_effect,
    "version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n    a: b\n",
    ["machine: {nodeLabels: {}}"]
);
rule!(
    r7_map_merged_per_key,
    "version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n    a: b\n    c: d\n",
    ["machine: {nodeLabels: {c: e, f: g}}"]
);
rule!(
    r7_unstructured_deep_merge,
    "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraConfig:\n      map: {slice: [s1], some: value}\n      a: aa\n",
    ["machine: {kubelet: {extraConfig: {b: bb, map: {slice: [s2], other: thing}}}}"]
);
rule!(
    r7_unstructured_false_overwrites_zero_ignored,
    "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraConfig:\n      flag: true\n      n: 5\n      s: x\n",
    ["machine: {kubelet: {extraConfig: {flag: false, n: 0, s: \"\"}}}"]
);
rule!(
    r7_unstructured_type_mismatch,
    "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraConfig:\n      a: 1\n",
    ["machine: {kubelet: {extraConfig: {a: text}}}"]
);
rule!(
    r7_empty_string_map_value_added_not_overwriting,
    "version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n    a: b\n",
    ["machine: {nodeLabels: {a: \"\", n: \"\"}}"]
);

// ---- §8 type-specific behaviour ----

rule!(
    r8_service_subnets_replaced,
    "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  network:\n    serviceSubnets: [10.96.0.0/12]\n",
    ["cluster: {network: {serviceSubnets: [10.100.0.0/16]}}"]
);
rule!(
    r8_audit_policy_replaced,
    "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  apiServer:\n    auditPolicy:\n      kind: Policy\n      rules: [{level: Metadata}]\n",
    ["cluster: {apiServer: {auditPolicy: {rules: [{level: None}]}}}"]
);
rule!(
    r8_audit_policy_empty_is_no_op,
    "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  apiServer:\n    auditPolicy:\n      kind: Policy\n",
    ["cluster: {apiServer: {auditPolicy: {}}}"]
);
rule!(
    r8_interfaces_keyed_by_name_and_selector,
    "version: v1alpha1\nmachine:\n  type: worker\n  network:\n    interfaces:\n      - interface: eth0\n        dhcp: true\n      - deviceSelector: {driver: macvtap}\n        addresses: [10.0.0.1/24]\n",
    [
        "machine:\n  network:\n    interfaces:\n      - interface: eth0\n        dhcp: false\n        addresses: [10.0.0.2/24]\n      - deviceSelector: {driver: macvtap}\n        addresses: [10.0.0.3/24]\n      - interface: eth1\n        dhcp: true\n"
    ]
);
rule!(
    r8_vlans_keyed_by_id,
    "version: v1alpha1\nmachine:\n  type: worker\n  network:\n    interfaces:\n      - interface: eth0\n        vlans:\n          - vlanId: 100\n            addresses: [10.3.4.5/32]\n",
    [
        "machine:\n  network:\n    interfaces:\n      - interface: eth0\n        vlans:\n          - vlanId: 100\n            addresses: [10.3.4.6/32]\n          - vlanId: 101\n            dhcp: true\n"
    ]
);
rule!(
    r8_admission_control_keyed_by_name,
    "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  apiServer:\n    admissionControl:\n      - name: PodSecurity\n        configuration:\n          defaults: {enforce: baseline}\n          exemptions: {namespaces: [kube-system]}\n",
    [
        "cluster:\n  apiServer:\n    admissionControl:\n      - name: PodSecurity\n        configuration:\n          defaults: {enforce: restricted}\n          exemptions: {namespaces: [rook-system]}\n      - name: Other\n        configuration: {a: b}\n"
    ]
);
rule!(
    r8_extra_args_empty_patch_map_no_op,
    "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraArgs:\n      a: b\n",
    ["machine: {kubelet: {extraArgs: {}}}"]
);
rule!(
    r8_extension_service_config_files_keyed_by_mount_path,
    "apiVersion: v1alpha1\nkind: ExtensionServiceConfig\nname: foo\nconfigFiles:\n  - content: hello\n    mountPath: /etc/foo\nenvironment: [A=1]\n",
    [
        "apiVersion: v1alpha1\nkind: ExtensionServiceConfig\nname: foo\nconfigFiles:\n  - content: hello world\n    mountPath: /etc/foo\n  - content: bar\n    mountPath: /etc/bar\nenvironment: [B=2]\n"
    ]
);
rule!(
    r8_registry_mirror_endpoints_appended,
    "version: v1alpha1\nmachine:\n  type: worker\n  registries:\n    mirrors:\n      docker.io:\n        endpoints: [https://a]\n",
    ["machine: {registries: {mirrors: {docker.io: {endpoints: [https://b]}, ghcr.io: {endpoints: [https://c]}}}}"]
);
rule!(
    r8_endpoint_url_merged_by_component,
    "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  controlPlane:\n    endpoint: https://127.0.0.1:6643/\n",
    ["cluster: {controlPlane: {endpoint: https://10.0.0.1}}"]
);
rule!(
    r8_endpoint_port_dropped_with_host,
    "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  controlPlane:\n    endpoint: https://10.0.0.2:6443\n",
    ["cluster: {controlPlane: {endpoint: https://10.0.0.3}}"]
);
rule!(
    r8_inline_manifest_leading_blank_lines_stripped,
    W1_BASE,
    [
        "cluster:\n  inlineManifests:\n    - name: m\n      contents: |\n\n        apiVersion: v1\n        kind: Namespace\n"
    ]
);
rule!(
    r8_ethernet_features_false_overwrites,
    "apiVersion: v1alpha1\nkind: EthernetConfig\nname: eth0\nfeatures:\n  tx-tcp-segmentation: true\n",
    ["apiVersion: v1alpha1\nkind: EthernetConfig\nname: eth0\nfeatures:\n  tx-tcp-segmentation: false\n"]
);

// ---- `$patch: delete` forms ----

rule!(
    d_whole_document,
    "version: v1alpha1\nmachine:\n  type: worker\n---\napiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n",
    ["apiVersion: v1alpha1\nkind: HostnameConfig\n$patch: delete\n"]
);
rule!(
    d_field,
    "version: v1alpha1\nmachine:\n  type: worker\n  network:\n    hostname: foo\n    nameservers: [1.1.1.1]\n",
    ["machine:\n  network:\n    hostname:\n      $patch: delete\n"]
);
rule!(
    d_map_key,
    "version: v1alpha1\nmachine:\n  type: worker\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n      v: \"2\"\n",
    ["machine:\n  kubelet:\n    extraArgs:\n      max-pod:\n        $patch: delete\n"]
);
rule!(
    d_map_key_with_dots_and_slashes,
    "version: v1alpha1\nmachine:\n  type: worker\n  nodeLabels:\n    lab.talos.dev/pool: blue\n    lab.talos.dev/canary: \"on\"\n",
    ["machine:\n  nodeLabels:\n    lab.talos.dev/canary:\n      $patch: delete\n"]
);
rule!(
    d_list_element,
    "version: v1alpha1\nmachine:\n  type: worker\n  network:\n    interfaces:\n      - interface: eth0\n        dhcp: true\n      - interface: eth1\n        dhcp: true\n",
    ["machine:\n  network:\n    interfaces:\n      - interface: eth0\n        $patch: delete\n"]
);
rule!(
    d_missing_intermediate_pointer,
    "version: v1alpha1\nmachine: {}\n",
    ["machine:\n  network:\n    hostname:\n      $patch: delete\n"],
    "ERROR: patch delete: path 'machine.network.hostname' in document '/v1alpha1': failed to delete path 'machine.network.hostname': lookup failed"
);
rule!(
    d_inside_a_certificate_and_key_pair_is_lookup_failed,
    "version: v1alpha1\nmachine:\n  type: worker\ncluster:\n  ca:\n    crt: YQ==\n    key: YQ==\n",
    ["cluster: {ca: {crt: {$patch: delete}}}"],
    "ERROR: patch delete: path 'cluster.ca.crt' in document '/v1alpha1': failed to delete path 'cluster.ca.crt': lookup failed"
);
rule!(
    d_scalar_list_elements_cannot_be_deleted,
    "version: v1alpha1\nmachine:\n  type: worker\n  certSANs: [a, b]\n",
    ["machine:\n  certSANs:\n    - a\n    - x: a\n      $patch: delete\n"]
);
rule!(d_other_patch_value_is_content, W1_BASE, ["machine:\n  network:\n    hostname:\n      $patch: Delete\n"]);
rule!(d_whole_legacy_document_needs_api_version, W1_BASE, ["machine:\n  type: worker\n$patch: delete\n"]);

// ---- merge keys (`<<`): go-yaml merges them while decoding, then Talos's unknown-keys walk
// (xyaml) sees the raw `<<` key ----

rule!(
    // Into `interface{}` nothing is checked: the merge applies; own keys win, then the first
    // merged mapping.
    merge_key_into_free_form_values,
    W1_BASE,
    ["machine:\n  kubelet:\n    extraConfig:\n      <<: [{a: 1, c: 1}, {a: 2, b: 2}]\n      c: 0\n"],
    format!(
        "{W1_HEAD}    kubelet:\n        extraConfig:\n            a: 1\n            b: 2\n            c: 0\ncluster: null\n"
    )
);
rule!(
    merge_key_list_in_a_string_map,
    W1_BASE,
    ["machine:\n  nodeLabels:\n    <<: [{a: b}, {c: d}]\n"],
    "ERROR: error decoding document /v1alpha1/ (line 1): unexpected type for yaml sequence: string"
);
rule!(
    merge_key_mapping_in_a_string_map,
    W1_BASE,
    ["machine:\n  nodeLabels:\n    <<: {a: b}\n"],
    "ERROR: error decoding document /v1alpha1/ (line 1): unexpected type for yaml mapping: string"
);
rule!(
    merge_key_in_a_struct_is_an_unknown_key,
    W1_BASE,
    ["machine:\n  kubelet:\n    <<: {image: x}\n"],
    "ERROR: error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    kubelet:\n        \"<<\": {image: x}\n"
);
rule!(
    // `ArgValue` has a custom unmarshaler: a mapping is checked against its two unexported
    // fields, a list is let through.
    merge_key_in_extra_args,
    W1_BASE,
    ["machine:\n  kubelet:\n    extraArgs:\n      <<: {a: b}\n"],
    "ERROR: error decoding document /v1alpha1/ (line 1): unknown keys found during decoding:\nmachine:\n    kubelet:\n        extraArgs:\n            \"<<\":\n                a: b\n"
);
rule!(
    list_extra_args_pass_the_unknown_keys_walk,
    W1_BASE,
    ["machine:\n  kubelet:\n    extraArgs:\n      feature-gates: [A=true, B=false]\n"],
    format!(
        "{W1_HEAD}    kubelet:\n        extraArgs:\n            feature-gates:\n                - A=true\n                - B=false\ncluster: null\n"
    )
);
rule!(
    merge_key_needs_mappings,
    W1_BASE,
    ["machine:\n  kubelet:\n    extraConfig:\n      <<: [{a: 1}, 3]\n"],
    "ERROR: error decoding document /v1alpha1/ (line 1): error decoding  to *v1alpha1.Config: yaml: map merge requires map or sequence of maps as the value"
);
rule!(
    // A quoted `<<` is an ordinary key.
    quoted_merge_key_is_a_plain_key,
    W1_BASE,
    ["machine:\n  kubelet:\n    extraConfig:\n      \"<<\": {a: 1}\n"],
    format!("{W1_HEAD}    kubelet:\n        extraConfig:\n            \"<<\":\n                a: 1\ncluster: null\n")
);

// ---- Deletes into lists by a key that is not an element selector (issue 26, recorded from
// Talos v1.13.9's `talosctl machineconfig patch`) ----

#[test]
fn delete_into_a_list_by_a_key() {
    let base = "version: v1alpha1\nmachine:\n  type: worker\n  certSANs: [a, b]\n";
    for (key, quoted) in [("foo", "foo"), ("\"0\"", "0")] {
        let got = patch(base, &[&format!("machine:\n  certSANs:\n    {key}:\n      $patch: delete\n")]);
        assert_eq!(
            got,
            format!(
                "ERROR: patch delete: path 'machine.certSANs.{quoted}' in document '/v1alpha1': failed to delete path 'machine.certSANs.{quoted}': searching for non-integer keys in slices is not supported"
            )
        );
    }
    // An empty key: upstream's own index error, recovered.
    assert_eq!(
        patch(base, &["machine:\n  certSANs:\n    \"\":\n      $patch: delete\n"]),
        "ERROR: error processing patch delete statements at line 1: runtime error: index out of range [0] with length 0"
    );
}

// ---- What a `$patch: delete` leaves for the next `-p` patch (issue 26; every case recorded
// from Talos v1.13.9's `talosctl machineconfig patch`): a selector whose document is absent is
// appended to the container and is a document of it for the following patches ----

const SEQ_BASE: &str = "version: v1alpha1\nmachine:\n  type: worker\n";
const SEQ_HEAD: &str =
    "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\ncluster: null\n";
const DEL_LINK: &str = "apiVersion: v1alpha1\nkind: LinkConfig\nname: eth9\n$patch: delete\n";
const ADD_LINK: &str = "apiVersion: v1alpha1\nkind: LinkConfig\nname: eth9\nmtu: 1400\n";
const DEL_HOST: &str = "apiVersion: v1alpha1\nkind: HostnameConfig\n$patch: delete\n";
const ADD_HOST: &str = "apiVersion: v1alpha1\nkind: HostnameConfig\nhostname: foo\n";
const LINK_DOC: &str = "---\napiVersion: v1alpha1\nkind: LinkConfig\nname: eth9\nmtu: 1400\n";
const HOST_DOC: &str = "---\napiVersion: v1alpha1\nkind: HostnameConfig\nhostname: foo\n";

#[test]
fn a_named_delete_of_an_absent_document_is_removed_by_the_next() {
    // Alone it would be encoded, where Talos panics: our error instead (KNOWN_GAPS).
    assert_eq!(
        patch(SEQ_BASE, &[DEL_LINK]),
        "ERROR: named patch delete: document v1alpha1/LinkConfig/eth9 does not exist"
    );
    assert_eq!(patch(SEQ_BASE, &[DEL_LINK, DEL_LINK]), SEQ_HEAD);
    assert_eq!(patch(SEQ_BASE, &[DEL_LINK, DEL_LINK, ADD_LINK]), format!("{SEQ_HEAD}{LINK_DOC}"));
    assert_eq!(
        patch(SEQ_BASE, &[DEL_LINK, DEL_LINK, DEL_LINK]),
        "ERROR: named patch delete: document v1alpha1/LinkConfig/eth9 does not exist"
    );
    assert_eq!(
        patch(SEQ_BASE, &[DEL_LINK, ADD_LINK]),
        "ERROR: merge type mismatch left *decoder.namedSelector right *network.LinkConfigV1Alpha1"
    );
}

#[test]
fn an_unnamed_delete_of_an_absent_document_stays_as_an_empty_document() {
    assert_eq!(patch(SEQ_BASE, &[DEL_HOST]), format!("{SEQ_HEAD}---\n{{}}\n"));
    assert_eq!(patch(SEQ_BASE, &[DEL_HOST, DEL_HOST]), SEQ_HEAD);
    assert_eq!(patch(SEQ_BASE, &[DEL_HOST, DEL_HOST, DEL_HOST]), format!("{SEQ_HEAD}---\n{{}}\n"));
    assert_eq!(
        patch(SEQ_BASE, &[DEL_HOST, ADD_HOST]),
        "ERROR: merge type mismatch left *decoder.selector right *network.HostnameConfigV1Alpha1"
    );
}

#[test]
fn within_one_patch_appended_entries_are_not_found_again() {
    let delete_then_add = format!("{DEL_HOST}---\n{ADD_HOST}");
    let add_then_delete = format!("{ADD_HOST}---\n{DEL_HOST}");
    assert_eq!(patch(SEQ_BASE, &[&add_then_delete]), format!("{SEQ_HEAD}{HOST_DOC}---\n{{}}\n"));
    // The next patch finds the last entry of an identity: the document, not the selector.
    assert_eq!(patch(SEQ_BASE, &[&delete_then_add, DEL_HOST]), format!("{SEQ_HEAD}---\n{{}}\n"));
    assert_eq!(patch(SEQ_BASE, &[&delete_then_add, ADD_HOST]), format!("{SEQ_HEAD}---\n{{}}\n{HOST_DOC}"));
    assert_eq!(patch(SEQ_BASE, &[&delete_then_add, &delete_then_add]), format!("{SEQ_HEAD}---\n{{}}\n{HOST_DOC}"));
}
