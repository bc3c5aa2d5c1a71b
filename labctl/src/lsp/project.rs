//! `.labctl.toml`: which base config and patches a file belongs to, found by walking up from the
//! file's folder. A file listed in a `[[config]]` is checked in that config's context (the base,
//! then the patches in order, with the editor's unsaved buffers in place of the files).
//!
//! ```toml
//! mode = "metal"                 # Talos's validation mode (default container)
//! talos_release = "v1.12.11"     # the Talos release the nodes run (default v1.13.9)
//! host_ranges = ["192.168.0.0/16"]   # ranges pod and service subnets must not overlap
//! [[config]]
//! base = "controlplane.yaml"
//! patches = ["patches/all-*.yaml", "patches/cp.yaml"]   # in order; `*` and `?` in file names
//! ```

use std::path::{Path, PathBuf};

/// The project file's name.
pub(crate) const FILE_NAME: &str = ".labctl.toml";

/// One `[[config]]`: a base and its patches, as absolute paths.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ConfigSet {
    pub base: PathBuf,
    pub patches: Vec<PathBuf>,
}

/// A read project file.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Project {
    pub file: PathBuf,
    pub mode: Option<String>,
    /// The Talos release to answer as (`talos_release`), when the file names one.
    pub release: Option<talos_config::Release>,
    /// Address ranges the cluster must not use (`subnet-overlap`), as written.
    pub host_ranges: Vec<String>,
    pub configs: Vec<ConfigSet>,
}

impl Project {
    /// The project file of the folder holding `path` or of the nearest folder above it.
    pub(crate) fn find(path: &Path) -> Option<Result<Project, String>> {
        let mut dir = path.parent();
        while let Some(d) = dir {
            let candidate = d.join(FILE_NAME);
            if candidate.is_file() {
                return Some(Project::read(&candidate));
            }
            dir = d.parent();
        }
        None
    }

    fn read(file: &Path) -> Result<Project, String> {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
        let table: toml::Table = text.parse().map_err(|e| format!("{}: {e}", file.display()))?;
        let root = file.parent().unwrap_or(Path::new("."));
        let mode = table.get("mode").and_then(|m| m.as_str()).map(str::to_string);
        let release = match table.get("talos_release") {
            None => None,
            Some(value) => Some(
                value
                    .as_str()
                    .ok_or_else(|| "talos_release must be a string such as \"v1.12.11\"".to_string())
                    .and_then(crate::input::parse_release)
                    .map_err(|e| format!("{}: {e}", file.display()))?,
            ),
        };
        let host_ranges = table
            .get("host_ranges")
            .and_then(|r| r.as_array())
            .into_iter()
            .flatten()
            .filter_map(|r| r.as_str().map(str::to_string))
            .collect();
        let mut configs = Vec::new();
        for entry in table.get("config").and_then(|c| c.as_array()).into_iter().flatten() {
            let Some(base) = entry.get("base").and_then(|b| b.as_str()) else {
                return Err(format!("{}: a [[config]] without `base`", file.display()));
            };
            let mut patches = Vec::new();
            for pattern in entry.get("patches").and_then(|p| p.as_array()).into_iter().flatten() {
                if let Some(pattern) = pattern.as_str() {
                    patches.extend(expand(root, pattern));
                }
            }
            configs.push(ConfigSet { base: root.join(base), patches });
        }
        Ok(Project { file: file.to_path_buf(), mode, release, host_ranges, configs })
    }

    /// The config set a file is the base or a patch of.
    pub(crate) fn set_of(&self, path: &Path) -> Option<&ConfigSet> {
        self.configs.iter().find(|c| c.base == path || c.patches.iter().any(|p| p == path))
    }
}

/// The files a pattern names, sorted: `*` and `?` match within the last path component.
fn expand(root: &Path, pattern: &str) -> Vec<PathBuf> {
    let full = root.join(pattern);
    let (Some(dir), Some(name)) = (full.parent(), full.file_name().and_then(|n| n.to_str())) else {
        return Vec::new();
    };
    if !name.contains(['*', '?']) {
        return vec![full.clone()];
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| wildcard(name.as_bytes(), n.as_bytes())))
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}

/// Whether `text` matches `pattern` (`*` any run, `?` one byte).
fn wildcard(pattern: &[u8], text: &[u8]) -> bool {
    match (pattern.first(), text.first()) {
        (None, None) => true,
        (Some(b'*'), _) => wildcard(&pattern[1..], text) || (!text.is_empty() && wildcard(pattern, &text[1..])),
        (Some(b'?'), Some(_)) => wildcard(&pattern[1..], &text[1..]),
        (Some(p), Some(t)) if p == t => wildcard(&pattern[1..], &text[1..]),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_and_the_project_file() {
        assert!(wildcard(b"0*.yaml", b"05-labels.yaml"));
        assert!(wildcard(b"0?-*.yaml", b"05-labels.yaml"));
        assert!(!wildcard(b"0*.yaml", b"worker.yaml"));
        let dir = tempfile::tempdir().unwrap();
        for name in ["worker.yaml", "05-a.yaml", "06-b.yaml", "x.yaml"] {
            std::fs::write(dir.path().join(name), "").unwrap();
        }
        let file = dir.path().join(FILE_NAME);
        std::fs::write(
            &file,
            "mode = \"metal\"\nhost_ranges = [\"10.0.0.0/8\"]\n[[config]]\nbase = \"worker.yaml\"\npatches = [\"0*.yaml\", \"x.yaml\"]\n",
        )
        .unwrap();
        let project = Project::find(&dir.path().join("x.yaml")).unwrap().unwrap();
        assert_eq!(project.mode.as_deref(), Some("metal"));
        assert_eq!(project.host_ranges, ["10.0.0.0/8"]);
        let set = project.set_of(&dir.path().join("06-b.yaml")).unwrap();
        let names: Vec<_> = set.patches.iter().map(|p| p.file_name().unwrap().to_str().unwrap()).collect();
        assert_eq!(names, ["05-a.yaml", "06-b.yaml", "x.yaml"]);
        assert_eq!(set.base, dir.path().join("worker.yaml"));
        assert_eq!(project.release, None);
    }

    #[test]
    fn the_project_file_names_the_release() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(FILE_NAME);
        let read = |text: &str| {
            std::fs::write(&file, text).unwrap();
            Project::find(&dir.path().join("x.yaml")).unwrap().map(|p| p.release)
        };
        assert_eq!(read("talos_release = \"v1.12\"\n"), Ok(Some(talos_config::Release::V1_12_11)));
        assert_eq!(read("talos_release = \"1.13.9\"\n"), Ok(Some(talos_config::Release::V1_13_9)));
        assert_eq!(
            read("talos_release = \"v1.11\"\n"),
            Err(format!(
                "{}: unknown Talos release \"v1.11\": supported releases are v1.12.11, v1.13.9 and v1.14.0-rc.1 (v1.12, v1.13 and v1.14 name them too)",
                file.display()
            ))
        );
        assert_eq!(
            read("talos_release = 12\n"),
            Err(format!("{}: talos_release must be a string such as \"v1.12.11\"", file.display()))
        );
    }
}
