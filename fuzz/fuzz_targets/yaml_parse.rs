//! The YAML parser and both emitters on any bytes: no panic, no stack overflow, no hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(docs) = talos_yaml::parse::parse_documents(data) {
        for doc in &docs {
            let _ = talos_yaml::emit_v4::emit_v4(doc);
            let _ = talos_yaml::emit_v2::emit_v2(doc);
        }
    }
});
