//! Validation in every mode, strict and not, of any config that loads: no panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use talos_config::{Config, Mode, Options};

fuzz_target!(|data: &[u8]| {
    let Ok(config) = Config::from_bytes(data) else { return };
    for mode in ["cloud", "container", "metal"] {
        let Ok(mode) = mode.parse::<Mode>() else { continue };
        for strict in [false, true] {
            let report = config.validate(mode, Options { strict, installed: false });
            if let Some(error) = report.error {
                let _ = error.to_string();
                let _ = error.diagnostics();
            }
        }
    }
});
