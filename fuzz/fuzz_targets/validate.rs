//! Validation in every mode, strict and not, as a client and as a node, of any config that
//! loads, as every release: no panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use talos_config::{Config, Mode, Options, Release};

fuzz_target!(|data: &[u8]| {
    for &release in Release::ALL {
        let Ok(config) = Config::from_bytes_for(data, release) else { continue };
        for mode in ["cloud", "container", "metal"] {
            let Ok(mode) = mode.parse::<Mode>() else { continue };
            for (strict, node) in [(false, false), (true, false), (false, true)] {
                let report = config.validate(mode, Options { strict, node, ..Options::default() });
                if let Some(error) = report.error {
                    let _ = error.to_string();
                    let _ = error.diagnostics();
                }
            }
        }
    }
});
