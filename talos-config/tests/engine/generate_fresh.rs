//! Fresh secrets bundles and talosconfigs (`talos_config::generate`, issue 27): random, so
//! checked for shape: Talos's key types, PEM labels, subjects, extensions, validity lengths,
//! signatures, token and id forms, and that the bundle passes Talos's own check and round trips.

use std::time::{Duration, SystemTime};

use talos_config::generate::{GenOptions, Input, SecretsBundle, VersionContract};
use x509_parser::prelude::*;

/// 2026-12-04T21:13:08Z: a fixed clock, so validity is checked to the second.
fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_796_418_788)
}

fn pem_der(bytes: &[u8]) -> (String, Vec<u8>) {
    let (_, pem) = parse_x509_pem(bytes).unwrap();
    (pem.label, pem.contents)
}

/// (subject, issuer, key algorithm OID, extensions as text, validity seconds) of a certificate,
/// after checking that `issuer_der` (or itself) signed it.
fn describe(crt: &[u8], issuer_crt: Option<&[u8]>) -> (String, String, String, Vec<String>, i64, i64) {
    let (label, der) = pem_der(crt);
    assert_eq!(label, "CERTIFICATE");
    let (rest, cert) = X509Certificate::from_der(&der).unwrap();
    assert!(rest.is_empty());
    let issuer_der = issuer_crt.map(|c| pem_der(c).1);
    let issuer = issuer_der.as_ref().map(|d| X509Certificate::from_der(d).unwrap().1);
    let key = issuer.as_ref().map(|i| i.public_key()).unwrap_or(cert.public_key());
    cert.verify_signature(Some(key)).unwrap();
    let extensions = cert
        .extensions()
        .iter()
        .map(|ext| {
            let value = match ext.parsed_extension() {
                ParsedExtension::KeyUsage(ku) => format!("{ku}"),
                ParsedExtension::ExtendedKeyUsage(eku) => {
                    format!("server={} client={}", eku.server_auth, eku.client_auth)
                }
                ParsedExtension::BasicConstraints(bc) => format!("ca={} pathlen={:?}", bc.ca, bc.path_len_constraint),
                ParsedExtension::SubjectKeyIdentifier(id) => format!("{} bytes", id.0.len()),
                ParsedExtension::AuthorityKeyIdentifier(aki) => {
                    let matches = issuer.as_ref().and_then(|i| {
                        i.extensions().iter().find_map(|e| match e.parsed_extension() {
                            ParsedExtension::SubjectKeyIdentifier(id) => Some(id.0.to_vec()),
                            _ => None,
                        })
                    }) == aki.key_identifier.as_ref().map(|k| k.0.to_vec());
                    format!("issuer's key id: {matches}")
                }
                other => format!("{other:?}"),
            };
            format!("{} critical={} {value}", ext.oid, ext.critical)
        })
        .collect();
    let validity = cert.validity();
    (
        cert.subject().to_string(),
        cert.issuer().to_string(),
        cert.public_key().algorithm.algorithm.to_id_string(),
        extensions,
        validity.not_before.timestamp(),
        validity.not_after.timestamp() - validity.not_before.timestamp(),
    )
}

const ECDSA: &str = "1.2.840.10045.2.1";
const ED25519: &str = "1.3.101.112";

fn ca_extensions() -> Vec<String> {
    vec![
        "2.5.29.15 critical=true Digital Signature, Key Cert Sign".to_string(),
        "2.5.29.37 critical=false server=true client=true".to_string(),
        "2.5.29.19 critical=true ca=true pathlen=None".to_string(),
        "2.5.29.14 critical=false 20 bytes".to_string(),
    ]
}

fn is_token(text: &str) -> bool {
    let valid = |part: &str, len: usize| {
        part.len() == len && part.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    matches!(text.split_once('.'), Some((a, b)) if valid(a, 6) && valid(b, 16))
}

#[test]
fn a_fresh_bundle_has_talos_key_types_certificates_and_tokens() {
    let bundle = SecretsBundle::generate(VersionContract::CURRENT, now()).unwrap();
    bundle.validate().unwrap();
    assert_eq!(SecretsBundle::from_yaml(bundle.to_yaml().as_bytes()).unwrap(), bundle);
    let certs = bundle.certs.as_ref().unwrap();
    let ten_years = 87_600 * 3600;
    for (pair, subject, key_type, key_label) in [
        (&certs.etcd, "O=etcd", ECDSA, "EC PRIVATE KEY"),
        (&certs.k8s, "O=kubernetes", ECDSA, "EC PRIVATE KEY"),
        (&certs.k8s_aggregator, "", ECDSA, "EC PRIVATE KEY"),
        (&certs.os, "O=talos", ED25519, "ED25519 PRIVATE KEY"),
    ] {
        let pair = pair.as_ref().unwrap();
        let described = describe(pair.crt.as_deref().unwrap(), None);
        let want =
            (subject.to_string(), subject.to_string(), key_type.to_string(), ca_extensions(), 1_796_418_788, ten_years);
        assert_eq!(described, want);
        assert_eq!(pem_der(pair.key.as_deref().unwrap()).0, key_label);
    }
    let sa = certs.k8s_service_account.as_ref().unwrap().key.as_deref().unwrap();
    assert_eq!(pem_der(sa).0, "RSA PRIVATE KEY");
    let secrets = bundle.secrets.as_ref().unwrap();
    assert!(is_token(&secrets.bootstrap_token), "{}", secrets.bootstrap_token);
    assert!(is_token(&bundle.trustd_info.as_ref().unwrap().token));
    assert!(secrets.aescbc_encryption_secret.is_empty());
    assert_eq!(secrets.secretbox_encryption_secret.len(), 44);
    let cluster = bundle.cluster.as_ref().unwrap();
    // 32 bytes each: the id in URL-safe base64 with padding, the secret in standard base64.
    assert!(cluster.id.len() == 44 && cluster.id.ends_with('=') && !cluster.id.contains(['+', '/']));
    assert!(cluster.secret.len() == 44 && cluster.secret.ends_with('='));
}

#[test]
fn older_contracts_get_ecdsa_service_account_keys_and_aescbc() {
    let v16 = SecretsBundle::generate(VersionContract::new(1, 6), now()).unwrap();
    let certs = v16.certs.as_ref().unwrap();
    assert_eq!(pem_der(certs.k8s_service_account.as_ref().unwrap().key.as_deref().unwrap()).0, "EC PRIVATE KEY");
    assert!(!v16.secrets.as_ref().unwrap().secretbox_encryption_secret.is_empty());
    let v12 = SecretsBundle::generate(VersionContract::new(1, 2), now()).unwrap();
    let secrets = v12.secrets.as_ref().unwrap();
    assert!(secrets.secretbox_encryption_secret.is_empty() && secrets.aescbc_encryption_secret.len() == 44);
    v12.validate().unwrap();
}

#[test]
fn the_admin_talosconfig_has_a_client_certificate_signed_by_the_talos_ca() {
    let bundle = SecretsBundle::generate(VersionContract::CURRENT, now()).unwrap();
    let ca = bundle.certs.as_ref().unwrap().os.as_ref().unwrap().crt.clone().unwrap();
    let mut options = GenOptions::default();
    options.endpoints = vec!["10.5.0.2".into()];
    let text = Input::new("demo", "https://10.5.0.2:6443", bundle, options).talosconfig(now()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[..5], ["context: demo", "contexts:", "    demo:", "        endpoints:", "            - 10.5.0.2"]);
    let keys: Vec<&str> = lines[5..].iter().map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(keys, ["        ca", "        crt", "        key"]);
    let field = |name: &str| {
        let prefix = format!("        {name}: ");
        let line = lines.iter().find_map(|l| l.strip_prefix(&prefix)).unwrap();
        talos_go_decode(line)
    };
    assert_eq!(field("ca"), ca);
    let described = describe(&field("crt"), Some(&ca));
    let extensions = vec![
        "2.5.29.15 critical=true Digital Signature".to_string(),
        "2.5.29.37 critical=false server=false client=true".to_string(),
        "2.5.29.35 critical=false issuer's key id: true".to_string(),
    ];
    let one_year = 365 * 24 * 3600;
    assert_eq!(described, ("O=os:admin".into(), "O=talos".into(), ED25519.into(), extensions, 1_796_418_788, one_year));
    assert_eq!(pem_der(&field("key")).0, "ED25519 PRIVATE KEY");
}

fn talos_go_decode(b64: &str) -> Vec<u8> {
    talos_go::base64_decode(b64).unwrap()
}

#[test]
fn debug_output_keeps_keys_tokens_and_secrets_out() {
    let bundle = SecretsBundle::generate(VersionContract::new(1, 6), now()).unwrap();
    let debug = format!("{bundle:?}");
    let secrets = bundle.secrets.as_ref().unwrap();
    let certs = bundle.certs.as_ref().unwrap();
    let mut hidden = vec![
        secrets.bootstrap_token.clone(),
        secrets.secretbox_encryption_secret.clone(),
        bundle.trustd_info.as_ref().unwrap().token.clone(),
        bundle.cluster.as_ref().unwrap().secret.clone(),
    ];
    for pair in [&certs.etcd, &certs.k8s, &certs.k8s_aggregator, &certs.os] {
        let key = String::from_utf8(pair.as_ref().unwrap().key.clone().unwrap()).unwrap();
        // The base64 body's first line (the PEM header is the same for every key).
        hidden.push(key.lines().nth(1).unwrap().to_string());
    }
    for secret in &hidden {
        assert!(!debug.contains(secret.as_str()), "{secret} in {debug}");
    }
    assert!(debug.contains("key: <redacted, 227 bytes>"), "{debug}");
    assert!(debug.contains(&format!("id: {:?}", bundle.cluster.as_ref().unwrap().id)));
}
