//! talosconfig loading, endpoints, label rewrite and encoding, without a network.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use proptest::prelude::*;
use talos_client::config::{Endpoint, POD_TALOSCONFIG, resolve_path_with, rewrite_key_label};
use talos_client::{ErrorKind, Talosconfig};

const CA1: &str = "-----BEGIN CERTIFICATE-----\nQ0ExCg==\n-----END CERTIFICATE-----\n";
const CA2: &str = "-----BEGIN CERTIFICATE-----\nQ0EyCg==\n-----END CERTIFICATE-----\n";
const CRT: &str = "-----BEGIN CERTIFICATE-----\nQ1JUCg==\n-----END CERTIFICATE-----\n";
const KEY: &str = "-----BEGIN ED25519 PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END ED25519 PRIVATE KEY-----\n";

fn b64(s: &str) -> String {
    STANDARD.encode(s)
}

fn sample() -> String {
    format!(
        "context: talos-default\ncontexts:\n    other:\n        endpoints:\n            - 10.0.0.1\n        ca: {}\n        crt: {}\n        key: {}\n    talos-default:\n        endpoints:\n            - 127.0.0.1:50000\n            - \"[::1]\"\n        nodes:\n            - 10.5.0.2\n        ca: {}\n        crt: {}\n        key: {}\n        cluster: ignored\n        auth:\n            basic: {{username: u, password: p}}\n",
        b64(CA1),
        b64(CRT),
        b64(KEY),
        b64(&format!("{CA1}{CA2}")),
        b64(CRT),
        b64(KEY)
    )
}

#[test]
fn parses_exact_values() {
    let cfg = Talosconfig::parse(sample().as_bytes()).unwrap();
    assert_eq!(cfg.context.as_deref(), Some("talos-default"));
    assert_eq!(cfg.contexts.len(), 2);
    let ctx = cfg.context(None).unwrap();
    assert_eq!(ctx.endpoints, ["127.0.0.1:50000", "[::1]"]);
    assert_eq!(ctx.nodes, ["10.5.0.2"]);
    assert_eq!(ctx.ca_pem(), format!("{CA1}{CA2}").as_bytes());
    assert_eq!(ctx.ca_certificates(), vec![CA1.as_bytes().to_vec(), CA2.as_bytes().to_vec()]);
    assert_eq!(ctx.crt_pem(), CRT.as_bytes());
    assert_eq!(ctx.key_pem(), KEY.as_bytes());
    assert!(String::from_utf8(ctx.key_pem_for_rustls()).unwrap().starts_with("-----BEGIN PRIVATE KEY-----\nMC4C"));
    ctx.check_pki().unwrap();
    let eps = ctx.parsed_endpoints().unwrap();
    assert_eq!(eps[0], Endpoint { host: "127.0.0.1".into(), port: 50000 });
    assert_eq!(eps[1], Endpoint { host: "::1".into(), port: 50000 });
    assert_eq!(eps[1].uri(), "https://[::1]:50000");
    let other = cfg.context(Some("other")).unwrap();
    assert_eq!(other.endpoints, ["10.0.0.1"]);
    assert_eq!(other.ca_certificates().len(), 1);
}

#[test]
fn context_errors() {
    let cfg = Talosconfig::parse(sample().as_bytes()).unwrap();
    assert_eq!(cfg.context(Some("nope")).unwrap_err().to_string(), "context \"nope\" not found in config");
    let cfg = Talosconfig::parse(b"context: gone\ncontexts: {}\n").unwrap();
    assert_eq!(cfg.context(None).unwrap_err().to_string(), "default context \"gone\" not found in config");
    assert_eq!(Talosconfig::parse(b"").unwrap_err().to_string(), "talos config file is empty");
    assert_eq!(Talosconfig::parse(b"  \n").unwrap_err().to_string(), "talos config file is empty");
    let cfg = Talosconfig::parse(b"context: a\ncontexts:\n  a: {}\n").unwrap();
    assert_eq!(cfg.context(None).unwrap().parsed_endpoints().unwrap_err().to_string(), "failed to determine endpoints");
}

#[test]
fn legacy_target_is_appended() {
    let cfg = Talosconfig::parse(b"context: a\ncontexts:\n  a:\n    target: 10.5.0.9\n    endpoints: [e1]\n").unwrap();
    assert_eq!(cfg.context(None).unwrap().endpoints, ["e1", "10.5.0.9"]);
}

#[test]
fn errors_never_show_secrets() {
    let secret = "c2VjcmV0LWtleS1tYXRlcmlhbA==!";
    let text = format!("context: a\ncontexts:\n  a:\n    endpoints: [x]\n    key: {secret}\n");
    let err = Talosconfig::parse(text.as_bytes()).unwrap_err();
    assert_eq!(err.to_string(), "context \"a\": key is not valid base64");
    assert!(!format!("{err:?}").contains("c2VjcmV0"));

    let cfg = Talosconfig::parse(sample().as_bytes()).unwrap();
    let debug = format!("{cfg:?}");
    assert!(!debug.contains("MC4C") && !debug.contains("PRIVATE") && !debug.contains("Q1JU"), "{debug}");
    assert!(debug.contains("<redacted>"));

    let text = format!("context: a\ncontexts:\n  a:\n    key: {secret}\n    endpoints: [1\n");
    let err = Talosconfig::parse(text.as_bytes()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Config, "{err:?}");
    assert_eq!(
        err.to_string(),
        "invalid talosconfig: yaml: while parsing a flow sequence at line 4, column 16: line 5: did not find expected ',' or ']'"
    );
    assert!(!err.to_string().contains("c2VjcmV0") && !format!("{err:?}").contains("c2VjcmV0"));
    let err = Talosconfig::parse(b"- a\n").unwrap_err();
    assert_eq!(err.to_string(), "invalid talosconfig: the top level must be a mapping");
}

#[test]
fn duplicate_keys_are_refused_as_go_yaml_does() {
    let err = Talosconfig::parse(b"context: a\ncontexts: {}\ncontext: b\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid talosconfig: yaml: unmarshal errors:\n  line 3: mapping key \"context\" already defined at line 1"
    );
    let secret = "c2VjcmV0LWtleS1tYXRlcmlhbA==";
    let text = format!(
        "context: a\ncontexts:\n  a:\n    key: {secret}\n    endpoints: [x]\n    key: {secret}\n  b: {{}}\n  b: {{}}\n"
    );
    let err = Talosconfig::parse(text.as_bytes()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid talosconfig: yaml: unmarshal errors:\n  line 8: mapping key \"b\" already defined at line 7"
    );
    let text = format!("context: a\ncontexts:\n  a:\n    key: {secret}\n    endpoints: [x]\n    key: {secret}\n");
    let err = Talosconfig::parse(text.as_bytes()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid talosconfig: yaml: unmarshal errors:\n  line 6: mapping key \"key\" already defined at line 4"
    );
    assert!(!format!("{err} {err:?}").contains("c2VjcmV0"));
    // Duplicates under keys talosctl does not decode are not checked (go-yaml skips unknown fields).
    Talosconfig::parse(b"context: a\ncontexts:\n  a:\n    auth: {x: 1, x: 2}\n").unwrap();
}

#[test]
fn missing_pki_is_reported_without_content() {
    let text =
        format!("context: a\ncontexts:\n  a:\n    endpoints: [x]\n    ca: {}\n    crt: {}\n", b64(CA1), b64(CRT));
    let cfg = Talosconfig::parse(text.as_bytes()).unwrap();
    assert_eq!(
        cfg.context(None).unwrap().check_pki().unwrap_err().to_string(),
        "talosconfig: key holds no PEM PRIVATE KEY block"
    );
}

#[test]
fn label_rewrite() {
    let fixed = rewrite_key_label(KEY.as_bytes());
    let fixed = String::from_utf8(fixed).unwrap();
    assert!(fixed.starts_with("-----BEGIN PRIVATE KEY-----\n"));
    assert!(fixed.ends_with("-----END PRIVATE KEY-----\n"));
    assert!(!fixed.contains("ED25519"));
    let plain = "-----BEGIN PRIVATE KEY-----\nAA==\n-----END PRIVATE KEY-----\n";
    assert_eq!(rewrite_key_label(plain.as_bytes()), plain.as_bytes());
}

#[test]
fn endpoint_defaults() {
    let ok = |s: &str| Endpoint::parse(s).unwrap().to_string();
    assert_eq!(ok("10.5.0.2"), "10.5.0.2:50000");
    assert_eq!(ok("10.5.0.2:6443"), "10.5.0.2:6443");
    assert_eq!(ok("talos.example"), "talos.example:50000");
    assert_eq!(ok("[fd00::1]:50001"), "[fd00::1]:50001");
    assert_eq!(ok("[fd00::1]"), "[fd00::1]:50000");
    assert_eq!(ok("fd00::1"), "[fd00::1]:50000");
    assert_eq!(ok("https://talos.example"), "talos.example:443");
    assert_eq!(ok("https://talos.example/"), "talos.example:443");
    assert_eq!(ok("https://talos.example:8443"), "talos.example:8443");
    assert_eq!(ok("https://[::1]"), "[::1]:443");
    for bad in ["", "host:", "host:abc", "host:70000", "host:0", "[::1", "[nope]:1", "http://x", "a b", "u@h"] {
        assert!(Endpoint::parse(bad).is_err(), "{bad:?} should fail");
    }
    assert_eq!(Endpoint::parse("h:x").unwrap_err().to_string(), "invalid endpoint \"h:x\": invalid port");
}

#[test]
fn path_resolution() {
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |name: &str| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| OsString::from(v))
    };
    let none = |_: &Path| false;
    let all = |_: &Path| true;
    let explicit = PathBuf::from("/x/tc");
    assert_eq!(resolve_path_with(Some(&explicit), env(&[("TALOSCONFIG", "/e")]), none).unwrap(), explicit);
    assert_eq!(resolve_path_with(None, env(&[("TALOSCONFIG", "/e"), ("HOME", "/h")]), all).unwrap(), Path::new("/e"));
    assert_eq!(resolve_path_with(None, env(&[("HOME", "/h")]), all).unwrap(), Path::new("/h/.talos/config"));
    assert_eq!(
        resolve_path_with(None, env(&[("HOME", "/h"), ("TALOS_HOME", "/th")]), all).unwrap(),
        Path::new("/th/config")
    );
    // A relative TALOS_HOME is ignored.
    assert_eq!(
        resolve_path_with(None, env(&[("HOME", "/h"), ("TALOS_HOME", "rel")]), all).unwrap(),
        Path::new("/h/.talos/config")
    );
    // The first existing candidate wins.
    let only_pod = |p: &Path| p == Path::new(POD_TALOSCONFIG);
    assert_eq!(
        resolve_path_with(None, env(&[("TALOSCONFIG", "/e"), ("HOME", "/h")]), only_pod).unwrap(),
        Path::new(POD_TALOSCONFIG)
    );
    // None exists: the first candidate (reading it gives the error).
    assert_eq!(resolve_path_with(None, env(&[("TALOSCONFIG", "/e")]), none).unwrap(), Path::new("/e"));
}

#[test]
fn yaml_round_trips_and_a_missing_file_is_an_io_error() {
    let cfg = Talosconfig::parse(sample().as_bytes()).unwrap();
    let text = cfg.to_yaml();
    assert_eq!(Talosconfig::parse(text.as_bytes()).unwrap(), cfg);
    assert!(
        text.starts_with("context: talos-default\ncontexts:\n    other:\n        endpoints:\n            - 10.0.0.1\n"),
        "{text}"
    );
    let dir = std::env::temp_dir().join(format!("talos-client-test-{}", std::process::id()));
    let err = Talosconfig::from_file(&dir.join("missing")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Io);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn loader_never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = Talosconfig::parse(&bytes).map(|c| c.context(None).map(|ctx| (ctx.parsed_endpoints(), ctx.check_pki())));
    }

    #[test]
    fn loader_never_panics_on_yamlish(text in "(context|contexts|endpoints|nodes|ca|crt|key|target|[a-z0-9.:\\[\\]/]|: |\n|  |- |\\{|\\}|,|\"|'|~|null)*") {
        if let Ok(cfg) = Talosconfig::parse(text.as_bytes()) {
            for ctx in cfg.contexts.values() {
                let _ = ctx.parsed_endpoints();
                let _ = ctx.check_pki();
            }
            let _ = cfg.to_yaml();
        }
    }

    #[test]
    fn endpoint_parse_never_panics(text in "\\PC{0,40}") {
        let _ = Endpoint::parse(&text);
    }
}
