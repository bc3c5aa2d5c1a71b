//! Custom merges of the block/security kinds (docs/merge.md §8.2, §8.3, §11.5).

use crate::model_kinds_common;

use model_kinds_common::*;
use talos_config::model::block::{ByteSize, CelExpression, DiskSelector, ProvisioningSpec, Size, VolumeConfig};
use talos_config::model::security::{
    ImageKeylessVerifier, ImageVerificationConfig, ImageVerificationRule, ImageVerificationRules,
};
use talos_config::testing::Hooks;
use talos_config::testing::merge_values;

fn volume(name: &str, provisioning: ProvisioningSpec) -> VolumeConfig {
    let mut v = VolumeConfig { name: name.into(), provisioning, ..Default::default() };
    v.meta.api_version = "v1alpha1".into();
    v.meta.kind = "VolumeConfig".into();
    v
}

fn selector(text: &str) -> DiskSelector {
    DiskSelector { r#match: CelExpression(text.into()) }
}

/// Upstream `TestVolumeConfigMerge`: right's match and maxSize win.
#[test]
fn volume_config_merge_typed() {
    let mut left =
        volume("EPHEMERAL", ProvisioningSpec { disk_selector: selector("disk.size > 120"), ..Default::default() });
    let right = volume(
        "EPHEMERAL",
        ProvisioningSpec {
            disk_selector: selector("disk.size > 150"),
            max_size: "2.5TiB".parse::<Size>().unwrap(),
            ..Default::default()
        },
    );
    left.merge_from(&right).unwrap();
    assert_eq!(left.provisioning.disk_selector.r#match.0, "disk.size > 150");
    assert_eq!(left.provisioning.max_size.text(), "2.5TiB");
}

#[test]
fn volume_config_merge_yaml() {
    let out = merge_docs(
        "apiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\nprovisioning:\n  diskSelector:\n    match: disk.size > 120\n",
        "apiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\nprovisioning:\n  diskSelector:\n    match: disk.size > 150\n  maxSize: 2.5TiB\n",
    )
    .unwrap();
    assert_eq!(
        out,
        "apiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\nprovisioning:\n    diskSelector:\n        match: disk.size > 150\n    maxSize: 2.5TiB\n"
    );
}

/// §8.3 / W7: a patch that does not restate `diskSelector.match` and `minSize` clears them.
#[test]
fn volume_config_always_overwrite_typed() {
    let mut left = volume(
        "EPHEMERAL",
        ProvisioningSpec {
            disk_selector: selector("disk.transport == \"nvme\""),
            min_size: "2GiB".parse::<ByteSize>().unwrap(),
            max_size: "40GiB".parse::<Size>().unwrap(),
            ..Default::default()
        },
    );
    let right = volume("EPHEMERAL", ProvisioningSpec { grow: Some(true), ..Default::default() });
    left.merge_from(&right).unwrap();
    assert_eq!(
        left.provisioning,
        ProvisioningSpec { grow: Some(true), max_size: "40GiB".parse::<Size>().unwrap(), ..Default::default() }
    );
}

#[test]
fn volume_config_always_overwrite_w7() {
    let out = merge_docs(
        "apiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\nprovisioning:\n    diskSelector:\n        match: disk.transport == \"nvme\"\n    minSize: 2GiB\n    maxSize: 40GiB\n",
        "apiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\nprovisioning:\n  grow: true\n",
    )
    .unwrap();
    assert_eq!(
        out,
        "apiVersion: v1alpha1\nkind: VolumeConfig\nname: EPHEMERAL\nprovisioning:\n    grow: true\n    maxSize: 40GiB\n"
    );
}

/// §8.2: `maxSize` switching from bytes to a percentage keeps the byte value, which wins.
#[test]
fn max_size_pointer_merge() {
    let mut s = "50GiB".parse::<Size>().unwrap();
    merge_values(&mut s, &"80%".parse::<Size>().unwrap()).unwrap();
    assert_eq!(s.text(), "50GiB");
    let mut p = "80%".parse::<Size>().unwrap();
    merge_values(&mut p, &Size::default()).unwrap();
    assert_eq!(p.text(), "80%");
    merge_values(&mut p, &"10GiB".parse::<Size>().unwrap()).unwrap();
    assert_eq!(p.text(), "10GiB");
}

/// The CEL expressions of OOMConfig are cleared by any patch that does not restate them.
#[test]
fn oom_config_always_overwrite() {
    let out = merge_docs(
        "apiVersion: v1alpha1\nkind: OOMConfig\ntriggerExpression: memory_full_avg10 > 12.0\nsampleInterval: 100ms\n",
        "apiVersion: v1alpha1\nkind: OOMConfig\nsampleInterval: 1s\n",
    )
    .unwrap();
    assert_eq!(out, "apiVersion: v1alpha1\nkind: OOMConfig\nsampleInterval: 1s\n");
}

fn keyless(issuer: &str, subject: &str) -> Option<ImageKeylessVerifier> {
    Some(ImageKeylessVerifier { issuer: issuer.into(), subject: subject.into(), ..Default::default() })
}

fn rule(image: &str, skip: Option<bool>, k: Option<ImageKeylessVerifier>) -> ImageVerificationRule {
    ImageVerificationRule { image: image.into(), skip, keyless: k, ..Default::default() }
}

/// Upstream `TestImageVerificationConfigMerge`: matching rules replaced entirely, others kept.
#[test]
fn image_verification_config_merge() {
    let mut base = ImageVerificationConfig {
        rules: ImageVerificationRules(vec![
            rule("ghcr.io/siderolabs/talos*", Some(true), None),
            rule("docker.io/*", None, keyless("https://accounts.google.com", "user@example.com")),
            rule("**", None, keyless("https://token.actions.githubusercontent.com", "fallbackorg")),
        ]),
        ..Default::default()
    };
    let over = ImageVerificationConfig {
        rules: ImageVerificationRules(vec![
            rule(
                "ghcr.io/siderolabs/talos*",
                None,
                keyless("https://token.actions.githubusercontent.com", "differentorg"),
            ),
            rule("**", Some(true), None),
        ]),
        ..Default::default()
    };
    base.merge_from(&over).unwrap();
    assert_eq!(
        base.rules.0,
        vec![
            rule(
                "ghcr.io/siderolabs/talos*",
                None,
                keyless("https://token.actions.githubusercontent.com", "differentorg")
            ),
            rule("docker.io/*", None, keyless("https://accounts.google.com", "user@example.com")),
            rule("**", Some(true), None),
        ]
    );
}

/// The index is built from the left side only: two new rules with one pattern both append.
#[test]
fn image_verification_rules_index_from_left_only() {
    let mut left = ImageVerificationRules(vec![rule("a", Some(true), None)]);
    merge_values(
        &mut left,
        &ImageVerificationRules(vec![rule("b", Some(true), None), rule("b", None, None), rule("a", None, None)]),
    )
    .unwrap();
    assert_eq!(left.0, vec![rule("a", None, None), rule("b", Some(true), None), rule("b", None, None)]);
}

#[test]
fn image_verification_merge_yaml() {
    let out = merge_docs(
        "apiVersion: v1alpha1\nkind: ImageVerificationConfig\nrules:\n  - image: a/*\n    skip: true\n  - image: b/*\n    deny: true\n",
        "apiVersion: v1alpha1\nkind: ImageVerificationConfig\nrules:\n  - image: a/*\n    deny: true\n  - image: c/*\n    skip: true\n",
    )
    .unwrap();
    assert_eq!(
        out,
        "apiVersion: v1alpha1\nkind: ImageVerificationConfig\nrules:\n    - image: a/*\n      deny: true\n    - image: b/*\n      deny: true\n    - image: c/*\n      skip: true\n"
    );
}

/// Size texts are kept as written; invalid ones are decode errors.
#[test]
fn size_texts() {
    assert_eq!("2.5GiB".parse::<ByteSize>().unwrap().raw.as_deref(), Some("2.5GiB"));
    assert_eq!("".parse::<ByteSize>().unwrap(), ByteSize::default());
    assert_eq!("10XB".parse::<ByteSize>().unwrap_err().to_string(), "unhandled size name: xb");
    assert_eq!("-10GiB".parse::<Size>().unwrap().text(), "-10GiB");
    assert_eq!("80%".parse::<Size>().unwrap().text(), "80%");
    assert_eq!("180%".parse::<Size>().unwrap_err().to_string(), "percentage must be between 0 and 100, got 180");
}
