//! The program of issue 25, unchanged: `prog BASE PATCH...` prints every diagnostic and exits 1
//! on an error; `prog json CONFIG` prints the v1alpha1 document as JSON.

use talos_config::{check, CheckOptions, PatchSource};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args[0] == "json" {
        let config = talos_config::Config::from_bytes(&std::fs::read(&args[1]).unwrap()).unwrap();
        let v1 = config.get::<talos_config::model::v1alpha1::Config>().unwrap();
        println!("{}", serde_json::to_string(v1).unwrap());
        return;
    }
    let source = |p: &String| PatchSource::new(p.clone(), std::fs::read(p).unwrap());
    let patches: Vec<PatchSource> = args[1..].iter().map(source).collect();
    let checked = check(&source(&args[0]), &patches, &CheckOptions::default()).unwrap();
    let mut errors = 0;
    for d in checked.diagnostics() {
        let line = d.to_string();
        if line.contains(": error[") { errors += 1; }
        println!("{line}");
    }
    std::process::exit(if errors > 0 { 1 } else { 0 });
}
