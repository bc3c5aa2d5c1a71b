//! Making configs on any bytes: a secrets bundle read, checked and, when valid, turned into both
//! configs that load back; the first line as a cluster endpoint and as a version contract. No
//! panic; a generated config always loads.
#![no_main]

use libfuzzer_sys::fuzz_target;
use talos_config::Config;
use talos_config::generate::{GenOptions, GenPatches, Input, SecretsBundle, VersionContract, check_endpoint};

fuzz_target!(|data: &[u8]| {
    let first_line = String::from_utf8_lossy(data.split(|&b| b == b'\n').next().unwrap_or_default()).into_owned();
    let _ = check_endpoint(&first_line);
    let contract = first_line.parse::<VersionContract>().unwrap_or_default();
    let Ok(bundle) = SecretsBundle::from_yaml(data) else { return };
    let _ = bundle.to_yaml();
    if bundle.validate().is_err() {
        return;
    }
    let mut options = GenOptions::default();
    options.contract = contract;
    let input = Input::new("fuzz", "https://10.5.0.2:6443", bundle, options);
    if let Ok(configs) = input.configs(&GenPatches::default()) {
        for config in [configs.control_plane, configs.worker] {
            assert!(Config::from_bytes(config.encode().as_bytes()).is_ok());
        }
    }
});
