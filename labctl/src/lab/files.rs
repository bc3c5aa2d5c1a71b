//! The files of the lab, with the names, fields and JSON types `lab/steps.md` asks for.
//!
//! Each JSON file is one struct whose fields are exactly the lab's (serde keeps declaration order): labctl writes
//! exactly those, and reads a file as a grader would, requiring each of them with its JSON type and ignoring any
//! field the lab does not name. Files are written atomically (a temporary file in the same
//! directory, then a rename): an interrupted run leaves each file either old or new.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::LabError;
use crate::atomic::{AtomicWrite, FileMode, WriteStep};
use crate::i18n::tr;

/// Step 1: `noshell.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoShell {
    /// The control plane container's name.
    pub container: String,
    /// Its address on the Docker network `talos-default`.
    pub node_ip: String,
    /// `docker exec <container> sh`'s exit code.
    #[serde(deserialize_with = "whole_number")]
    pub exec_sh_exit: i64,
    /// The one line of its error message.
    pub exec_sh_error: String,
    /// TCP port 22 of the node IP accepted a connection.
    pub port22_open: bool,
    /// TCP port 50000 of the node IP accepted a connection.
    pub port50000_open: bool,
}

/// Step 2: `services.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Services {
    /// The control plane's service ids, sorted.
    pub controlplane: Vec<String>,
    /// The worker's service ids, sorted.
    pub worker: Vec<String>,
    /// The ids only the control plane has, sorted.
    pub controlplane_only: Vec<String>,
}

/// One member of `members.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberEntry {
    /// The machine type (`controlplane`, `worker`).
    #[serde(rename = "type")]
    pub machine_type: String,
    /// The member's addresses.
    pub addresses: Vec<String>,
}

/// Step 3: `members.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Members {
    /// The control plane server's Talos tag (`v1.13.10`).
    pub talos_version: String,
    /// Hostname → type and addresses.
    pub members: BTreeMap<String, MemberEntry>,
    /// The worker's `MachineConfig v1alpha1` `metadata.version`.
    #[serde(deserialize_with = "whole_number")]
    pub worker_mc_version: u64,
}

/// Step 4: `cluster.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cluster {
    /// The kubeconfig's server address.
    pub api_server: String,
    /// Node name → InternalIP.
    pub nodes: BTreeMap<String, String>,
    /// The kubelet version the Nodes report.
    pub kubelet_version: String,
    /// `cluster.network.podSubnets` of the control plane's config.
    pub pod_subnets: Vec<String>,
    /// `cluster.network.serviceSubnets` of the control plane's config.
    pub service_subnets: Vec<String>,
    /// Either range overlaps the host cluster's 10.244.0.0/16 or 10.96.0.0/12.
    pub overlaps_host: bool,
}

/// Step 5: `patch.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Patch {
    /// The node patched (the worker's IP).
    pub node: String,
    /// The worker's MachineConfig version before the apply.
    #[serde(deserialize_with = "whole_number")]
    pub mc_version_before: u64,
    /// The worker's MachineConfig version after the apply.
    #[serde(deserialize_with = "whole_number")]
    pub mc_version_after: u64,
    /// The worker container's `State.StartedAt`.
    pub container_started_at: String,
}

/// Step 6: `try.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Try {
    /// The try timeout in seconds.
    #[serde(deserialize_with = "whole_number")]
    pub timeout_sec: u64,
    /// The worker's MachineConfig version right after the try apply.
    #[serde(deserialize_with = "whole_number")]
    pub version_during: u64,
    /// The canary label was seen on the Kubernetes Node.
    pub seen_on_node: bool,
    /// The version after the rollback.
    #[serde(deserialize_with = "whole_number")]
    pub version_after_revert: u64,
}

/// Step 7: `rejected.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rejected {
    /// The worker's MachineConfig version before the attempt.
    #[serde(deserialize_with = "whole_number")]
    pub version_before: u64,
    /// The version after it (unchanged).
    #[serde(deserialize_with = "whole_number")]
    pub version_after: u64,
}

/// Step 8: `kubelet-diag.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KubeletDiag {
    /// The worker's MachineConfig version right after the accepted apply.
    #[serde(deserialize_with = "whole_number")]
    pub accepted_version: u64,
    /// The kubelet service's STATE seen then.
    pub service_state: String,
    /// The kubelet log line stating the cause.
    pub error_line: String,
}

/// Step 9: `report.json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// A shell could be run in the node.
    pub shell_in_node: bool,
    /// Port 22 was open.
    pub ssh_port_open: bool,
    /// The Talos API port.
    #[serde(deserialize_with = "whole_number")]
    pub api_port: u16,
    /// How often the worker's MachineConfig changed since the first (current version - 1).
    #[serde(deserialize_with = "whole_number")]
    pub worker_config_changes: u64,
    /// How often the worker container restarted since step 5.
    #[serde(deserialize_with = "whole_number")]
    pub worker_restarts: u64,
    /// The configuration path validation caught in step 7 (`machine.x`).
    pub rejected_field: String,
    /// The service that died in step 8.
    pub broken_service: String,
    /// A line of the worker's machined log recording a configuration-apply call.
    pub apply_log_line: String,
    /// At least 80 characters on what an immutable OS and API-based management meant in the lab.
    pub summary: String,
}

/// The file names of the lab, in step order.
pub mod names {
    /// Step 1.
    pub const NOSHELL: &str = "noshell.json";
    /// Step 2.
    pub const SERVICES: &str = "services.json";
    /// Step 3.
    pub const MEMBERS: &str = "members.json";
    /// Step 4: the kubeconfig (a regular file, mode 0600).
    pub const KUBECONFIG: &str = "kubeconfig";
    /// Step 4.
    pub const CLUSTER: &str = "cluster.json";
    /// Step 5: the patch.
    pub const LABELS_PATCH: &str = "05-labels.yaml";
    /// Step 5: what the apply printed.
    pub const PATCH_OUT: &str = "patch-out.txt";
    /// Step 5.
    pub const PATCH: &str = "patch.json";
    /// Step 6.
    pub const TRY: &str = "try.json";
    /// Step 7: the patch.
    pub const BAD_PATCH: &str = "07-bad.yaml";
    /// Step 7: what the apply printed.
    pub const REJECTED_OUT: &str = "rejected.txt";
    /// Step 7.
    pub const REJECTED: &str = "rejected.json";
    /// Step 8: the patch.
    pub const KUBELET_PATCH: &str = "08-kubelet.yaml";
    /// Step 8.
    pub const KUBELET_DIAG: &str = "kubelet-diag.json";
    /// Step 8: the fix.
    pub const FIX_PATCH: &str = "08-fix.yaml";
    /// Step 9.
    pub const REPORT: &str = "report.json";
    /// labctl's own bookkeeping (not a lab file).
    pub const STATE: &str = ".labctl-state.json";
}

/// Step 5's label key on the worker.
pub const POOL_LABEL: &str = "lab.talos.dev/pool";
/// Step 5's label value.
pub const POOL_VALUE: &str = "blue";
/// Step 6's label key, tried and rolled back.
pub const CANARY_LABEL: &str = "lab.talos.dev/canary";
/// Step 6's label value.
pub const CANARY_VALUE: &str = "on";
/// Step 7's invalid label key (it holds a space).
pub const BAD_LABEL: &str = "lab.talos.dev/team name";
/// Step 7's label value.
pub const BAD_LABEL_VALUE: &str = "platform";

/// Step 5's patch: the pool label on the worker.
pub const LABELS_PATCH_TEXT: &str = "machine:\n  nodeLabels:\n    lab.talos.dev/pool: blue\n";
/// Step 6's patch: the canary label (applied in try mode; not a file of the lab).
pub const CANARY_PATCH_TEXT: &str = "machine:\n  nodeLabels:\n    lab.talos.dev/canary: \"on\"\n";
/// Step 7's patch: a label name with a space.
pub const BAD_PATCH_TEXT: &str = "machine:\n  nodeLabels:\n    lab.talos.dev/team name: platform\n";
/// Step 8's patch: a kubelet flag the kubelet does not know.
pub const KUBELET_PATCH_TEXT: &str = "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n";
/// Step 8's fix: delete just that key.
pub const FIX_PATCH_TEXT: &str = "machine:\n  kubelet:\n    extraArgs:\n      max-pod:\n        $patch: delete\n";

/// The output directory of a run.
#[derive(Clone, Debug)]
pub struct OutDir {
    dir: PathBuf,
}

impl OutDir {
    /// The directory (created on the first write).
    pub fn new(dir: impl Into<PathBuf>) -> OutDir {
        OutDir { dir: dir.into() }
    }

    /// The directory.
    pub fn dir(&self) -> &std::path::Path {
        &self.dir
    }

    /// The path of a file in it.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Writes `value` as pretty JSON followed by a newline, atomically.
    pub fn write_json<T: Serialize>(&self, name: &str, value: &T) -> Result<(), LabError> {
        let mut text = serde_json::to_string_pretty(value)
            .map_err(|e| LabError::new(tr!("files-cannot-encode", file = name, error = e.to_string())))?;
        text.push('\n');
        self.write(name, text.as_bytes())
    }

    /// Writes bytes atomically (temporary file in the directory, then a rename); mode 0644 less the umask.
    pub fn write(&self, name: &str, bytes: &[u8]) -> Result<(), LabError> {
        self.write_with_mode(name, bytes, FileMode::LessUmask(0o644))
    }

    /// Writes a secret file (the kubeconfig): atomically, mode 0600, never through a symlink.
    pub fn write_secret(&self, name: &str, bytes: &[u8]) -> Result<(), LabError> {
        self.write_with_mode(name, bytes, FileMode::Exact(0o600))
    }

    /// Writes `name` in the directory with the given mode, replacing a symlink rather than following it.
    fn write_with_mode(&self, name: &str, bytes: &[u8], mode: FileMode) -> Result<(), LabError> {
        let path = self.path(name);
        let prefix = format!(".{name}.");
        let writer = AtomicWrite { mode, follow_symlinks: false, temp_prefix: &prefix, temp_suffix: "" };
        writer.write(&path, bytes).map_err(|e| match e.step {
            WriteStep::Mkdir(_) if mode == FileMode::Exact(0o600) => LabError::new(tr!(
                "files-cannot-create",
                path = self.dir.display().to_string(),
                error = e.source.to_string()
            )),
            _ => LabError::new(tr!(
                "files-cannot-write",
                path = path.display().to_string(),
                error = e.source.to_string()
            )),
        })
    }

    /// Whether a file exists.
    pub fn exists(&self, name: &str) -> bool {
        self.path(name).exists()
    }

    /// Reads a text file; `Ok(None)` when it does not exist.
    pub fn read(&self, name: &str) -> Result<Option<String>, LabError> {
        let path = self.path(name);
        match std::fs::read(&path) {
            Ok(bytes) => String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| LabError::new(tr!("files-not-utf8", path = path.display().to_string()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => {
                Err(LabError::new(tr!("files-cannot-read", path = path.display().to_string(), error = e.to_string())))
            }
        }
    }

    /// Reads and decodes a JSON file of the lab as a grader would (every field the lab names, with its JSON type);
    /// an error names the file, the field's JSON path and what the lab asks for there.
    pub fn read_json<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, LabError> {
        match self.read(name)? {
            None => Ok(None),
            Some(text) => {
                decode_lab_json(&self.path(name).display().to_string(), &text).map(Some).map_err(LabError::new)
            }
        }
    }
}

/// Decodes `text` (the file `file`), with errors in the lab's words.
pub fn decode_lab_json<T: DeserializeOwned>(file: &str, text: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = serde_path_to_error::deserialize::<_, T>(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        lab_error(file, &path, &inner)
    })?;
    de.end().map_err(|e| lab_error(file, ".", &e))?;
    Ok(value)
}

/// `members.json: members.cp.type is the number 4, where the lab asks for a string (line 5, column 16)`.
fn lab_error(file: &str, path: &str, e: &serde_json::Error) -> String {
    let full = e.to_string();
    // serde_json appends " at line L column C"; the position is given in the lab's form instead.
    let message = full.rsplit_once(" at line ").map_or(full.as_str(), |(m, _)| m);
    let at = if e.line() > 0 {
        format!(" ({})", tr!("files-position", line = e.line(), column = e.column()))
    } else {
        String::new()
    };
    if e.is_syntax() || e.is_eof() {
        return tr!("files-not-json", file = file, message = message, at = at);
    }
    let field = if path == "." { None } else { Some(path) };
    if let Some(missing) = message.strip_prefix("missing field `").and_then(|m| m.strip_suffix('`')) {
        return match field {
            Some(p) => tr!("files-no-field-in", file = file, path = p, field = missing, at = at),
            None => tr!("files-no-field", file = file, field = missing, at = at),
        };
    }
    let found_expected = message
        .strip_prefix("invalid type: ")
        .or_else(|| message.strip_prefix("invalid value: "))
        .and_then(|m| m.rsplit_once(", expected "));
    match (found_expected, field) {
        (Some((found, expected)), Some(p)) => tr!(
            "files-wrong-type-in",
            file = file,
            path = p,
            found = found_words(found),
            expected = expected_words(expected),
            at = at
        ),
        (Some((found, expected)), None) => tr!(
            "files-wrong-type",
            file = file,
            found = found_words(found),
            expected = expected_words(expected),
            at = at
        ),
        (None, Some(p)) => format!("{file}: {p}: {message}{at}"),
        (None, None) => format!("{file}: {message}{at}"),
    }
}

/// serde's description of a JSON value found (`string "4"`, ``integer `5` ``), in plain words.
fn found_words(found: &str) -> String {
    let quoted = |prefix: &str| found.strip_prefix(prefix).map(|v| v.trim_matches('`').to_string());
    if let Some(s) = found.strip_prefix("string ") {
        return tr!("files-the-string", value = s);
    }
    if let Some(n) = quoted("integer ").or_else(|| quoted("floating point ")) {
        return tr!("files-the-number", value = n);
    }
    if let Some(b) = quoted("boolean ") {
        return b;
    }
    match found {
        "null" | "unit value" => "null".into(),
        "sequence" => tr!("files-an-array"),
        "map" => tr!("files-an-object"),
        other => other.into(),
    }
}

/// serde's expectation (a Rust type) in the lab's words.
fn expected_words(expected: &str) -> String {
    match expected {
        "u8" | "u16" | "u32" | "u64" | "i8" | "i16" | "i32" | "i64" | "a whole number" => tr!("files-a-whole-number"),
        "f32" | "f64" => tr!("files-a-number"),
        "a boolean" => tr!("files-true-or-false"),
        "a string" => tr!("files-a-string"),
        "a sequence" => tr!("files-an-array"),
        "a map" => tr!("files-an-object"),
        e if e.starts_with("struct ") => tr!("files-an-object"),
        e => e.into(),
    }
}

/// A JSON number that is whole, written as the lab words it ("a number": `30` and `30.0` alike).
fn whole_number<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<i128>,
{
    use serde::de::{Error, Unexpected};
    let value = serde_json::Value::deserialize(d)?;
    let expected = &"a whole number";
    let n = match &value {
        serde_json::Value::Number(n) => n,
        serde_json::Value::String(s) => return Err(D::Error::invalid_type(Unexpected::Str(s), expected)),
        serde_json::Value::Bool(b) => return Err(D::Error::invalid_type(Unexpected::Bool(*b), expected)),
        serde_json::Value::Null => return Err(D::Error::invalid_type(Unexpected::Unit, expected)),
        serde_json::Value::Array(_) => return Err(D::Error::invalid_type(Unexpected::Seq, expected)),
        serde_json::Value::Object(_) => return Err(D::Error::invalid_type(Unexpected::Map, expected)),
    };
    let whole = n
        .as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
        .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e19).map(|f| f as i128));
    match whole.map(T::try_from) {
        Some(Ok(v)) => Ok(v),
        _ => {
            let (found, expected) =
                (tr!("files-the-number", value = n.to_string()), tr!("files-whole-number-in-range"));
            Err(D::Error::invalid_value(Unexpected::Other(&found), &expected.as_str()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_patches_carry_the_named_labels() {
        assert!(LABELS_PATCH_TEXT.contains(&format!("{POOL_LABEL}: {POOL_VALUE}\n")));
        assert!(CANARY_PATCH_TEXT.contains(&format!("{CANARY_LABEL}: \"{CANARY_VALUE}\"\n")));
        assert!(BAD_PATCH_TEXT.contains(&format!("{BAD_LABEL}: {BAD_LABEL_VALUE}\n")));
    }
}
