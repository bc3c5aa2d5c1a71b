//! Validate checks of the new-style document kinds (docs/validation.md §7, §11.5, §11.7).

use talos_config::Config;
use talos_config::{Mode, Options};

/// A document's own error text (`errors.Join` of its parts), as upstream tests compare it;
/// `""` when valid.
fn own(yaml: &str) -> String {
    let cfg = Config::from_bytes(yaml.as_bytes()).unwrap_or_else(|e| panic!("load {yaml}: {e}"));
    let report = cfg.validate(Mode::Container, Options::default());
    let Some(error) = report.error else { return String::new() };
    let issues = talos_config::testing::issues(&error);
    assert_eq!(issues.len(), 1, "{error}");
    let text = issues[0].to_string();
    // Strip the `<docID>: ` prefix.
    let (_, msg) = text.split_once(": ").unwrap_or(("", &text));
    msg.to_string()
}

fn warnings(yaml: &str) -> Vec<String> {
    Config::from_bytes(yaml.as_bytes()).unwrap().validate(Mode::Container, Options::default()).warnings
}

/// The full container text.
fn full(yaml: &str) -> String {
    let cfg = Config::from_bytes(yaml.as_bytes()).unwrap();
    cfg.validate(Mode::Container, Options::default()).error.map(|e| e.to_string()).unwrap_or_default()
}

fn doc(kind: &str, body: &str) -> String {
    format!("apiVersion: v1alpha1\nkind: {kind}\n{body}")
}

// ---- runtime ----

#[test]
fn environment() {
    assert_eq!(own(&doc("EnvironmentConfig", "variables: {}\n")), "");
    assert_eq!(own(&doc("EnvironmentConfig", "variables:\n  GOOD_1: x\n")), "");
    for k in ["1INVALID", "INVALID-CHAR"] {
        assert_eq!(
            own(&doc("EnvironmentConfig", &format!("variables:\n  {k}: x\n"))),
            format!("invalid environment variable name: \"{k}\"")
        );
    }
    assert_eq!(own(&doc("EnvironmentConfig", "variables:\n  \"\": x\n")), "invalid environment variable name: \"\"");
}

#[test]
fn event_sink() {
    assert_eq!(own(&doc("EventSinkConfig", "endpoint: \"\"\n")), "event sink endpoint: missing port in address");
    assert_eq!(
        own(&doc("EventSinkConfig", "endpoint: 10.0.0.1\n")),
        "event sink endpoint: address 10.0.0.1: missing port in address"
    );
    assert_eq!(
        own(&doc("EventSinkConfig", "endpoint: \"a:b:c\"\n")),
        "event sink endpoint: address a:b:c: too many colons in address"
    );
    assert_eq!(own(&doc("EventSinkConfig", "endpoint: \"[fd00::1]:4000\"\n")), "");
    assert_eq!(own(&doc("EventSinkConfig", "endpoint: 10.0.0.1:4000\n")), "");
}

#[test]
fn kmsg_log() {
    let k = |body: &str| own(&doc("KmsgLogConfig", body));
    assert_eq!(k("name: \"\"\nurl: tcp://10.0.0.1:80\n"), "name is required");
    assert_eq!(k("name: a\n"), "url is required");
    assert_eq!(k("name: a\nurl: https://10.0.0.1:80\n"), "url scheme must be tcp:// or udp://");
    assert_eq!(k("name: a\nurl: tcp://10.0.0.1:80/path\n"), "url path must be empty");
    assert_eq!(k("name: a\nurl: tcp://10.0.0.1\n"), "url port is required");
    assert_eq!(k("name: a\nurl: tcp://10.0.0.1:80\n"), "");
    assert_eq!(k("name: a\nurl: udp://[fd00::1]:514\n"), "");
    // A bare `/` is an empty path (the form of Talos's own test data); the port is still needed.
    assert_eq!(k("name: a\nurl: tcp://192.168.3.7:3478/\n"), "");
    assert_eq!(k("name: a\nurl: tcp://some.destination/\n"), "url port is required");
}

#[test]
fn watchdog_and_oom() {
    assert_eq!(own(&doc("WatchdogTimerConfig", "device: \"\"\n")), "watchdog device: empty value");
    assert_eq!(
        own(&doc("WatchdogTimerConfig", "device: /dev/watchdog0\ntimeout: 5s\n")),
        "watchdog timeout: minimum value is 10s"
    );
    assert_eq!(
        own(&doc("WatchdogTimerConfig", "device: /dev/watchdog0\ntimeout: -1m\n")),
        "watchdog timeout: minimum value is 10s"
    );
    assert_eq!(own(&doc("WatchdogTimerConfig", "device: /dev/watchdog0\ntimeout: 1m\n")), "");
    assert_eq!(own(&doc("OOMConfig", "")), "");
    assert_eq!(own(&doc("OOMConfig", "sampleInterval: -1s\n")), "OOM sample interval must be longer than 0");
}

#[test]
fn extension_service() {
    let e = |body: &str| own(&doc("ExtensionServiceConfig", body));
    assert_eq!(e("name: \"\"\n"), "name is required");
    assert_eq!(e("name: foo\n"), "no config files found for extension \"foo\"");
    assert_eq!(e("name: foo\nenvironment: [A=b]\n"), "");
    assert_eq!(
        e("name: foo\nconfigFiles:\n  - content: \"\"\n    mountPath: /etc/x\n"),
        "extension content is required for extension \"foo\""
    );
    assert_eq!(
        e("name: foo\nconfigFiles:\n  - content: x\n    mountPath: \"\"\n"),
        "extension mount path is required for extension \"foo\""
    );
}

// ---- siderolink ----

#[test]
fn siderolink() {
    assert_eq!(own(&doc("SideroLinkConfig", "")), "apiUrl is required");
    assert_eq!(
        own(&doc("SideroLinkConfig", "apiUrl: http://example.com\n")),
        "apiUrl scheme must be https:// or grpc://"
    );
    assert_eq!(own(&doc("SideroLinkConfig", "apiUrl: https://example.com/path\n")), "apiUrl path must be empty");
    assert_eq!(own(&doc("SideroLinkConfig", "apiUrl: grpc://example.com:8090?jointoken=x\n")), "");
}

// ---- network ----

#[test]
fn hostname() {
    let h = |body: &str| own(&doc("HostnameConfig", body));
    assert_eq!(h(""), "either 'auto' or 'hostname' must be set");
    assert_eq!(h("auto: stable\nhostname: foo\n"), "'auto' and 'hostname' cannot be set at the same time");
    assert_eq!(h("auto: talos-addr\n"), "invalid value for 'auto': talos-addr");
    let long = "a".repeat(64);
    assert_eq!(h(&format!("auto: \"off\"\nhostname: {long}\n")), format!("invalid hostname \"{long}\""));
    assert_eq!(h(&format!("auto: \"off\"\nhostname: {long}.example.com\n")), format!("invalid hostname \"{long}\""));
    assert_eq!(h("auto: \"off\"\nhostname: .example.com\n"), "invalid hostname \"\"");
    let fqdn = format!("{}.{}", "a".repeat(10), "b".repeat(309));
    assert_eq!(fqdn.len(), 320);
    assert_eq!(h(&format!("auto: \"off\"\nhostname: {fqdn}\n")), "fqdn is too long: 320");
    assert_eq!(h("hostname: worker-1\n"), "");
    assert_eq!(h("auto: stable\n"), "");
}

#[test]
fn hostname_conflicts() {
    let base = "version: v1alpha1\nmachine:\n  type: worker\n  ca:\n    crt: Zm9v\n";
    let hn = "---\napiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n";
    let with = |machine_extra: &str| format!("{base}{machine_extra}{hn}");
    let text = full(&with("  network:\n    hostname: foo\n"));
    assert!(text.ends_with("\t* static hostname is already set in v1alpha1 config\n\n"), "{text}");
    let text = full(&with("  features:\n    stableHostname: true\n"));
    assert!(text.ends_with("\t* stable hostname is already set in v1alpha1 config\n\n"), "{text}");
}

#[test]
fn links() {
    assert_eq!(own(&doc("LinkConfig", "name: \"\"\n")), "name must be specified");
    assert_eq!(
        own(&doc("LinkConfig", "name: eth0\naddresses:\n  - address: \"\"\n  - address: 0.0.0.0/0\n")),
        "address 0 must be specified\naddress 1 must be a valid IP address"
    );
    assert_eq!(
        own(&doc(
            "LinkConfig",
            "name: eth0\nroutes:\n  - destination: 0.0.0.0/0\n    gateway: \"::\"\n    source: 0.0.0.0\n"
        )),
        "route 0 destination must be a valid IP prefix\nroute 0 gateway must be a valid IP address\nroute 0 source must be a valid IP address"
    );
    assert_eq!(
        own(&doc("VLANConfig", "name: \"\"\n")),
        "name must be specified\nvlanID must be specified and between 1 and 4094\nparent must be specified"
    );
    assert_eq!(
        own(&doc("VLANConfig", "name: v\nvlanID: 4095\nparent: eth0\n")),
        "vlanID must be specified and between 1 and 4094"
    );
    assert_eq!(own(&doc("VLANConfig", "name: v\nvlanID: 25\nparent: eth0\nvlanMode: 802.1ad\n")), "");
    assert_eq!(
        own(&doc("BondConfig", "name: \"\"\n")),
        "name must be specified\nat least one link must be specified\nbond mode must be specified"
    );
    assert_eq!(own(&doc("BondConfig", "name: b\nbondMode: active-backup\n")), "at least one link must be specified");
    assert_eq!(own(&doc("BondConfig", "name: b\nlinks: [eth0]\n")), "bond mode must be specified");
    let bond = doc("BondConfig", "name: bond25\nlinks: [eth0, eth1]\nbondMode: 802.3ad\n");
    assert_eq!(own(&bond), "");
    assert_eq!(
        warnings(&bond),
        [
            "miimon was not specified for 802.3ad bond",
            "updelay was not specified for 802.3ad bond",
            "downdelay was not specified for 802.3ad bond"
        ]
    );
    assert_eq!(own(&doc("BridgeConfig", "name: \"\"\n")), "name must be specified");
    assert_eq!(own(&doc("BridgeConfig", "name: br0\n")), "");
    assert_eq!(own(&doc("DummyLinkConfig", "name: \"\"\n")), "name must be specified");
}

#[test]
fn vrf() {
    assert_eq!(
        own(&doc("VRFConfig", "name: \"\"\n")),
        "name must be specified\ncannot create vrf with reserved table unspec"
    );
    for (t, n) in [("default", "default"), ("main", "main"), ("local", "local")] {
        assert_eq!(
            own(&doc("VRFConfig", &format!("name: v\ntable: {t}\n"))),
            format!("cannot create vrf with reserved table {n}")
        );
    }
    assert_eq!(own(&doc("VRFConfig", "name: v\ntable: 123\n")), "");
}

#[test]
fn wireguard() {
    let w = |body: &str| own(&doc("WireguardConfig", body));
    assert_eq!(w("name: \"\"\n"), "name must be specified\nwireguard private key must be specified");
    assert_eq!(
        w("name: wg\nprivateKey: invalid-key\n"),
        "wireguard private key is invalid: illegal base64 data at input byte 7"
    );
    let good = "0CWDz05gWWwVAwr4i5Zaz41k/FgIVYJmCsgAfLHUakU=";
    assert_eq!(w(&format!("name: wg\nprivateKey: {good}\n")), "");
    assert_eq!(w("name: wg\nprivateKey: Zm9v\n"), "wireguard private key is invalid: invalid wireguard key length");
    assert_eq!(
        w(&format!("name: wg\nprivateKey: {good}\npeers:\n  - publicKey: invalid-peer-key\n")),
        "wireguard peer public key is invalid (peer index 0): illegal base64 data at input byte 7"
    );
    assert_eq!(
        w(&format!("name: wg\nprivateKey: {good}\npeers:\n  - publicKey: {good}\n    presharedKey: invalid-psk\n")),
        "wireguard peer preshared key is invalid (peer index 0): illegal base64 data at input byte 7"
    );
    assert_eq!(
        w(&format!("name: wg\nprivateKey: {good}\nlistenPort: 70000\npeers:\n  - persistentKeepaliveInterval: -1s\n")),
        "wireguard listen port must be between 0 and 65535\nwireguard peer public key must be specified (peer index 0)\nwireguard peer persistent keepalive interval cannot be negative (peer index 0)"
    );
}

#[test]
fn dhcp_ethernet_static_host() {
    for kind in ["DHCPv4Config", "DHCPv6Config"] {
        assert_eq!(own(&doc(kind, "name: \"\"\n")), "name must be specified");
        assert_eq!(
            own(&doc(kind, "name: e\nclientIdentifier: duid\n")),
            "duidRaw must be set if clientIdentifier is 'duid'"
        );
        assert_eq!(
            own(&doc(kind, "name: e\nduidRaw: 00:01:00:01:23:45:67:89:ab:cd:ef:01:23:45\n")),
            "duidRaw can only be set if clientIdentifier is 'duid'"
        );
    }
    assert_eq!(own(&doc("EthernetConfig", "name: \"\"\n")), "name is required");
    assert_eq!(
        own(&doc("StaticHostConfig", "name: \"\"\nhostnames: []\n")),
        "name is required\nname must be a valid IP address\nat least one hostname is required"
    );
    assert_eq!(own(&doc("StaticHostConfig", "name: 10.0.0.x\nhostnames: [a]\n")), "name must be a valid IP address");
    assert_eq!(own(&doc("StaticHostConfig", "name: 10.0.0.1\nhostnames: []\n")), "at least one hostname is required");
}

#[test]
fn static_host_container_format() {
    assert_eq!(
        full(&doc("StaticHostConfig", "name: foo\nhostnames: []\n")),
        "1 error occurred:\n\t* StaticHostConfig/foo: name must be a valid IP address\nat least one hostname is required\n\n"
    );
}

#[test]
fn blackhole_routing_vip() {
    assert_eq!(
        own(&doc("BlackholeRouteConfig", "name: \"\"\n")),
        "name must be specified\nname must be a valid address prefix: netip.ParsePrefix(\"\"): no '/'"
    );
    assert_eq!(
        own(&doc("BlackholeRouteConfig", "name: no-prefix\n")),
        "name must be a valid address prefix: netip.ParsePrefix(\"no-prefix\"): no '/'"
    );
    assert_eq!(own(&doc("BlackholeRouteConfig", "name: 10.0.1.2/24\n")), "");
    assert_eq!(
        own(&doc("RoutingRuleConfig", "name: \"\"\n")),
        "name must be specified\ninvalid name: must be priority parsable unsigned integer: strconv.ParseUint: parsing \"\": invalid syntax\npriority must be between 1 and 32765 (excluding reserved priorities [0 32500 32766 32767])\neither table or a non-unicast action must be specified"
    );
    for p in ["32766", "32767"] {
        assert_eq!(
            own(&doc("RoutingRuleConfig", &format!("name: \"{p}\"\ntable: 100\n"))),
            "priority must be between 1 and 32765 (excluding reserved priorities [0 32500 32766 32767])"
        );
    }
    assert_eq!(
        own(&doc("RoutingRuleConfig", "name: \"1000\"\n")),
        "either table or a non-unicast action must be specified"
    );
    assert_eq!(own(&doc("RoutingRuleConfig", "name: \"1000\"\naction: blackhole\n")), "");
    assert_eq!(
        own(&doc("RoutingRuleConfig", "name: \"1000\"\ntable: 100\nfwMask: 65280\n")),
        "fwMask requires fwMark to be set"
    );
    assert_eq!(
        own(&doc("Layer2VIPConfig", "name: \"\"\nlink: \"\"\n")),
        "name must be specified\nlink must be specified"
    );
    assert_eq!(
        own(&doc("Layer2VIPConfig", "name: net4\nlink: eth0\n")),
        "name must be a valid IP address: ParseAddr(\"net4\"): unable to parse IP"
    );
    assert_eq!(
        own(&doc("HCloudVIPConfig", "name: \"\"\nlink: \"\"\napiToken: \"\"\n")),
        "name must be specified\nlink must be specified\napiToken must be specified"
    );
    assert_eq!(
        own(&doc("HCloudVIPConfig", "name: net32\nlink: eth0\napiToken: t\n")),
        "name must be a valid IP address: ParseAddr(\"net32\"): unable to parse IP"
    );
}

#[test]
fn link_alias() {
    assert_eq!(own(&doc("LinkAliasConfig", "name: \"\"\n")), "name must be specified\nlink selector is required");
    assert_eq!(
        own(&doc("LinkAliasConfig", "name: int0\nselector:\n  match: disk.size > 120\n")),
        "link selector is invalid: ERROR: <input>:1:1: undeclared reference to 'disk' (in container '')\n | disk.size > 120\n | ^"
    );
    assert_eq!(
        own(&doc(
            "LinkAliasConfig",
            "name: int0\nselector:\n  match: 'mac(link.permanent_addr) == \"00:1a:2b:3c:4d:5e\"'\n"
        )),
        ""
    );
    assert_eq!(own(&doc("LinkAliasConfig", "name: net%d\nselector:\n  match: link.type == 1\n")), "");
    for n in ["net%02d", "net%d-port%d", "net%s"] {
        assert_eq!(
            own(&doc("LinkAliasConfig", &format!("name: \"{n}\"\nselector:\n  match: link.type == 1\n"))),
            format!("name \"{n}\" contains an invalid format verb, use %d suffix")
        );
    }
}

#[test]
fn kubespan() {
    assert_eq!(own(&doc("KubeSpanConfig", "enabled: true\nmtu: 1279\n")), "kubespan link MTU must be at least 1280");
    assert_eq!(own(&doc("KubeSpanConfig", "enabled: true\nmtu: 0\n")), "kubespan link MTU must be at least 1280");
    assert_eq!(own(&doc("KubeSpanConfig", "enabled: true\nmtu: 1280\n")), "");
    assert_eq!(
        own(&doc("KubeSpanConfig", "enabled: true\nfilters:\n  endpoints: [0.0.0.0/0, \"!/8\"]\n")),
        "KubeSpan endpoint filter is not valid: \"/8\""
    );
    let text = full(
        "version: v1alpha1\nmachine:\n  type: worker\n  ca:\n    crt: Zm9v\n  network:\n    kubespan:\n      enabled: false\n---\napiVersion: v1alpha1\nkind: KubeSpanConfig\nenabled: true\n",
    );
    assert!(text.ends_with("\t* kubespan is already configured in v1alpha1 machine.network.kubespan\n\n"), "{text}");
}

#[test]
fn resolver_and_time_sync_conflicts() {
    let base = "version: v1alpha1\nmachine:\n  type: worker\n  ca:\n    crt: Zm9v\n";
    for (extra, msg) in [
        (
            "  network:\n    searchDomains: [a.org]\n",
            ".machine.network.searchDomains is already set in v1alpha1 config",
        ),
        ("  network:\n    nameservers: [1.1.1.1]\n", ".machine.network.nameservers is already set in v1alpha1 config"),
        // Talos reads the nameservers that are addresses (a zone is allowed), and tests the
        // search domains `!= nil`: an explicit empty list of them is set.
        (
            "  network:\n    nameservers: [dns.example.com, \"fe80::1%eth0\"]\n",
            ".machine.network.nameservers is already set in v1alpha1 config",
        ),
        ("  network:\n    searchDomains: []\n", ".machine.network.searchDomains is already set in v1alpha1 config"),
        (
            "  network:\n    disableSearchDomain: true\n",
            ".machine.network.disableSearchDomain is already set in v1alpha1 config",
        ),
    ] {
        let text = full(&format!("{base}{extra}---\napiVersion: v1alpha1\nkind: ResolverConfig\n"));
        assert!(text.ends_with(&format!("\t* {msg}\n\n")), "{text}");
    }
    for (extra, msg) in [
        ("  time:\n    disabled: true\n", "time sync cannot be disabled in both v1alpha1 and new-style configuration"),
        (
            "  time:\n    servers: [a]\n",
            "time servers cannot be specified in both v1alpha1 and new-style configuration",
        ),
        (
            "  time:\n    bootTimeout: 1m\n",
            "boot timeout cannot be specified in both v1alpha1 and new-style configuration",
        ),
    ] {
        let text = full(&format!("{base}{extra}---\napiVersion: v1alpha1\nkind: TimeSyncConfig\n"));
        assert!(text.ends_with(&format!("\t* {msg}\n\n")), "{text}");
    }
    // No conflict, as the reference programs of v1.12.11, v1.13.9 and v1.14.0-rc.1 say: no
    // nameserver that is an address (an empty list, host names), an empty list of time servers.
    for (extra, kind) in [
        ("  network:\n    nameservers: []\n", "ResolverConfig"),
        ("  network:\n    nameservers: [dns.example.com]\n", "ResolverConfig"),
        ("  time:\n    servers: []\n", "TimeSyncConfig"),
    ] {
        let text = full(&format!("{base}{extra}---\napiVersion: v1alpha1\nkind: {kind}\n"));
        assert_eq!(
            text,
            "1 error occurred:\n\t* v1alpha1.Config: 3 errors occurred:\n\t* cluster instructions are required\n\t* \
             feature HostDNS should be enabled in container mode (.machine.features.hostDNS.enabled)\n\t* feature \
             HostDNS should forward kube-dns to host in container mode \
             (.machine.features.hostDNS.forwardKubeDNSToHost)\n\n\n\n",
            "{extra}"
        );
    }
    assert_eq!(
        own(&doc("TimeSyncConfig", "ntp:\n  servers: [pool.ntp.org]\nptp:\n  devices: [/dev/ptp0]\n")),
        "only one of ntp or ptp configuration can be specified"
    );
    assert_eq!(own(&doc("TimeSyncConfig", "bootTimeout: -1s\n")), "bootTimeout cannot be negative");
}

#[test]
fn tcp_probe_and_rules() {
    assert_eq!(own(&doc("TCPProbeConfig", "name: \"\"\nendpoint: example.com:80\n")), "probe name is required");
    assert_eq!(own(&doc("TCPProbeConfig", "name: p\nendpoint: \"\"\n")), "TCP probe endpoint is required");
    assert_eq!(
        own(&doc(
            "TCPProbeConfig",
            "name: p\nendpoint: example.com:443\ntimeout: -5s\ninterval: -1s\nfailureThreshold: -1\n"
        )),
        "TCP probe timeout cannot be negative: -5s\nprobe interval cannot be negative: -1s\nprobe failure threshold cannot be negative: -1"
    );
    let r = |body: &str| own(&doc("NetworkRuleConfig", body));
    assert_eq!(r("name: \"\"\n"), "name is required");
    assert_eq!(r("name: \"-\"\n"), "portSelector.ports is required");
    assert_eq!(r("name: \"-\"\nportSelector:\n  ports: [80, 80-79]\n  protocol: tcp\n"), "invalid port range: 80-79");
    assert_eq!(
        r("name: \"-\"\nportSelector:\n  ports: [80]\n  protocol: tcp\ningress:\n  - subnet: \"\"\n"),
        "invalid subnet: invalid Prefix"
    );
    assert_eq!(
        r("name: \"-\"\nportSelector:\n  ports: [8081-8080]\n  protocol: tcp\n"),
        "invalid port range: 8081-8080"
    );
    assert_eq!(
        r("name: \"-\"\nportSelector:\n  ports: [1000-2000, 1500-2500]\n  protocol: tcp\n"),
        "invalid port range: 1500-2500, overlaps with 1000-2000"
    );
    assert_eq!(
        r("name: \"-\"\nportSelector:\n  ports: [1000, 1000]\n  protocol: tcp\n"),
        "invalid port range: 1000-1000, overlaps with 1000-1000"
    );
    assert_eq!(
        r(
            "name: \"-\"\nportSelector:\n  ports: [80, 6443-6444]\n  protocol: tcp\ningress:\n  - subnet: 192.168.0.0/16\n    except: 192.168.0.3/32\n"
        ),
        ""
    );
}

// ---- cri ----

#[test]
fn cri() {
    assert_eq!(own(&doc("RegistryMirrorConfig", "name: \"\"\n")), "name must be specified");
    assert_eq!(
        own(&doc("RegistryMirrorConfig", "name: docker.io\nendpoints:\n  - url: \"\"\n")),
        "endpoints[0].url must be specified"
    );
    assert_eq!(
        own(&doc("RegistryMirrorConfig", "name: docker.io\nendpoints:\n  - url: ftp://example.com\n")),
        "endpoints[0].url has unsupported scheme: \"ftp\""
    );
    assert_eq!(own(&doc("RegistryMirrorConfig", "name: docker.io\nendpoints:\n  - url: https://m.example.com\n")), "");
    assert_eq!(own(&doc("RegistryAuthConfig", "name: \"\"\n")), "name must be specified");
    assert_eq!(
        own(&doc("RegistryAuthConfig", "name: r\nusername: u\npassword: p\nidentityToken: t\n")),
        "only one of username/password or identityToken authentication can be specified"
    );
    // Talos v1.13.9 looks at the username only: a password alone goes with a token or `auth`.
    assert_eq!(own(&doc("RegistryAuthConfig", "name: r\npassword: p\nidentityToken: t\n")), "");
    assert_eq!(own(&doc("RegistryAuthConfig", "name: r\npassword: p\nauth: YTpi\n")), "");
    assert_eq!(
        own(&doc("RegistryAuthConfig", "name: \"\"\nusername: u\nidentityToken: t\nauth: YTpi\n")),
        "name must be specified\nonly one of username/password or identityToken authentication can be specified\nonly one of auth, username/password or identityToken authentication can be specified"
    );
    assert_eq!(own(&doc("RegistryTLSConfig", "name: \"\"\n")), "name must be specified");
    assert_eq!(
        own(&doc("RegistryTLSConfig", "name: r\nca: not a cert\n")),
        "ca must be a valid PEM-encoded certificate"
    );
    assert_eq!(
        own(&doc("RegistryTLSConfig", "name: r\nclientIdentity:\n  cert: x\n  key: y\n")),
        "client identity certificate is invalid: failed to parse PEM block\nclient identity key is invalid: failed to parse PEM block"
    );
}

#[test]
fn registry_tls_accepts_certificate_framing() {
    // A minimal DER SEQUENCE { SEQUENCE {} } wrapped in PEM.
    let pem = "-----BEGIN CERTIFICATE-----\nMAIwAA==\n-----END CERTIFICATE-----\n";
    assert_eq!(
        own(&doc("RegistryTLSConfig", &format!("name: r\nca: |\n  {}\n", pem.trim_end().replace('\n', "\n  ")))),
        ""
    );
}

// ---- block ----

#[test]
fn user_volume() {
    let u = |body: &str| own(&doc("UserVolumeConfig", body));
    let ok = "provisioning:\n  diskSelector:\n    match: system_disk\n  minSize: 10GiB\n";
    assert_eq!(u(&format!("name: \"\"\n{ok}")), "name is required\nname must be between 1 and 34 characters long");
    assert_eq!(u(&format!("name: {}\n{ok}", "a".repeat(35))), "name must be between 1 and 34 characters long");
    assert_eq!(
        u(&format!("name: some/name\n{ok}")),
        "name can only contain lowercase and uppercase ASCII letters, digits, and hyphens"
    );
    assert_eq!(
        u("name: d\nprovisioning:\n  minSize: 2.5TiB\n  maxSize: 10GiB\n"),
        "disk selector is required\nmin size is greater than max size"
    );
    assert_eq!(u(&format!("name: d\n{ok}filesystem:\n  type: iso9660\n")), "unsupported filesystem type: iso9660");
    // v1.13.9's enumer spells the swap filesystem `swapi`.
    assert_eq!(u(&format!("name: d\n{ok}filesystem:\n  type: swapi\n")), "unsupported filesystem type: swapi");
    // The size constants of v1.13.9's disk CEL environment: `kB` (small k), no `KB`.
    assert_eq!(u("name: d\nprovisioning:\n  diskSelector:\n    match: disk.size > 10u * kB\n  minSize: 1GiB\n"), "");
    assert_eq!(
        u("name: d\nprovisioning:\n  diskSelector:\n    match: disk.size > 1u * KB\n  minSize: 1GiB\n"),
        "disk selector is invalid: ERROR: <input>:1:18: undeclared reference to 'KB' (in container '')\n | disk.size > 1u * KB\n | .................^"
    );
    assert_eq!(
        u(&format!("name: d\n{ok}encryption:\n  provider: none\n  keys:\n    - slot: 0\n      tpm: {{}}\n")),
        "unsupported encryption provider: none"
    );
    assert_eq!(u(&format!("name: d\n{ok}encryption:\n  provider: luks2\n")), "encryption keys are required");
    assert_eq!(
        u(&format!(
            "name: d\n{ok}encryption:\n  provider: luks2\n  keys:\n    - slot: 1\n      tpm: {{}}\n    - slot: 0\n    - slot: 1\n      tpm: {{}}\n"
        )),
        "at least one encryption key type must be specified for slot 0\nduplicate key slot 1"
    );
    assert_eq!(
        u(&format!("name: d\n{ok}filesystem:\n  type: ext4\n  projectQuotaSupport: true\n")),
        "project quota support is only available for xfs filesystem"
    );
    assert_eq!(
        u(
            "name: d\nvolumeType: directory\nprovisioning:\n  minSize: 1GiB\nencryption:\n  provider: luks2\nfilesystem:\n  type: xfs\nmount:\n  secure: false\n"
        ),
        "provisioning spec is invalid for volumeType directory\nencryption spec is invalid for volumeType directory\nfilesystem spec is invalid for volumeType directory\nmount spec is invalid for volumeType directory"
    );
    assert_eq!(
        u("name: d\nvolumeType: disk\nprovisioning:\n  diskSelector:\n    match: system_disk\n  maxSize: 1GiB\n"),
        "min size, max size and grow are not supported"
    );
    assert_eq!(u("name: d\nvolumeType: tmpfs\n"), "unsupported volume type \"tmpfs\"");
    assert_eq!(u(&format!("name: d\n{ok}")), "");
    assert_eq!(u("name: d\nvolumeType: directory\n"), "");
    // `EncryptionSpec.IsZero` looks at the provider and the keys only (Talos v1.13.9).
    assert_eq!(u("name: d\nvolumeType: directory\nencryption:\n  cipher: aes-xts-plain64\n  keySize: 256\n"), "");
}

#[test]
fn volume_config() {
    let v = |body: &str| own(&doc("VolumeConfig", body));
    assert_eq!(v("name: FOO\n"), "only [\"STATE\" \"EPHEMERAL\" \"IMAGECACHE\"] volumes are supported");
    assert_eq!(
        v("name: EPHEMERAL\nprovisioning:\n  minSize: 2.5TiB\n  maxSize: 10GiB\n"),
        "min size is greater than max size"
    );
    assert_eq!(v("name: EPHEMERAL\nprovisioning:\n  minSize: -10GiB\n"), "min size cannot be negative");
    assert_eq!(
        v("name: STATE\nprovisioning:\n  minSize: 10GiB\n"),
        "provisioning config is not allowed for the \"STATE\" volume"
    );
    assert_eq!(
        v(
            "name: STATE\nencryption:\n  provider: luks2\n  keys:\n    - slot: 0\n      tpm: {}\n      lockToState: true\n"
        ),
        "state-locked key is not allowed for the \"STATE\" volume"
    );
    assert_eq!(
        v(
            "name: STATE\nencryption:\n  provider: luks2\n  keys:\n    - slot: 0\n      tpm:\n        options:\n          pcrs: [0, 24, 25]\n"
        ),
        "TPM PCR 24 is out of range (0-23)\nTPM PCR 25 is out of range (0-23)"
    );
    assert_eq!(v("name: EPHEMERAL\nprovisioning:\n  maxSize: 50%\n  grow: true\n"), "");
}

#[test]
fn volume_encryption_conflict() {
    let v1 = "version: v1alpha1\nmachine:\n  type: worker\n  ca:\n    crt: Zm9v\n  systemDiskEncryption:\n    ephemeral:\n      provider: luks2\n      keys:\n        - slot: 1\n          static:\n            passphrase: x\n";
    let enc = "encryption:\n  provider: luks2\n  keys:\n    - slot: 0\n      tpm: {}\n";
    let cfg = format!("{v1}---\napiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\n{enc}");
    // The v1alpha1 document here is minimal (it has errors of its own); the conflict comes last.
    let msg = "system disk encryption for \"EPHEMERAL\" is configured in both v1alpha1.Config and VolumeConfig";
    let text = full(&cfg);
    assert!(text.ends_with(&format!("\t* {msg}\n\n")), "{text}");
    let unencrypted = full(&format!("{v1}---\napiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\n"));
    assert!(!unencrypted.contains(msg), "{unencrypted}");
    let state = full(&format!("{v1}---\napiVersion: v1alpha1\nkind: VolumeConfig\nname: STATE\n{enc}"));
    assert!(!state.contains(msg), "{state}");
}

#[test]
fn raw_swap_existing_external_zswap() {
    for kind in ["RawVolumeConfig", "SwapVolumeConfig"] {
        assert_eq!(
            own(&doc(kind, "name: x\nprovisioning:\n  diskSelector:\n    match: system_disk\n")),
            "min size or max size is required"
        );
        assert_eq!(
            own(&doc(kind, "name: x\nprovisioning:\n  minSize: 2.5TiB\n  maxSize: 10GiB\n")),
            "disk selector is required\nmin size is greater than max size"
        );
    }
    assert_eq!(
        own(&doc(
            "ExistingVolumeConfig",
            "name: \"\"\ndiscovery:\n  volumeSelector:\n    match: volume.name == \"x\"\n"
        )),
        "name is required"
    );
    assert_eq!(
        own(&doc(
            "ExistingVolumeConfig",
            "name: a/b\ndiscovery:\n  volumeSelector:\n    match: volume.name == \"x\"\n"
        )),
        "name can only contain lowercase and uppercase ASCII letters, digits, and hyphens"
    );
    assert_eq!(own(&doc("ExistingVolumeConfig", "name: a\n")), "volume selector is required");
    let e = |body: &str| own(&doc("ExternalVolumeConfig", body));
    assert_eq!(
        e("name: \"\"\nfilesystemType: virtiofs\nmount:\n  virtiofs:\n    tag: t\n"),
        "name is required\nname must be between 1 and 34 characters long"
    );
    assert_eq!(e("name: a\nfilesystemType: virtiofs\n"), "virtiofs mount spec is required");
    assert_eq!(e("name: a\nfilesystemType: ext4\n"), "invalid filesystem type: ext4");
    assert_eq!(e("name: a\nfilesystemType: none\n"), "invalid filesystem type: none");
    assert_eq!(e("name: a\nfilesystemType: virtiofs\nmount:\n  virtiofs:\n    tag: t\n"), "");
    assert_eq!(own(&doc("ZswapConfig", "maxPoolPercent: 101\n")), "maxPoolPercent must be between 0 and 100");
    assert_eq!(own(&doc("ZswapConfig", "maxPoolPercent: 20\n")), "");
}

// ---- security ----

#[test]
fn image_verification() {
    let i = |body: &str| own(&doc("ImageVerificationConfig", body));
    assert_eq!(
        i("rules:\n  - skip: false\n"),
        "rule 0: imagePattern must be specified\nrule 0: at least one verifier must be configured"
    );
    assert_eq!(i("rules:\n  - image: docker.io/*\n"), "rule 0: at least one verifier must be configured");
    assert_eq!(
        i("rules:\n  - image: docker.io/*\n    keyless:\n      subject: user@example.com\n"),
        "rule 0: verifier OIDC issuer must be specified"
    );
    assert_eq!(
        i("rules:\n  - image: docker.io/*\n    keyless:\n      issuer: https://accounts.google.com\n"),
        "rule 0: verifier subject or subjectRegex must be specified"
    );
    assert_eq!(
        i("rules:\n  - image: docker.io/*\n    skip: true\n    keyless:\n      issuer: i\n      subject: s\n"),
        "rule 0: verifiers cannot be configured if skip or deny is true"
    );
    assert_eq!(
        i("rules:\n  - skip: true\n  - image: docker.io/*\n"),
        "rule 0: imagePattern must be specified\nrule 1: at least one verifier must be configured"
    );
    let w = warnings(&doc(
        "ImageVerificationConfig",
        "rules:\n  - image: docker.io/nginx:latest\n    skip: true\n  - image: docker.io/nginx@abc\n    skip: true\n  - image: nginx\n    skip: true\n",
    ));
    assert_eq!(
        w,
        [
            "rule 0: imagePattern contains ':' but matching only applies to the image registry and repository, not the tag or digest",
            "rule 1: imagePattern contains '@' but matching only applies to the image registry and repository, not the tag or digest",
            "rule 2: imagePattern does not contain a '/', image references like 'nginx' are matched as 'docker.io/nginx' (normalized)",
        ]
    );
}

// ---- container level (§11.5) ----

#[test]
fn container_siderolink() {
    assert_eq!(full(&doc("SideroLinkConfig", "")), "1 error occurred:\n\t* SideroLinkConfig: apiUrl is required\n\n");
    assert_eq!(
        full(&format!("{}---\nversion: v1alpha1\npersist: true\n", doc("SideroLinkConfig", ""))),
        "2 errors occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* machine instructions are required\n\n\n\t* SideroLinkConfig: apiUrl is required\n\n"
    );
}

#[test]
fn fields_carry_paths() {
    let cfg =
        Config::from_bytes(doc("HCloudVIPConfig", "name: \"\"\nlink: \"\"\napiToken: \"\"\n").as_bytes()).unwrap();
    let error = cfg.validate(Mode::Container, Options::default()).error.unwrap();
    assert_eq!(
        crate::common::fields_of(&error.diagnostics()),
        [
            (Some("HCloudVIPConfig:name".to_string()), "name must be specified".to_string()),
            (Some("HCloudVIPConfig:link".to_string()), "link must be specified".to_string()),
            (Some("HCloudVIPConfig:apiToken".to_string()), "apiToken must be specified".to_string())
        ]
    );
}
