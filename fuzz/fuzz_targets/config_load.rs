//! Config loading on any bytes; a config that loads encodes to text that loads again and
//! encodes to the same text (what talosctl writes, it reads back unchanged).
#![no_main]

use libfuzzer_sys::fuzz_target;
use talos_config::Config;

fuzz_target!(|data: &[u8]| {
    let Ok(config) = Config::from_bytes(data) else { return };
    let encoded = config.encode();
    match Config::from_bytes(encoded.as_bytes()) {
        Ok(again) => assert_eq!(again.encode(), encoded, "encoding is not stable"),
        Err(e) => panic!("the encoded config does not load: {e}\n{encoded}"),
    }
});
