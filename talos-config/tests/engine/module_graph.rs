//! No module cycles: inside each library crate and labctl, sibling modules (children of the same
//! parent, at every depth) never use each other in a circle, so the code reads as layers. A use
//! `crate::a::b::X` from module `a::c::d` is an edge `b -> ...` at the level where the two paths
//! part (`c -> b` under `a`); `super::` and `self::` paths count the same way.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The `src/` folders checked, relative to the workspace root.
const CRATES: &[&str] = &[
    "talos-config/src",
    "talos-config/yaml/src",
    "talos-config/go/src",
    "talos-client/src",
    "talos-sim/src",
    "labctl/src",
];

type ModPath = Vec<String>;

/// The workspace root (the folder holding Cargo.lock).
pub(crate) fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.ancestors().find(|p| p.join("Cargo.lock").exists()).unwrap().to_path_buf()
}

/// Every `.rs` file under `dir`.
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `lab/steps.rs` and `lab/steps/mod.rs` are `lab::steps`; the crate
/// root (`lib.rs`, `main.rs`) is empty; binaries under `bin/` are skipped.
fn module_path(src: &Path, file: &Path) -> Option<ModPath> {
    let rel = file.strip_prefix(src).ok()?;
    let mut parts: ModPath = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if parts.first().is_some_and(|p| p == "bin") {
        return None;
    }
    let last = parts.pop()?;
    let stem = last.strip_suffix(".rs")?;
    if !(parts.is_empty() && (stem == "lib" || stem == "main")) && stem != "mod" {
        parts.push(stem.to_string());
    }
    Some(parts)
}

fn ident(text: &str) -> &str {
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    &text[..end]
}

/// Every module path a file names: `crate::`, `super::` and `self::` paths, including the
/// members of `{...}` groups, cut to the longest prefix that is a known module.
fn used_modules(
    text: &str,
    here: &ModPath,
    modules: &BTreeSet<ModPath>,
    reexports: &BTreeMap<String, ModPath>,
) -> BTreeSet<ModPath> {
    let mut used = BTreeSet::new();
    for anchor in ["crate::", "super::", "self::"] {
        for (at, _) in text.match_indices(anchor) {
            if at > 0 && text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut base: ModPath = match anchor {
                "crate::" => Vec::new(),
                "self::" => here.clone(),
                _ => here[..here.len().saturating_sub(1)].to_vec(),
            };
            let mut rest = &text[at + anchor.len()..];
            while let Some(next) = rest.strip_prefix("super::") {
                base.pop();
                rest = next;
            }
            let mut paths = Vec::new();
            collect_paths(rest, base, &mut paths);
            for mut path in paths {
                if let Some(origin) = path.first().and_then(|first| reexports.get(first)) {
                    path = origin.clone(); // `crate::Config` is `crate::config::Config`
                }
                let known = (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains(p));
                if let Some(module) = known {
                    used.insert(module);
                }
            }
        }
    }
    used
}

/// Expands `a::b::{c, d::e}` after a base path into full paths.
fn collect_paths(text: &str, mut base: ModPath, out: &mut Vec<ModPath>) {
    let mut rest = text;
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        collect_paths(group[start..i].trim(), base.clone(), out);
                        return;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        collect_paths(group[start..i].trim(), base.clone(), out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let name = ident(rest);
        if name.is_empty() {
            out.push(base);
            return;
        }
        base.push(name.to_string());
        match rest[name.len()..].strip_prefix("::") {
            Some(next) => rest = next,
            None => {
                out.push(base);
                return;
            }
        }
    }
}

/// What the crate root re-exports by name: `pub use config::Config;` makes `crate::Config` a use
/// of module `config`.
fn root_reexports(root: &str, modules: &BTreeSet<ModPath>) -> BTreeMap<String, ModPath> {
    let mut map = BTreeMap::new();
    for statement in root.split(';') {
        let Some(at) = statement.find("use ") else { continue };
        if !statement[..at].trim_start().starts_with("pub") {
            continue;
        }
        let mut paths = Vec::new();
        collect_paths(statement[at + 4..].trim(), Vec::new(), &mut paths);
        for path in paths {
            let (Some(first), Some(name)) = (path.first(), path.last()) else { continue };
            if modules.contains(&vec![first.clone()]) {
                map.insert(name.clone(), vec![first.clone()]);
            }
        }
    }
    map
}

fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

/// For each parent module, the use edges between its children.
fn sibling_graphs(src: &Path) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let paths: Vec<(PathBuf, ModPath)> =
        files.into_iter().filter_map(|f| module_path(src, &f).map(|m| (f, m))).collect();
    let modules: BTreeSet<ModPath> = paths.iter().map(|(_, m)| m.clone()).collect();
    let root = paths.iter().find(|(_, m)| m.is_empty()).map(|(f, _)| std::fs::read_to_string(f).unwrap());
    let reexports = root_reexports(root.as_deref().unwrap_or(""), &modules);
    let mut graphs: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (file, here) in &paths {
        let text = std::fs::read_to_string(file).unwrap();
        for target in used_modules(&text, here, &modules, &reexports) {
            let common = here.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common == here.len() || common == target.len() {
                continue; // a parent and its descendant
            }
            let parent = if common == 0 { "crate".to_string() } else { here[..common].join("::") };
            graphs.entry(parent).or_default().entry(here[common].clone()).or_default().insert(target[common].clone());
        }
    }
    graphs
}

#[test]
fn sibling_modules_form_no_cycle() {
    let root = workspace_root();
    let mut cycles = Vec::new();
    for krate in CRATES {
        let src = root.join(krate);
        if !src.exists() {
            continue;
        }
        for (parent, graph) in sibling_graphs(&src) {
            if let Some(cycle) = find_cycle(&graph) {
                cycles.push(format!("{krate}: under {parent}: {}", cycle.join(" -> ")));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "module cycles (break each by moving the shared part into a module both use):\n{}",
        cycles.join("\n")
    );
}
