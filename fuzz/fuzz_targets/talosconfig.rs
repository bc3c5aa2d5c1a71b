//! talosconfig parsing on any bytes, and endpoint parsing of every context: no panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(config) = talos_client::Talosconfig::parse(data) {
        for context in config.contexts.values() {
            let _ = context.parsed_endpoints();
        }
    }
});
