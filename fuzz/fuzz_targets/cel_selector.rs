//! A CEL selector of any text (disk, volume and link selectors), validated as every release
//! validates it: no panic, no stack overflow, and the same answer twice.
#![no_main]

use libfuzzer_sys::fuzz_target;
use talos_config::{Config, Mode, Options, Release};

/// The documents holding `expr` as their selector, `expr` written as a YAML double-quoted
/// string (every character escaped as `\uXXXX` where YAML would not take it as it is).
fn documents(expr: &str) -> String {
    let mut quoted = String::from("\"");
    for c in expr.chars() {
        match c {
            '"' | '\\' => quoted.push_str(&format!("\\{c}")),
            ' '..='~' => quoted.push(c),
            _ => quoted.push_str(&format!("\\U{:08x}", u32::from(c))),
        }
    }
    quoted.push('"');
    format!(
        "apiVersion: v1alpha1\nkind: UserVolumeConfig\nname: data\nprovisioning:\n  diskSelector:\n    match: {quoted}\n  minSize: 1GiB\n\
         ---\napiVersion: v1alpha1\nkind: ExistingVolumeConfig\nname: old\ndiscovery:\n  volumeSelector:\n    match: {quoted}\n\
         ---\napiVersion: v1alpha1\nkind: LinkAliasConfig\nname: net0\nselector:\n  match: {quoted}\n"
    )
}

fuzz_target!(|data: &[u8]| {
    let Ok(expr) = std::str::from_utf8(data) else { return };
    let yaml = documents(expr);
    for &release in Release::ALL {
        let Ok(config) = Config::from_bytes_for(yaml.as_bytes(), release) else { continue };
        let answer = |c: &Config| c.validate(Mode::Container, Options::default()).error.map(|e| e.to_string());
        assert_eq!(answer(&config), answer(&config), "{release}: two answers for {expr:?}");
    }
});
