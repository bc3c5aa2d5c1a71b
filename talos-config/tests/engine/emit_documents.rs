//! Layout probes L1-L30 of docs/merge.md §9.5, worked examples of §12, the §11.3 JSON6902 output
//! and whole documents from upstream test data, emitted by both emitters and compared byte for
//! byte.

use talos_yaml::emit_v2::{emit_v2, sort_keys_v2};
use talos_yaml::emit_v4::{emit_v4, sort_keys_v4};
use talos_yaml::resolve::{Resolved, format_float, resolve_v4};
use talos_yaml::{CollectionStyle, Node, NodeValue, ScalarStyle};

/// A block mapping with Go-string keys.
fn m(entries: Vec<(&str, Node)>) -> Node {
    Node::mapping(entries.into_iter().map(|(k, v)| (Node::go_string(k), v)).collect())
}

fn sq(items: Vec<Node>) -> Node {
    Node::sequence(items)
}

fn p(s: &str) -> Node {
    Node::plain(s)
}

fn g(s: &str) -> Node {
    Node::go_string(s)
}

/// An `ArgValue` string (a `yaml.Node` tagged `!!str`).
fn arg(s: &str) -> Node {
    Node::scalar(s, ScalarStyle::GoNode)
}

/// What go-yaml v4 decodes a plain YAML scalar into, re-encoded as a Go value.
fn yaml_v4(text: &str) -> Node {
    match resolve_v4(text) {
        Resolved::Null => Node::null(),
        Resolved::Bool(b) => p(if b { "true" } else { "false" }),
        Resolved::Int(i) => p(&i),
        Resolved::Float(f) => p(&format_float(f)),
        Resolved::Timestamp(t) => p(&t),
        Resolved::Str => g(text),
    }
}

/// `machine.kubelet.extraConfig.k`.
fn extra(v: Node) -> Node {
    m(vec![("machine", m(vec![("kubelet", m(vec![("extraConfig", m(vec![("k", v)]))]))]))])
}

/// The legacy document head every W example starts with.
fn legacy(machine_tail: Vec<(&str, Node)>, cluster: Node) -> Node {
    let mut mach = vec![("type", g("worker")), ("token", g("")), ("certSANs", sq(vec![]))];
    mach.extend(machine_tail);
    m(vec![("version", g("v1alpha1")), ("machine", m(mach)), ("cluster", cluster)])
}

#[test]
fn l1_v4() {
    assert_eq!(emit_v4(&extra(m(vec![]))), "machine:\n    kubelet:\n        extraConfig:\n            k: {}\n");
}

#[test]
fn l1_v2() {
    assert_eq!(emit_v2(&extra(m(vec![]))), "machine:\n  kubelet:\n    extraConfig:\n      k: {}\n");
}

#[test]
fn l2_v4() {
    assert_eq!(emit_v4(&extra(sq(vec![]))), "machine:\n    kubelet:\n        extraConfig:\n            k: []\n");
}

#[test]
fn l2_v2() {
    assert_eq!(emit_v2(&extra(sq(vec![]))), "machine:\n  kubelet:\n    extraConfig:\n      k: []\n");
}

#[test]
fn l3_v4() {
    assert_eq!(
        emit_v4(&extra(sq(vec![sq(vec![p("1"), p("2")]), sq(vec![p("3")])]))),
        "machine:\n    kubelet:\n        extraConfig:\n            k:\n                - - 1\n                  - 2\n                - - 3\n"
    );
}

#[test]
fn l3_v2() {
    assert_eq!(
        emit_v2(&extra(sq(vec![sq(vec![p("1"), p("2")]), sq(vec![p("3")])]))),
        "machine:\n  kubelet:\n    extraConfig:\n      k:\n      - - 1\n        - 2\n      - - 3\n"
    );
}

#[test]
fn l4_v4() {
    assert_eq!(
        emit_v4(&extra(sq(vec![sq(vec![])]))),
        "machine:\n    kubelet:\n        extraConfig:\n            k:\n                - []\n"
    );
}

#[test]
fn l4_v2() {
    assert_eq!(emit_v2(&extra(sq(vec![sq(vec![])]))), "machine:\n  kubelet:\n    extraConfig:\n      k:\n      - []\n");
}

#[test]
fn l5_v4() {
    assert_eq!(
        emit_v4(&extra(sq(vec![m(vec![])]))),
        "machine:\n    kubelet:\n        extraConfig:\n            k:\n                - {}\n"
    );
}

#[test]
fn l5_v2() {
    assert_eq!(emit_v2(&extra(sq(vec![m(vec![])]))), "machine:\n  kubelet:\n    extraConfig:\n      k:\n      - {}\n");
}

#[test]
fn l6_v4() {
    assert_eq!(
        emit_v4(&extra(sq(vec![m(vec![("a", p("1")), ("b", sq(vec![]))])]))),
        "machine:\n    kubelet:\n        extraConfig:\n            k:\n                - a: 1\n                  b: []\n"
    );
}

#[test]
fn l6_v2() {
    assert_eq!(
        emit_v2(&extra(sq(vec![m(vec![("a", p("1")), ("b", sq(vec![]))])]))),
        "machine:\n  kubelet:\n    extraConfig:\n      k:\n      - a: 1\n        b: []\n"
    );
}

#[test]
fn l7_v4() {
    assert_eq!(
        emit_v4(&extra(sq(vec![sq(vec![m(vec![("a", g("b")), ("c", g("d"))])])]))),
        "machine:\n    kubelet:\n        extraConfig:\n            k:\n                - - a: b\n                    c: d\n"
    );
}

#[test]
fn l7_v2() {
    assert_eq!(
        emit_v2(&extra(sq(vec![sq(vec![m(vec![("a", g("b")), ("c", g("d"))])])]))),
        "machine:\n  kubelet:\n    extraConfig:\n      k:\n      - - a: b\n          c: d\n"
    );
}

#[test]
fn l8_v4() {
    assert_eq!(
        emit_v4(&extra(m(vec![("a", sq(vec![m(vec![("b", sq(vec![m(vec![("c", m(vec![("d", p("1"))]))])]))])]))]))),
        "machine:\n    kubelet:\n        extraConfig:\n            k:\n                a:\n                    - b:\n                        - c:\n                            d: 1\n"
    );
}

#[test]
fn l8_v2() {
    assert_eq!(
        emit_v2(&extra(m(vec![("a", sq(vec![m(vec![("b", sq(vec![m(vec![("c", m(vec![("d", p("1"))]))])]))])]))]))),
        "machine:\n  kubelet:\n    extraConfig:\n      k:\n        a:\n        - b:\n          - c:\n              d: 1\n"
    );
}

#[test]
fn l9_v4() {
    assert_eq!(
        emit_v4(&extra(p(&format_float(1.0)))),
        "machine:\n    kubelet:\n        extraConfig:\n            k: 1\n"
    );
}

#[test]
fn l9_v2() {
    assert_eq!(emit_v2(&extra(p(&format_float(1.0)))), "machine:\n  kubelet:\n    extraConfig:\n      k: 1\n");
}

#[test]
fn l10_v4() {
    assert_eq!(
        emit_v4(&extra(p(&format_float(1000000.0)))),
        "machine:\n    kubelet:\n        extraConfig:\n            k: 1e+06\n"
    );
}

#[test]
fn l10_v2() {
    assert_eq!(
        emit_v2(&extra(p(&format_float(1000000.0)))),
        "machine:\n  kubelet:\n    extraConfig:\n      k: 1e+06\n"
    );
}

#[test]
fn l11_v4() {
    assert_eq!(
        emit_v4(&extra(p(&format_float(0.00001)))),
        "machine:\n    kubelet:\n        extraConfig:\n            k: 1e-05\n"
    );
}

#[test]
fn l11_v2() {
    assert_eq!(emit_v2(&extra(p(&format_float(0.00001)))), "machine:\n  kubelet:\n    extraConfig:\n      k: 1e-05\n");
}

#[test]
fn l12_v4() {
    assert_eq!(
        emit_v4(&extra(p(&format_float(1e21)))),
        "machine:\n    kubelet:\n        extraConfig:\n            k: 1e+21\n"
    );
}

#[test]
fn l12_v2() {
    assert_eq!(emit_v2(&extra(p(&format_float(1e21)))), "machine:\n  kubelet:\n    extraConfig:\n      k: 1e+21\n");
}

#[test]
fn l13_v4() {
    assert_eq!(
        emit_v4(&extra(p(&format_float(-0.0)))),
        "machine:\n    kubelet:\n        extraConfig:\n            k: -0\n"
    );
}

#[test]
fn l13_v2() {
    assert_eq!(emit_v2(&extra(p(&format_float(-0.0)))), "machine:\n  kubelet:\n    extraConfig:\n      k: -0\n");
}

#[test]
fn l14_v4() {
    assert_eq!(
        emit_v4(&extra(p("12345678901234567890"))),
        "machine:\n    kubelet:\n        extraConfig:\n            k: 12345678901234567890\n"
    );
}

#[test]
fn l14_v2() {
    assert_eq!(
        emit_v2(&extra(p("12345678901234567890"))),
        "machine:\n  kubelet:\n    extraConfig:\n      k: 12345678901234567890\n"
    );
}

#[test]
fn l15_v4() {
    assert_eq!(emit_v4(&extra(p("true"))), "machine:\n    kubelet:\n        extraConfig:\n            k: true\n");
}

#[test]
fn l15_v2() {
    assert_eq!(emit_v2(&extra(p("true"))), "machine:\n  kubelet:\n    extraConfig:\n      k: true\n");
}

#[test]
fn l16_v4() {
    assert_eq!(emit_v4(&extra(Node::null())), "machine:\n    kubelet:\n        extraConfig:\n            k: null\n");
}

#[test]
fn l16_v2() {
    assert_eq!(emit_v2(&extra(Node::null())), "machine:\n  kubelet:\n    extraConfig:\n      k: null\n");
}

#[test]
fn l17_v4() {
    assert_eq!(
        emit_v4(&extra(sq(vec![Node::null()]))),
        "machine:\n    kubelet:\n        extraConfig:\n            k:\n                - null\n"
    );
}

#[test]
fn l17_v2() {
    assert_eq!(
        emit_v2(&extra(sq(vec![Node::null()]))),
        "machine:\n  kubelet:\n    extraConfig:\n      k:\n      - null\n"
    );
}

#[test]
fn l18_v4() {
    assert_eq!(
        emit_v4(&extra(g(" a\nb"))),
        "machine:\n    kubelet:\n        extraConfig:\n            k: |4-\n                 a\n                b\n"
    );
}

#[test]
fn l18_v2() {
    assert_eq!(
        emit_v2(&extra(g(" a\nb"))),
        "machine:\n  kubelet:\n    extraConfig:\n      k: |2-\n         a\n        b\n"
    );
}

#[test]
fn l19_v4() {
    assert_eq!(emit_v4(&extra(yaml_v4("0x10"))), "machine:\n    kubelet:\n        extraConfig:\n            k: 16\n");
}

#[test]
fn l20_v4() {
    assert_eq!(
        emit_v4(&extra(yaml_v4("1_000"))),
        "machine:\n    kubelet:\n        extraConfig:\n            k: 1000\n"
    );
}

#[test]
fn l21_v4() {
    assert_eq!(emit_v4(&extra(yaml_v4("017"))), "machine:\n    kubelet:\n        extraConfig:\n            k: 15\n");
}

#[test]
fn l22_v4() {
    assert_eq!(
        emit_v4(&extra(yaml_v4("2024-01-01"))),
        "machine:\n    kubelet:\n        extraConfig:\n            k: 2024-01-01T00:00:00Z\n"
    );
}

#[test]
fn l23_v4() {
    assert_eq!(
        emit_v4(&extra(yaml_v4("yes"))),
        "machine:\n    kubelet:\n        extraConfig:\n            k: \"yes\"\n"
    );
}

#[test]
fn l24_v4() {
    assert_eq!(emit_v4(&extra(yaml_v4("1e3"))), "machine:\n    kubelet:\n        extraConfig:\n            k: 1000\n");
}

#[test]
fn l25_v4() {
    assert_eq!(emit_v4(&extra(yaml_v4(".inf"))), "machine:\n    kubelet:\n        extraConfig:\n            k: .inf\n");
}

#[test]
fn l26_v4() {
    assert_eq!(emit_v4(&extra(g("hello"))), "machine:\n    kubelet:\n        extraConfig:\n            k: hello\n");
}

#[test]
fn l27_certsans_multiline_item() {
    let doc = m(vec![("machine", m(vec![("certSANs", sq(vec![g("a\nb")]))]))]);
    assert_eq!(emit_v4(&doc), "machine:\n    certSANs:\n        - |-\n          a\n          b\n");
    assert_eq!(emit_v2(&doc), "machine:\n  certSANs:\n  - |-\n    a\n    b\n");
}

#[test]
fn l28_certsans_leading_space_item() {
    let doc = m(vec![("machine", m(vec![("certSANs", sq(vec![g(" a\nb")]))]))]);
    assert_eq!(emit_v4(&doc), "machine:\n    certSANs:\n        - |4-\n           a\n          b\n");
    assert_eq!(emit_v2(&doc), "machine:\n  certSANs:\n  - |2-\n     a\n    b\n");
}

fn manifests_v4(contents: &str) -> Node {
    m(vec![("cluster", m(vec![("inlineManifests", sq(vec![m(vec![("name", g("m")), ("contents", g(contents))])]))]))])
}

fn manifests_v2(contents: &str) -> Node {
    m(vec![("cluster", m(vec![("inlineManifests", sq(vec![m(vec![("contents", g(contents)), ("name", g("m"))])]))]))])
}

#[test]
fn l29_inline_manifest_leading_space() {
    assert_eq!(
        emit_v4(&manifests_v4(" x: 1\n")),
        "cluster:\n    inlineManifests:\n        - name: m\n          contents: |4\n             x: 1\n"
    );
    assert_eq!(
        emit_v2(&manifests_v2(" x: 1\n")),
        "cluster:\n  inlineManifests:\n  - contents: |2\n       x: 1\n    name: m\n"
    );
}

#[test]
fn l30_inline_manifest_leading_breaks() {
    // v4: the decoder stripped the leading breaks before the encoder saw the value.
    assert_eq!(
        emit_v4(&manifests_v4("apiVersion: v1\n")),
        "cluster:\n    inlineManifests:\n        - name: m\n          contents: |\n            apiVersion: v1\n"
    );
    assert_eq!(
        emit_v2(&manifests_v2("\n\napiVersion: v1\n")),
        "cluster:\n  inlineManifests:\n  - contents: |2\n\n\n      apiVersion: v1\n    name: m\n"
    );
}

// --- §12 worked examples ---------------------------------------------------------------------

#[test]
fn w1_strategic_minimal() {
    let doc = legacy(vec![("network", m(vec![("hostname", g("foo"))]))], Node::null());
    assert_eq!(
        emit_v4(&doc),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    network:\n        hostname: foo\ncluster: null\n"
    );
}

#[test]
fn w2_json6902_only() {
    let mut machine = vec![(g("type"), g("worker")), (g("certSANs"), sq(vec![g("a.example.com")]))];
    sort_keys_v2(&mut machine);
    let mut root = vec![(g("version"), g("v1alpha1")), (g("machine"), Node::mapping(machine))];
    sort_keys_v2(&mut root);
    assert_eq!(
        emit_v2(&Node::mapping(root)),
        "machine:\n  certSANs:\n  - a.example.com\n  type: worker\nversion: v1alpha1\n"
    );
}

#[test]
fn w4_zero_values() {
    assert_eq!(
        emit_v4(&legacy(vec![], Node::null())),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\ncluster: null\n"
    );
    assert_eq!(
        emit_v4(&legacy(vec![("features", m(vec![("rbac", p("false"))]))], Node::null())),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    features:\n        rbac: false\ncluster: null\n"
    );
    let cluster = m(vec![
        ("controlPlane", Node::null()),
        ("network", m(vec![("dnsDomain", g("")), ("podSubnets", sq(vec![])), ("serviceSubnets", sq(vec![]))])),
    ]);
    assert_eq!(
        emit_v4(&legacy(vec![], cluster)),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\ncluster:\n    controlPlane: null\n    network:\n        dnsDomain: \"\"\n        podSubnets: []\n        serviceSubnets: []\n"
    );
}

#[test]
fn w5_lists_append() {
    let doc = m(vec![
        ("version", g("v1alpha1")),
        ("machine", m(vec![("type", g("worker")), ("token", g("")), ("certSANs", sq(vec![g("a"), g("b"), g("a")]))])),
        ("cluster", Node::null()),
    ]);
    assert_eq!(
        emit_v4(&doc),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs:\n        - a\n        - b\n        - a\ncluster: null\n"
    );
}

#[test]
fn w6_extra_args_list() {
    let mut args = vec![(g("b"), sq(vec![arg("y"), arg("z")])), (g("a"), arg("1"))];
    sort_keys_v4(&mut args);
    let doc = legacy(vec![("kubelet", m(vec![("extraArgs", Node::mapping(args))]))], Node::null());
    assert_eq!(
        emit_v4(&doc),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    kubelet:\n        extraArgs:\n            a: \"1\"\n            b:\n                - y\n                - z\ncluster: null\n"
    );
}

#[test]
fn w8_empty_document() {
    assert_eq!(emit_v4(&m(vec![])), "{}\n");
    assert_eq!(emit_v2(&m(vec![])), "{}\n");
}

#[test]
fn w9_ghodss_reencoding() {
    let doc = m(vec![("machine", m(vec![("type", g("worker"))])), ("version", g("v1alpha1"))]);
    assert_eq!(emit_v2(&doc), "machine:\n  type: worker\nversion: v1alpha1\n");
}

#[test]
fn w11_yaml11_words() {
    // Talos encoder keeps the ArgValue `on` plain.
    let v4 = m(vec![
        ("version", g("v1alpha1")),
        ("machine", m(vec![("type", g("worker")), ("kubelet", m(vec![("extraArgs", m(vec![("a", arg("on"))]))]))])),
    ]);
    assert_eq!(
        emit_v4(&v4),
        "version: v1alpha1\nmachine:\n    type: worker\n    kubelet:\n        extraArgs:\n            a: on\n"
    );
    // yaml.v2 reads it back as a bool.
    let v2 = m(vec![
        ("machine", m(vec![("kubelet", m(vec![("extraArgs", m(vec![("a", p("true"))]))])), ("type", g("worker"))])),
        ("version", g("v1alpha1")),
    ]);
    assert_eq!(
        emit_v2(&v2),
        "machine:\n  kubelet:\n    extraArgs:\n      a: true\n  type: worker\nversion: v1alpha1\n"
    );
    // A later strategic step reads the string "true".
    let back = legacy(vec![("kubelet", m(vec![("extraArgs", m(vec![("a", arg("true"))]))]))], Node::null());
    assert_eq!(
        emit_v4(&back),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    kubelet:\n        extraArgs:\n            a: \"true\"\ncluster: null\n"
    );
}

#[test]
fn w12_unloadable_block_scalar() {
    let cluster = m(vec![
        ("controlPlane", Node::null()),
        ("inlineManifests", sq(vec![m(vec![("name", g("m")), ("contents", g(" x: 1\n"))])])),
    ]);
    assert_eq!(
        emit_v4(&legacy(vec![], cluster)),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\ncluster:\n    controlPlane: null\n    inlineManifests:\n        - name: m\n          contents: |4\n             x: 1\n"
    );
}

#[test]
fn w13_outside_bmp() {
    let doc = legacy(vec![("nodeLabels", m(vec![("e", g("\u{1F600}"))]))], Node::null());
    assert_eq!(
        emit_v4(&doc),
        "version: v1alpha1\nmachine:\n    type: worker\n    token: \"\"\n    certSANs: []\n    nodeLabels:\n        e: \"\\U0001F600\"\ncluster: null\n"
    );
}

#[test]
fn w14_named_documents() {
    let doc = m(vec![("apiVersion", g("v1alpha1")), ("kind", g("DummyLinkConfig")), ("name", g("dummy0"))]);
    assert_eq!(emit_v4(&doc), "apiVersion: v1alpha1\nkind: DummyLinkConfig\nname: dummy0\n");
}

#[test]
fn json6902_test_output() {
    // §11.3: machine.kubelet.extraArgs added by a JSON6902 step.
    let doc =
        m(vec![("machine", m(vec![("kubelet", m(vec![("extraArgs", m(vec![("cloud-provider", g("external"))]))]))]))]);
    assert_eq!(emit_v2(&doc), "machine:\n  kubelet:\n    extraArgs:\n      cloud-provider: external\n");
}

// --- whole documents from upstream test data -------------------------------------------------

#[test]
fn upstream_apply_expected() {
    // configpatcher/testdata/apply/expected.yaml
    let doc = m(vec![
        ("version", g("v1alpha1")),
        (
            "machine",
            m(vec![
                ("type", g("")),
                ("token", g("")),
                ("certSANs", sq(vec![])),
                (
                    "network",
                    m(vec![
                        ("hostname", g("foo")),
                        (
                            "interfaces",
                            sq(vec![
                                m(vec![
                                    ("interface", g("eth0")),
                                    ("addresses", sq(vec![g("10.1.2.3/24")])),
                                    ("dhcp", p("false")),
                                    ("vip", m(vec![("ip", g("10.3.5.6"))])),
                                ]),
                                m(vec![
                                    ("interface", g("eth1")),
                                    (
                                        "vlans",
                                        sq(vec![
                                            m(vec![
                                                ("addresses", sq(vec![g("10.3.4.5"), g("10.3.4.6")])),
                                                ("routes", sq(vec![])),
                                                ("vlanId", p("100")),
                                            ]),
                                            m(vec![
                                                ("addresses", sq(vec![g("10.3.4.7")])),
                                                ("routes", sq(vec![])),
                                                ("vlanId", p("101")),
                                            ]),
                                        ]),
                                    ),
                                ]),
                            ]),
                        ),
                    ]),
                ),
            ]),
        ),
        (
            "cluster",
            m(vec![
                ("controlPlane", Node::null()),
                ("proxy", m(vec![("extraArgs", m(vec![("metrics-bind-address", arg("$(POD_IP):10249"))]))])),
            ]),
        ),
    ]);
    let expected = "version: v1alpha1
machine:
    type: \"\"
    token: \"\"
    certSANs: []
    network:
        hostname: foo
        interfaces:
            - interface: eth0
              addresses:
                - 10.1.2.3/24
              dhcp: false
              vip:
                ip: 10.3.5.6
            - interface: eth1
              vlans:
                - addresses:
                    - 10.3.4.5
                    - 10.3.4.6
                  routes: []
                  vlanId: 100
                - addresses:
                    - 10.3.4.7
                  routes: []
                  vlanId: 101
cluster:
    controlPlane: null
    proxy:
        extraArgs:
            metrics-bind-address: $(POD_IP):10249
";
    assert_eq!(emit_v4(&doc), expected);
}

#[test]
fn upstream_apply_expected_manifests() {
    // configpatcher/testdata/apply/expected_manifests.yaml
    let contents = "---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: cilium\n  namespace: kube-system\n---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: cilium-operator\n  namespace: kube-system\n";
    let doc = m(vec![
        ("version", g("v1alpha1")),
        (
            "machine",
            m(vec![
                ("type", g("")),
                ("token", g("")),
                ("certSANs", sq(vec![])),
                (
                    "network",
                    m(vec![
                        ("hostname", g("hostname1")),
                        ("interfaces", sq(vec![m(vec![("interface", g("eth0")), ("dhcp", p("true"))])])),
                    ]),
                ),
            ]),
        ),
        (
            "cluster",
            m(vec![
                ("controlPlane", Node::null()),
                (
                    "proxy",
                    m(vec![(
                        "extraArgs",
                        m(vec![("foo", arg("bar")), ("metrics-bind-address", arg("$(POD_IP):10249"))]),
                    )]),
                ),
                ("inlineManifests", sq(vec![m(vec![("name", g("cilium")), ("contents", g(contents))])])),
            ]),
        ),
    ]);
    let expected = "version: v1alpha1
machine:
    type: \"\"
    token: \"\"
    certSANs: []
    network:
        hostname: hostname1
        interfaces:
            - interface: eth0
              dhcp: true
cluster:
    controlPlane: null
    proxy:
        extraArgs:
            foo: bar
            metrics-bind-address: $(POD_IP):10249
    inlineManifests:
        - name: cilium
          contents: |
            ---
            apiVersion: v1
            kind: ServiceAccount
            metadata:
              name: cilium
              namespace: kube-system
            ---
            apiVersion: v1
            kind: ServiceAccount
            metadata:
              name: cilium-operator
              namespace: kube-system
";
    assert_eq!(emit_v4(&doc), expected);
}

#[test]
fn upstream_auditpolicy_and_link() {
    // configpatcher/testdata/auditpolicy/expected.yaml
    let doc = m(vec![
        ("version", g("v1alpha1")),
        (
            "machine",
            m(vec![
                ("type", g("")),
                ("token", g("")),
                ("certSANs", sq(vec![])),
                ("network", m(vec![("hostname", g("hostname-foo"))])),
            ]),
        ),
        (
            "cluster",
            m(vec![
                ("controlPlane", m(vec![("endpoint", g("https://localhost:6443"))])),
                (
                    "apiServer",
                    m(vec![(
                        "auditPolicy",
                        m(vec![
                            ("apiVersion", g("audit.k8s.io/v1")),
                            ("kind", g("Policy")),
                            ("rules", sq(vec![m(vec![("level", g("None"))])])),
                        ]),
                    )]),
                ),
            ]),
        ),
    ]);
    assert_eq!(
        emit_v4(&doc),
        "version: v1alpha1\nmachine:\n    type: \"\"\n    token: \"\"\n    certSANs: []\n    network:\n        hostname: hostname-foo\ncluster:\n    controlPlane:\n        endpoint: https://localhost:6443\n    apiServer:\n        auditPolicy:\n            apiVersion: audit.k8s.io/v1\n            kind: Policy\n            rules:\n                - level: None\n"
    );
    // configpatcher/testdata/patchlink/expected.yaml
    let link = m(vec![
        ("apiVersion", g("v1alpha1")),
        ("kind", g("LinkConfig")),
        ("name", g("eth0")),
        ("addresses", sq(vec![m(vec![("address", g("10.0.42.137/24"))])])),
        ("routes", sq(vec![m(vec![("gateway", g("10.0.42.1"))])])),
    ]);
    assert_eq!(
        emit_v4(&link),
        "apiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\naddresses:\n    - address: 10.0.42.137/24\nroutes:\n    - gateway: 10.0.42.1\n"
    );
    // The same document after a JSON6902 step (ghodss: sorted keys, indentless sequences).
    let mut entries = match &link.value {
        NodeValue::Mapping(e, _) => e.clone(),
        _ => Vec::new(),
    };
    sort_keys_v2(&mut entries);
    assert_eq!(
        emit_v2(&Node::mapping(entries)),
        "addresses:\n- address: 10.0.42.137/24\napiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\nroutes:\n- gateway: 10.0.42.1\n"
    );
}

// --- preserved styles, flow collections, tags ------------------------------------------------

/// Preserved styles. The folded case pins go-yaml's port of libyaml, which looks for the next
/// non-break character from the start of the value instead of the current position, so a final
/// line break is preceded by an extra one.
#[test]
fn preserved_styles_v4() {
    let flow = Node {
        value: NodeValue::Sequence(vec![p("10.3.5.5/32")], CollectionStyle::Flow),
        tag: None,
        mark: Default::default(),
        origin: None,
    };
    let flow_map = Node {
        value: NodeValue::Mapping(
            vec![
                (p("a"), p("b")),
                (
                    p("c"),
                    Node {
                        value: NodeValue::Sequence(
                            vec![p("1"), Node::scalar("x y", ScalarStyle::DoubleQuoted)],
                            CollectionStyle::Flow,
                        ),
                        tag: None,
                        mark: Default::default(),
                        origin: None,
                    },
                ),
            ],
            CollectionStyle::Flow,
        ),
        tag: None,
        mark: Default::default(),
        origin: None,
    };
    let mut bin = Node::plain("aGVsbG8=");
    bin.tag = Some("!!binary".into());
    let mut quoted_str = Node::scalar("x", ScalarStyle::DoubleQuoted);
    quoted_str.tag = Some("!!str".into());
    let mut forced = Node::plain("12");
    forced.tag = Some("!!str".into());
    let mut int_tag = Node::plain("0o644");
    int_tag.tag = Some("!!int".into());
    let doc = Node::mapping(vec![
        (p("routes"), flow),
        (p("m"), flow_map),
        (p("s"), Node::scalar("it", ScalarStyle::SingleQuoted)),
        (p("d"), Node::scalar("it", ScalarStyle::DoubleQuoted)),
        (p("l"), Node::scalar("a\nb\n", ScalarStyle::Literal)),
        (p("f"), Node::scalar("a b\nc\n", ScalarStyle::Folded)),
        (p("bin"), bin),
        (p("qs"), quoted_str),
        (p("forced"), forced),
        (p("mode"), int_tag),
        (p("e"), Node::plain("")),
        (
            p("flowempty"),
            Node {
                value: NodeValue::Sequence(vec![Node::plain("")], CollectionStyle::Flow),
                tag: None,
                mark: Default::default(),
                origin: None,
            },
        ),
    ]);
    assert_eq!(
        emit_v4(&doc),
        "routes: [10.3.5.5/32]\nm: {a: b, c: [1, \"x y\"]}\ns: 'it'\nd: \"it\"\nl: |\n    a\n    b\nf: >\n    a b\n\n    c\n\nbin: !!binary aGVsbG8=\nqs: \"x\"\nforced: \"12\"\nmode: 0o644\ne:\nflowempty: ['']\n"
    );
}

#[test]
fn nested_sequences_at_root() {
    let doc = sq(vec![sq(vec![p("1"), sq(vec![p("2")])]), m(vec![("a", sq(vec![g("x")]))])]);
    assert_eq!(emit_v4(&doc), "- - 1\n  - - 2\n- a:\n    - x\n");
    assert_eq!(emit_v2(&doc), "- - 1\n  - - 2\n- a:\n  - x\n");
}

#[test]
fn v2_wrapping_quoted_and_lists() {
    let words = vec!["abcd"; 20].join(" ");
    // Single-quoted (leading `*`): wrapped like plain scalars.
    let single = format!("*{words}");
    // Double-quoted (a tab forces it): a space after the break point is escaped.
    let double = format!("{}\t  x", vec!["abcd"; 17].join(" "));
    let doc = m(vec![(
        "machine",
        m(vec![("nodeLabels", m(vec![("s", g(&single)), ("d", g(&double))])), ("certSANs", sq(vec![g(&words)]))]),
    )]);
    assert_eq!(
        emit_v2(&doc),
        "machine:\n  nodeLabels:\n    s: '*abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd\n      abcd abcd abcd abcd abcd'\n    d: \"abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd\n      abcd abcd\\t  x\"\n  certSANs:\n  - abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd\n    abcd abcd abcd abcd\n"
    );
    // Keys are never wrapped, but the value after a long key breaks at its first space; v4
    // never wraps.
    let key = vec!["abcd"; 24].join(" ");
    let doc = m(vec![(key.as_str(), g(&words))]);
    assert_eq!(
        emit_v2(&doc),
        format!(
            "{key}: abcd\n  abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd abcd\n  abcd abcd abcd\n"
        )
    );
    assert_eq!(emit_v4(&doc), format!("{key}: {words}\n"));
}

#[test]
fn key_sorting_helpers() {
    let keys = ["b", "a10", "a9", "a1-", "a1b", "a1", ""];
    let mut v4: Vec<(Node, Node)> = keys.iter().map(|k| (g(k), Node::null())).collect();
    let mut v2 = v4.clone();
    sort_keys_v4(&mut v4);
    sort_keys_v2(&mut v2);
    let names = |e: &[(Node, Node)]| -> Vec<String> {
        e.iter().map(|(k, _)| k.as_scalar().map(|s| s.text.clone()).unwrap_or_default()).collect()
    };
    assert_eq!(names(&v4), ["", "a1", "a1b", "a1-", "a9", "a10", "b"]);
    assert_eq!(names(&v2), ["", "a1", "a1-", "a1b", "a9", "a10", "b"]);
    let doc = Node::mapping(v4);
    assert_eq!(emit_v4(&doc), "\"\": null\na1: null\na1b: null\na1-: null\na9: null\na10: null\nb: null\n");
}

proptest::proptest! {
    /// Neither emitter nor resolver panics on arbitrary text, in any scalar style or position.
    #[test]
    fn never_panics(s in "\\PC*|[ \\t\\n\\r\u{85}\u{2028}\u{feff}a:#'\"-]{0,12}") {
        for style in [
            ScalarStyle::Plain,
            ScalarStyle::SingleQuoted,
            ScalarStyle::DoubleQuoted,
            ScalarStyle::Literal,
            ScalarStyle::Folded,
            ScalarStyle::GoString,
            ScalarStyle::GoNode,
        ] {
            let v = Node::scalar(s.clone(), style);
            let doc = Node::mapping(vec![
                (v.clone(), sq(vec![v.clone(), m(vec![("k", v.clone())])])),
                (g("x"), v.clone()),
            ]);
            let _ = emit_v4(&doc);
            let _ = emit_v2(&doc);
            let _ = emit_v4(&v);
            let _ = emit_v2(&v);
        }
        let _ = resolve_v4(&s);
        let _ = talos_yaml::resolve::resolve_v11(&s);
    }
}
