//! Shared by the integration tests: where Talos's peer test data is.

#![allow(dead_code)]

use std::path::PathBuf;

/// The folder named by `TALOS_PEER_DIR` (Talos v1.13.9's own test data; a relative path is
/// taken from the workspace root, as the README's test command gives it). When it is missing,
/// says so loudly and returns `None`; under `CI=true` that is a failure.
pub fn peer_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("TALOS_PEER_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .map(|d| if d.is_relative() { PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(d) } else { d });
    match dir {
        Some(d) if d.is_dir() => Some(d),
        other => {
            let msg = format!("TALOS_PEER_DIR ({other:?}) is missing: the Talos v1.13.9 peer data tests did NOT run");
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!("{msg}");
            }
            eprintln!("\n!!!!!!!! {msg} !!!!!!!!\n");
            None
        }
    }
}

/// One release's peer folder (Talos's own test data at that tag).
#[derive(Clone, Debug)]
pub struct Peer {
    /// The folder (`.../talos-v1.12.11`).
    pub dir: PathBuf,
    /// The release the data belongs to.
    pub release: talos_config::Release,
}

/// Every supported release's peer folder: `TALOS_PEER_DIR` names the default release's
/// (`talos-v1.13.9`), the others are its siblings named `talos-<tag>`. A missing folder is said
/// loudly, and is a failure under `CI=true`.
pub fn peers() -> Vec<Peer> {
    let Some(default_dir) = peer_dir() else { return Vec::new() };
    let root = default_dir.parent().map(PathBuf::from).unwrap_or_default();
    let mut out = Vec::new();
    for &release in talos_config::Release::ALL {
        let dir = if release == talos_config::Release::DEFAULT {
            default_dir.clone()
        } else {
            root.join(format!("talos-{release}"))
        };
        if dir.is_dir() {
            out.push(Peer { dir, release });
            continue;
        }
        let msg =
            format!("peer data of Talos {release} ({}) is missing: its conformance tests did NOT run", dir.display());
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{msg}");
        }
        eprintln!("\n!!!!!!!! {msg} !!!!!!!!\n");
    }
    out
}

/// Diagnostics as `(path, message)` pairs, a path in a new-style document written
/// `Kind/name:path` (the form the validation snapshots keep).
pub fn fields_of(diagnostics: &[talos_config::Diagnostic]) -> Vec<(Option<String>, String)> {
    diagnostics
        .iter()
        .map(|d| {
            let path = d.field().map(|f| match d.document() {
                Some(doc) if !doc.is_legacy() => format!("{doc}:{f}"),
                _ => f.to_string(),
            });
            (path, d.message().to_string())
        })
        .collect()
}

/// The first differing line of two texts, for readable failures.
pub fn first_diff(want: &[u8], got: &[u8]) -> String {
    let (w, g) = (String::from_utf8_lossy(want), String::from_utf8_lossy(got));
    for (i, (a, b)) in w.lines().zip(g.lines()).enumerate() {
        if a != b {
            return format!("line {}: want {a:?}\n          got  {b:?}", i + 1);
        }
    }
    format!("lengths differ: want {} lines, got {} lines", w.lines().count(), g.lines().count())
}
