//! Conformance with Talos's own test data for every supported release
//! (`../shared/peer/talos-<release>`: `TALOS_PEER_DIR` names v1.13.9's folder, the other
//! releases' are its siblings). Never copied into this repository. Each case runs for every
//! release, as that release (its kinds, fields, texts).

use std::path::Path;

use talos_config::testing::apply_patches_to_config;
use talos_config::{Config, Patch, PatchSource, apply_patches_for, load_patches_for};

use crate::common::{self, Peer};
use talos_yaml::Node;
use talos_yaml::parse::parse_documents;

/// Every release's peer folder (loudly none, a failure under `CI=true`, when missing).
fn peers() -> Vec<Peer> {
    common::peers()
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

fn load(peer: &Peer, bytes: &[u8]) -> Result<Config, talos_config::Error> {
    Config::from_bytes_for(bytes, peer.release)
}

fn patches(peer: &Peer, dir: &Path, files: &[&str]) -> Vec<Patch> {
    let sources = files.iter().map(|f| PatchSource::new(*f, read(&dir.join(f))));
    load_patches_for(sources, peer.release).unwrap_or_else(|e| panic!("{}: loading {files:?}: {e}", peer.release))
}

/// Runs one configpatcher case both ways upstream does (WithBytes and WithConfig).
fn patch_case(peer: &Peer, case: &str, config: &str, files: &[&str]) -> Result<String, String> {
    let dir = peer.dir.join("configpatcher/testdata").join(case);
    let base = read(&dir.join(config));
    let patches = patches(peer, &dir, files);
    let from_bytes = apply_patches_for(&base, &patches, peer.release).map(|b| String::from_utf8_lossy(&b).into_owned());
    let from_config = load(peer, &base)
        .and_then(|c| apply_patches_to_config(c, &patches))
        .map(|b| String::from_utf8_lossy(&b).into_owned());
    assert_eq!(
        from_bytes.as_ref().map_err(ToString::to_string),
        from_config.as_ref().map_err(ToString::to_string),
        "{}: WithBytes and WithConfig differ for {case}",
        peer.release
    );
    from_bytes.map_err(|e| e.to_string())
}

fn expected(peer: &Peer, case: &str, file: &str) -> String {
    String::from_utf8_lossy(&read(&peer.dir.join("configpatcher/testdata").join(case).join(file))).into_owned()
}

/// Asserts one configpatcher case for every release.
fn each_release(case: impl Fn(&Peer)) {
    for peer in peers() {
        case(&peer);
    }
}

#[test]
fn configpatcher_apply() {
    let files = ["strategic1.yaml", "jsonpatch1.yaml", "jsonpatch2.yaml", "strategic2.yaml", "strategic3.yaml"];
    each_release(|p| {
        assert_eq!(
            patch_case(p, "apply", "config.yaml", &files),
            Ok(expected(p, "apply", "expected.yaml")),
            "{}",
            p.release
        );
        let dir = p.dir.join("configpatcher/testdata/apply");
        assert_eq!(patches(p, &dir, &files).len(), 4, "the two JSON patches are coalesced");
    });
}

#[test]
fn configpatcher_apply_multidoc_fail() {
    each_release(|p| {
        assert_eq!(
            patch_case(p, "multidoc", "config.yaml", &["jsonpatch.yaml", "strategic1.yaml"]),
            Err("JSON6902 patches are not supported for multi-document machine configuration".into()),
            "{}",
            p.release
        );
    });
}

#[test]
fn configpatcher_apply_multidoc() {
    each_release(|p| {
        assert_eq!(
            patch_case(p, "multidoc", "config.yaml", &["strategic1.yaml", "strategic2.yaml"]),
            Ok(expected(p, "multidoc", "expected.yaml")),
            "{}",
            p.release
        );
        // v1.14 adds a third patch: a delete of a document the config lacks, skipped.
        if p.dir.join("configpatcher/testdata/multidoc/strategic3.yaml").is_file() {
            assert_eq!(
                patch_case(p, "multidoc", "config.yaml", &["strategic1.yaml", "strategic2.yaml", "strategic3.yaml"]),
                Ok(expected(p, "multidoc", "expected.yaml")),
                "{}",
                p.release
            );
        }
    });
}

/// v1.14: one patch repeats a kind and name; the repeats merge in order (`TestPatchMixed`).
#[test]
fn configpatcher_patch_mixed() {
    let ran = std::cell::Cell::new(0);
    each_release(|p| {
        if !p.dir.join("configpatcher/testdata/patchmixed").is_dir() {
            assert!(p.release < talos_config::Release::V1_14_0_RC1, "{}: patchmixed is missing", p.release);
            return;
        }
        assert_eq!(
            patch_case(p, "patchmixed", "base.yaml", &["patch.yaml"]),
            Ok(expected(p, "patchmixed", "expected.yaml")),
            "{}",
            p.release
        );
        ran.set(ran.get() + 1);
    });
    assert!(ran.get() > 0 || peers().len() < talos_config::Release::ALL.len());
}

#[test]
fn configpatcher_apply_audit_policy() {
    each_release(|p| {
        assert_eq!(
            patch_case(p, "auditpolicy", "config.yaml", &["patch1.yaml"]),
            Ok(expected(p, "auditpolicy", "expected.yaml")),
            "{}",
            p.release
        );
    });
}

#[test]
fn configpatcher_apply_with_manifest_newline() {
    each_release(|p| {
        let out = patch_case(p, "apply", "config.yaml", &["strategic4.yaml"]);
        assert_eq!(out, Ok(expected(p, "apply", "expected_manifests.yaml")), "{}", p.release);
        if let Ok(bytes) = out {
            assert!(load(p, bytes.as_bytes()).is_ok(), "the result loads again");
        }
    });
}

#[test]
fn configpatcher_apply_multidoc_delete() {
    each_release(|p| {
        assert_eq!(
            patch_case(p, "patchdelete", "config.yaml", &["strategic1.yaml"]),
            Ok(expected(p, "patchdelete", "expected.yaml")),
            "{}",
            p.release
        );
    });
}

#[test]
fn configpatcher_apply_multidoc_cp_delete() {
    let files = ["strategic2.yaml", "strategic3.yaml", "strategic4.yaml"];
    each_release(|p| {
        assert_eq!(
            patch_case(p, "patchdelete", "controlplane_orig.yaml", &files),
            Ok(expected(p, "patchdelete", "controlplane_expected.yaml")),
            "{}",
            p.release
        );
    });
}

#[test]
fn configpatcher_patch_delete_missing() {
    each_release(|p| {
        assert_eq!(
            patch_case(p, "patchdeletemissing", "config.yaml", &["strategic1.yaml"]),
            Err("patch delete: path 'machine.network.hostname' in document '/v1alpha1': failed to delete path 'machine.network.hostname': lookup failed".into()),
            "{}",
            p.release
        );
    });
}

#[test]
fn configpatcher_patch_link() {
    each_release(|p| {
        assert_eq!(
            patch_case(p, "patchlink", "base.yaml", &["patch.yaml"]),
            Ok(expected(p, "patchlink", "expected.yaml")),
            "{}",
            p.release
        );
    });
}

#[test]
fn configpatcher_load_classification() {
    each_release(load_classification);
}

fn load_classification(p: &Peer) {
    let dir = p.dir.join("configpatcher/testdata");
    let kinds = |files: &[&str], extra: Option<&str>| -> Vec<(bool, usize)> {
        let mut sources: Vec<PatchSource> = files.iter().map(|f| PatchSource::new(*f, read(&dir.join(f)))).collect();
        if let Some(text) = extra {
            sources.push(PatchSource::new("inline", text));
        }
        load_patches_for(sources, p.release)
            .unwrap()
            .iter()
            .map(|p| (p.is_json6902(), talos_config::testing::json6902_len(p)))
            .collect()
    };
    let replace = Some(r#"[{"op":"replace","path":"/some","value": []}]"#);
    assert_eq!(kinds(&["patch.json"], None), vec![(true, 1)]);
    assert_eq!(kinds(&["patch.yaml"], None), vec![(true, 1)]);
    assert_eq!(kinds(&["strategic.yaml"], None), vec![(false, 0)]);
    assert_eq!(kinds(&["patch.json", "patch.yaml"], replace), vec![(true, 3)]);
    assert_eq!(kinds(&["patch.json", "strategic.yaml", "patch.yaml"], replace), vec![(true, 1), (false, 0), (true, 2)]);
}

#[test]
fn configloader_accepts_every_test_file() {
    each_release(configloader_files);
}

fn configloader_files(p: &Peer) {
    let dir = p.dir.join("configloader/testdata");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    names.sort();
    let mut checked = 0;
    for path in names.iter().filter(|p| p.extension().is_some_and(|e| e == "test")) {
        let config = match load(p, &read(path)) {
            Ok(c) => c,
            Err(e) => panic!("{}: {e}", path.display()),
        };
        // The encoding loads again and is a fixed point: encoding that gives the same bytes.
        let encoded = config.encode();
        let again = match load(p, encoded.as_bytes()) {
            Ok(c) => c,
            Err(e) => panic!(
                "{}: the re-encoding does not load: {e}
{encoded}",
                path.display()
            ),
        };
        let twice = again.encode();
        assert!(
            twice == encoded,
            "{}: re-encoding is not a fixed point:
{}",
            path.display(),
            crate::common::first_diff(encoded.as_bytes(), twice.as_bytes())
        );
        checked += 1;
    }
    assert_eq!(checked, 7);
    // The fuzz corpus entry: a SideroLinkConfig without apiUrl loads (validation is separate).
    let fuzz = read(&dir.join("fuzz/FuzzConfigLoader/dfd1adfe630cffc2"));
    assert!(String::from_utf8_lossy(&fuzz).contains(r#"[]byte("apiVersion: v1alpha1\nkind: SideroLinkConfig")"#));
    assert!(load(p, b"apiVersion: v1alpha1\nkind: SideroLinkConfig").is_ok());
}

#[test]
fn stability_files_round_trip() {
    each_release(stability_files);
}

/// Every release's stability folder holds the generated configs of v1.3 up to itself.
fn stability_files(p: &Peer) {
    let dir = p.dir.join("types/v1alpha1/testdata/stability");
    let mut failures = Vec::new();
    let mut checked = 0;
    let newest: u32 = p.release.line()[3..].parse().unwrap();
    for minor in 3..=newest {
        for file in ["base-controlplane", "base-worker", "overrides-controlplane", "overrides-worker"] {
            let path = dir.join(format!("v1.{minor}/{file}.yaml"));
            let bytes = read(&path);
            match load(p, &bytes) {
                Ok(c) if c.encode().as_bytes() == bytes.as_slice() => {}
                Ok(c) => failures.push(format!(
                    "{}: re-encoding differs:\n{}",
                    path.display(),
                    crate::common::first_diff(&bytes, c.encode().as_bytes())
                )),
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
            checked += 1;
        }
    }
    assert_eq!(checked, (newest as usize - 2) * 4, "{}", p.release);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn v1alpha1_strategic_cases() {
    each_release(strategic_cases);
}

fn strategic_cases(p: &Peer) {
    let dir = p.dir.join("types/v1alpha1/testdata/strategic");
    let mut failures = Vec::new();
    for case in 1..=6 {
        let case_dir = dir.join(format!("{case:03}"));
        let result = load(p, &read(&case_dir.join("left.yaml"))).and_then(|left| {
            let right = Patch::load_for(&read(&case_dir.join("right.yaml")), p.release)?;
            apply_patches_to_config(left, &[right])
        });
        let want = load(p, &read(&case_dir.join("expected.yaml"))).map(|c| c.encode());
        match (result, want) {
            (Ok(got), Ok(want)) if got == want.as_bytes() => {}
            (got, want) => failures.push(format!(
                "{case:03}: got {:?}\nwant {:?}",
                got.map(|b| String::from_utf8_lossy(&b).into_owned()),
                want
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn per_kind_encoding_files_round_trip() {
    each_release(per_kind_files);
}

/// How many per-kind files each release's peer data has (v1.13 added nine; v1.14 added 28 in
/// the v1.13 areas and the new ones, and `k8s` has 28).
fn per_kind_count(release: talos_config::Release) -> usize {
    use talos_config::Release;
    if release < Release::V1_13_9 {
        47
    } else if release < Release::V1_14_0_RC1 {
        56
    } else {
        84 + 28
    }
}

fn per_kind_files(p: &Peer) {
    let mut failures = Vec::new();
    let mut checked = 0;
    let areas =
        ["block", "cluster", "cri", "hardware", "k8s", "network", "runtime", "security", "siderolink", "storage"];
    for area in areas {
        let dir = p.dir.join("types").join(area).join("testdata");
        // `cluster`, `k8s` and `storage` are new in v1.14: older peer data has no such folder.
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut files: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        files.sort();
        for path in files {
            let bytes = read(&path);
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if DECODE_ONLY.contains(&name) {
                // Not canonical encoder output (flow lists, 2-space nesting): upstream only
                // decodes these; their exact re-encoding is pinned in tests/model_kinds.rs.
                if let Err(e) = load(p, &bytes) {
                    failures.push(format!("{}: {e}", path.display()));
                }
                checked += 1;
                continue;
            }
            match load(p, &bytes) {
                Ok(c) if c.encode().as_bytes() == bytes.as_slice() => {}
                Ok(c) => failures.push(format!(
                    "{}:\n{}",
                    path.display(),
                    crate::common::first_diff(&bytes, c.encode().as_bytes())
                )),
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
            checked += 1;
        }
    }
    assert_eq!(checked, per_kind_count(p.release), "{}", p.release);
    assert!(failures.is_empty(), "{} of {checked} failed:\n{}", failures.len(), failures.join("\n"));
}

/// Peer files upstream uses as decoder input only (see KNOWN_GAPS.md, "Peer data notes").
const DECODE_ONLY: &[&str] = &[
    "volumeconfig_tpm_encryption_no_options.yaml",
    "volumeconfig_tpm_encryption_with_pcr_settings.yaml",
    "volumeconfig_tpm_encryption_with_pcrs_disabled.yaml",
];

#[test]
/// The YAML parser reads every peer input, with go-yaml's positions.
fn peer_testdata_parses() {
    let Some(dir) = common::peer_dir() else { return };
    let root = dir.as_path();
    let mut stack = vec![root.join("configpatcher/testdata"), root.join("configloader/testdata")];
    let mut seen = 0;
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "yaml" || x == "test") {
                let bytes = std::fs::read(&p).unwrap_or_default();
                if let Err(e) = parse_documents(&bytes) {
                    panic!("{}: {e}", p.display());
                }
                seen += 1;
            }
        }
    }
    assert!(seen > 10, "only {seen} files");
    let multidoc = std::fs::read(root.join("configpatcher/testdata/multidoc/config.yaml")).unwrap_or_default();
    let d = parse_documents(&multidoc).unwrap();
    let pos2 = |n: &Node| (n.mark.line, n.mark.column);
    let key = |n: &Node, k: &str| n.get(k).cloned().unwrap_or_else(|| panic!("no key {k}"));
    let item = |n: &Node, i: usize| n.as_sequence().expect("sequence")[i].clone();
    assert_eq!(d.len(), 3);
    assert_eq!(d.iter().map(pos2).collect::<Vec<_>>(), vec![(1, 1), (9, 1), (13, 1)]);
    let ifaces = key(&key(&key(&d[0], "machine"), "network"), "interfaces");
    assert_eq!(pos2(&ifaces), (6, 7));
    assert_eq!(pos2(&item(&ifaces, 0)), (6, 9));
    assert_eq!(pos2(&key(&d[2], "configFiles")), (17, 5));
}
