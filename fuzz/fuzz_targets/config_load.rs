//! Config loading on any bytes, as every release loads it; a config that loads encodes to text
//! that loads again and encodes to the same text (what talosctl writes, it reads back unchanged).
#![no_main]

use libfuzzer_sys::fuzz_target;
use talos_config::{Config, Release};

fuzz_target!(|data: &[u8]| {
    for &release in Release::ALL {
        let Ok(config) = Config::from_bytes_for(data, release) else { continue };
        let encoded = config.encode();
        match Config::from_bytes_for(encoded.as_bytes(), release) {
            Ok(again) => assert_eq!(again.encode(), encoded, "{release}: encoding is not stable"),
            Err(e) => panic!("{release}: the encoded config does not load: {e}\n{encoded}"),
        }
    }
});
