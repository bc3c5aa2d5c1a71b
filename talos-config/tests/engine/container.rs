//! Upstream `container_test.go` (docs/validation.md §11.5, docs/merge.md §6.3): duplicate and
//! conflicting documents, and container-level validation texts.

use talos_config::Config;
use talos_config::{Mode, Options};

const UV: &str = "apiVersion: v1alpha1\nkind: UserVolumeConfig\nname: NAME\nprovisioning:\n  diskSelector:\n    match: disk.transport == \"nvme\"\n  maxSize: 10GiB\n";
const EV: &str = "apiVersion: v1alpha1\nkind: ExistingVolumeConfig\nname: NAME\ndiscovery:\n  volumeSelector:\n    match: volume.partition_label == \"X\"\n";
const LEGACY: &str = "version: v1alpha1\nmachine:\n  type: worker\n";

fn docs(parts: &[(&str, &str)]) -> String {
    parts.iter().map(|(t, name)| t.replace("NAME", name)).collect::<Vec<_>>().join("---\n")
}

fn load(text: &str) -> String {
    match Config::from_bytes(text.as_bytes()) {
        Ok(_) => "OK".into(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn duplicates() {
    let sidero = "apiVersion: v1alpha1\nkind: SideroLinkConfig\napiUrl: https://a\n";
    // The loader's own duplicate check comes first for identical identities...
    assert_eq!(
        load(&format!("{sidero}---\n{sidero}")),
        "duplicate document v1alpha1/SideroLinkConfig/ is not allowed (line 5)"
    );
}

#[test]
fn conflicts_in_both_orders() {
    assert_eq!(
        load(&docs(&[(LEGACY, ""), (UV, "my-user-volume-1"), (UV, "my-user-volume-2"), (EV, "my-user-volume-1")])),
        "conflicting documents: UserVolumeConfig/my-user-volume-1 and ExistingVolumeConfig/my-user-volume-1"
    );
    assert_eq!(load(&docs(&[(UV, "my-user-volume-1"), (UV, "my-user-volume-2")])), "OK");
    assert_eq!(
        load(&docs(&[
            (EV, "my-user-volume-2"),
            (EV, "my-user-volume-1"),
            (UV, "my-user-volume-1"),
            (UV, "my-user-volume-2")
        ])),
        "conflicting documents: ExistingVolumeConfig/my-user-volume-1 and UserVolumeConfig/my-user-volume-1"
    );
}

fn validate(text: &str) -> String {
    let cfg = Config::from_bytes(text.as_bytes()).unwrap();
    cfg.validate(Mode::Metal, Options::default()).error.map_or_else(|| "OK".into(), |e| e.to_string())
}

#[test]
fn container_validation_texts() {
    assert_eq!(
        validate("apiVersion: v1alpha1\nkind: SideroLinkConfig\napiUrl: https://siderolink.api?jointoken=secret\n"),
        "OK"
    );
    assert_eq!(
        validate("apiVersion: v1alpha1\nkind: SideroLinkConfig\n"),
        "1 error occurred:\n\t* SideroLinkConfig: apiUrl is required\n\n"
    );
    assert_eq!(
        validate("version: v1alpha1\npersist: true\n"),
        "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* machine instructions are required\n\n\n\n"
    );
    assert_eq!(
        validate("apiVersion: v1alpha1\nkind: SideroLinkConfig\n---\nversion: v1alpha1\npersist: true\n"),
        "2 errors occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* machine instructions are required\n\n\n\t* SideroLinkConfig: apiUrl is required\n\n"
    );
}
