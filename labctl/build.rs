//! Lists the message catalogues of `i18n/` (one Fluent file per language, named by its code) for
//! the binary, so that a language is added by adding its file.

use std::error::Error;
use std::path::PathBuf;

fn main() -> Result<(), Box<dyn Error>> {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?).join("i18n");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut catalogues = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let path = entry?.path();
        let code = path.file_stem().and_then(|s| s.to_str()).map(str::to_owned);
        if let (Some(code), Some("ftl")) = (code, path.extension().and_then(|e| e.to_str())) {
            println!("cargo::rerun-if-changed={}", path.display());
            catalogues.push((code, path));
        }
    }
    catalogues.sort();
    let mut out = String::from("/// The catalogues built in: language code and Fluent source, by code.\n");
    out.push_str("pub(crate) const CATALOGUES: &[(&str, &str)] = &[\n");
    for (code, path) in &catalogues {
        out.push_str(&format!("    ({code:?}, include_str!({:?})),\n", path.display().to_string()));
    }
    out.push_str("];\n");
    std::fs::write(PathBuf::from(std::env::var("OUT_DIR")?).join("catalogues.rs"), out)?;
    Ok(())
}
