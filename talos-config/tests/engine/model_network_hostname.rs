//! HostnameConfig: typed decode, encode node tree, merge.

use crate::model_network_util;

use model_network_util::*;
use talos_config::model::network::HostnameConfig;
use talos_config::model::network::types::AutoHostnameKind;
use talos_config::testing::lookup;
use talos_config::testing::{DecodeCx, Value, merge_values};

fn hostname_doc(extra: Vec<(&str, talos_yaml::Node)>) -> talos_yaml::Node {
    let mut entries = vec![("apiVersion", s("v1alpha1")), ("kind", s("HostnameConfig"))];
    entries.extend(extra);
    m(entries)
}

#[test]
fn hostname_registered_unnamed() {
    let e = lookup("HostnameConfig").expect("registered");
    assert!(!e.named);
    assert_eq!((e.go_type)(), "*network.HostnameConfigV1Alpha1");
}

#[test]
fn hostname_decodes_auto_stable() {
    let node = hostname_doc(vec![("auto", s("stable"))]);
    let mut cx = DecodeCx::new();
    let doc = HostnameConfig::decode(&node, &mut cx);
    assert_eq!(cx.into_error(), None);
    assert_eq!(doc.meta.api_version, "v1alpha1");
    assert_eq!(doc.meta.kind, "HostnameConfig");
    assert_eq!(doc.auto, Some(AutoHostnameKind(2)));
    assert_eq!(doc.hostname, "");
    assert_eq!(flat(&doc.encode()), "{apiVersion: v1alpha1, kind: HostnameConfig, auto: stable}");
    assert_eq!(HostnameConfig::unknown_keys(&node), Ok(None));
}

#[test]
fn hostname_decodes_off_pointer_kept() {
    // `off` is the zero value, but it sits behind a pointer: printed.
    let node = hostname_doc(vec![("auto", s("OFF")), ("hostname", s("worker-33"))]);
    let mut cx = DecodeCx::new();
    let doc = HostnameConfig::decode(&node, &mut cx);
    assert_eq!(cx.into_error(), None);
    assert_eq!(doc.auto, Some(AutoHostnameKind(0)));
    assert_eq!(flat(&doc.encode()), "{apiVersion: v1alpha1, kind: HostnameConfig, auto: off, hostname: worker-33}");
}

#[test]
fn hostname_bad_auto() {
    let node = hostname_doc(vec![("auto", s("bogus"))]);
    let mut cx = DecodeCx::new();
    let _ = HostnameConfig::decode(&node, &mut cx);
    let err = cx.into_error().expect("error");
    assert!(err.ends_with("bogus does not belong to AutoHostnameKind values"), "{err}");
}

#[test]
fn hostname_unknown_key() {
    let node = hostname_doc(vec![("auto", s("stable")), ("extra", s("x"))]);
    let summary = HostnameConfig::unknown_keys(&node).expect("ok").expect("some");
    assert_eq!(flat(&summary), "{extra: x}");
}

#[test]
fn hostname_merge() {
    let mut cx = DecodeCx::new();
    let mut left = HostnameConfig::decode(&hostname_doc(vec![("auto", s("stable"))]), &mut cx);
    let right = HostnameConfig::decode(&hostname_doc(vec![("auto", s("off")), ("hostname", s("h1"))]), &mut cx);
    merge_values(&mut left, &right).expect("merge");
    // Zero value through a pointer overwrites.
    assert_eq!(left.auto, Some(AutoHostnameKind(0)));
    assert_eq!(left.hostname, "h1");
    let empty = HostnameConfig::decode(&hostname_doc(vec![]), &mut cx);
    merge_values(&mut left, &empty).expect("merge");
    assert_eq!(left.auto, Some(AutoHostnameKind(0)));
    assert_eq!(left.hostname, "h1");
}

#[test]
fn hostname_peer_roundtrip() {
    let Some(input) = peer("hostnameconfig.yaml") else { return };
    assert_eq!(
        talos_config::testing::roundtrip(&input).as_deref(),
        Ok("apiVersion: v1alpha1\nkind: HostnameConfig\nauto: stable\n")
    );
}
