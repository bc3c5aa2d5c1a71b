//! Patch loading and application (strategic merge, `$patch: delete`, JSON6902) on any bytes:
//! `BASE\n#%PATCH%\nPATCH`, or a patch alone applied to the worker fixture. A failed patch
//! leaves the input as it was; applying the same patches twice gives the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use talos_config::{PatchSource, apply_patches, load_patches};

const WORKER: &[u8] = include_bytes!("../../fixtures/worker.yaml");
const SEPARATOR: &[u8] = b"\n#%PATCH%\n";

fuzz_target!(|data: &[u8]| {
    let (base, patch) = match data.windows(SEPARATOR.len()).position(|w| w == SEPARATOR) {
        Some(at) => (&data[..at], &data[at + SEPARATOR.len()..]),
        None => (WORKER, data),
    };
    let Ok(patches) = load_patches([PatchSource::new("patch.yaml", patch.to_vec())]) else { return };
    let before = base.to_vec();
    let first = apply_patches(base, &patches);
    assert_eq!(base, before.as_slice(), "the input changed");
    let second = apply_patches(base, &patches);
    match (first, second) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "not deterministic"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "not deterministic"),
        _ => panic!("not deterministic"),
    }
});
