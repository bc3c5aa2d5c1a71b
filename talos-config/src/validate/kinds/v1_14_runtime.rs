//! Runtime and storage kinds new in v1.14.

use super::block::{DISK_LOCATOR, VOLUME_LOCATOR, byte_size};
use super::{err, errors, first};
use crate::gofmt::quote;
use crate::model::block::{CelExpression, Size};
use crate::model::runtime::{
    EtcFileConfig, KernelModuleConfig, SecurityProfileConfig, SysctlConfig, SysfsConfig, UdevRulesConfig,
    UnattendedInstallConfig,
};
use crate::model::storage::{LvmLogicalVolumeConfig, LvmVolumeGroupConfig, RaidArrayConfig};
use crate::validate::{Context, Findings, Issue, Validate};

/// Files under `/etc` Talos writes itself.
const MANAGED_ETC_FILES: &[&str] =
    &["resolv.conf", "hosts", "machine-id", "extensions.yaml", "localtime", "os-release", "xattr.conf"];

/// Directories under `/etc` Talos owns.
const MANAGED_ETC_DIRS: &[&str] = &[
    "apparmor.d",
    "apparmor",
    "ca-certificates",
    "cni",
    "cri",
    "iscsi",
    "kubernetes",
    "lvm",
    "nvme",
    "pki",
    "selinux",
    "ssl",
];

/// Go's `filepath.Clean` of a relative path without a leading `/`.
fn clean_relative(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    if parts.is_empty() { ".".into() } else { parts.join("/") }
}

/// Go's `filepath.IsLocal` on Unix: relative, non-empty, and not escaping upward once cleaned.
fn is_local(path: &str) -> bool {
    if path.is_empty() || path.starts_with('/') {
        return false;
    }
    let cleaned = if path.split('/').any(|p| p == "." || p == "..") { clean_relative(path) } else { path.into() };
    cleaned != ".." && !cleaned.starts_with("../")
}

impl EtcFileConfig {
    fn check(&self) -> Result<(), Issue> {
        let name = &self.name;
        if name.is_empty() {
            return Err(err("user etc file name cannot be empty", "name"));
        }
        if !is_local(name) || name.starts_with('.') {
            return Err(err(format!("user etc file {} must be a local path", quote(name)), "name"));
        }
        let managed = MANAGED_ETC_FILES.contains(&name.as_str())
            || MANAGED_ETC_DIRS.iter().any(|d| name == d || name.strip_prefix(d).is_some_and(|r| r.starts_with('/')));
        if managed {
            return Err(err(format!("user etc file {} is managed by Talos", quote(name)), "name"));
        }
        Ok(())
    }
}

impl Validate for EtcFileConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        first(self.check())
    }
}

impl Validate for KernelModuleConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        first(if self.name.is_empty() { Err(err("name is required", "name")) } else { Ok(()) })
    }
}

impl Validate for SecurityProfileConfig {}

impl Validate for UdevRulesConfig {}

/// An error for an empty parameter key (a map holds at most one).
fn empty_key(params: &std::collections::BTreeMap<String, String>, text: &str) -> Findings {
    errors(params.contains_key("").then(|| err(text, "params")).into_iter().collect())
}

impl Validate for SysctlConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        empty_key(&self.params, "sysctl key cannot be empty")
    }
}

impl Validate for SysfsConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        empty_key(&self.params, "sysfs key cannot be empty")
    }
}

/// A required selector, compiled in `env`. Upstream says `volumeSelector` whichever field
/// holds it.
fn selector(expr: &CelExpression, env: &crate::cel::Declarations<'_>, path: &str, cx: &Context<'_>) -> Option<Issue> {
    if expr.0.is_empty() {
        return Some(err("provisioning.volumeSelector.match is required", path));
    }
    crate::cel::check(&expr.0, env, cx.release).map(|e| err(format!("provisioning.volumeSelector.match: {e}"), path))
}

impl Validate for UnattendedInstallConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        let mut warnings = Vec::new();
        if self.installer.image.is_empty() {
            warnings.push(err(
                "installer.image is not set, if Talos is not booted from asset built by Image Factory, installation will fail",
                "installer.image",
            ));
        }
        let errors =
            selector(&self.provisioning.disk_selector.r#match, &DISK_LOCATOR, "provisioning.diskSelector.match", cx);
        Findings { errors: errors.into_iter().collect(), warnings }
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        let present = crate::validate::legacy(cx).and_then(|c| c.machine.as_ref()).is_some_and(|m| m.install.is_some());
        if present {
            vec![err(
                "UnattendedInstallConfig config is incompatible with v1alpha1 config (.machine.install)",
                "machine.install",
            )]
        } else {
            Vec::new()
        }
    }
}

/// The name rules of the storage kinds: required, at most `max` bytes, a restricted charset.
fn storage_name(name: &str, max: usize, out: &mut Vec<Issue>) {
    if name.is_empty() {
        out.push(err("name is required", "name"));
    }
    if name.is_empty() || name.len() > max {
        out.push(err(format!("name must be between 1 and {max} characters long"), "name"));
    }
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
        out.push(err("name can only contain ASCII letters, digits, hyphens and underscores", "name"));
    }
}

impl Validate for LvmVolumeGroupConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        storage_name(&self.name, 63, &mut out);
        let expr = &self.provisioning.volume_selector.r#match;
        out.extend(selector(expr, &VOLUME_LOCATOR, "provisioning.volumeSelector.match", cx));
        errors(out)
    }
}

impl Validate for RaidArrayConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        storage_name(&self.name, 32, &mut out);
        let expr = &self.provisioning.volume_selector.r#match;
        out.extend(selector(expr, &VOLUME_LOCATOR, "provisioning.volumeSelector.match", cx));
        errors(out)
    }
}

/// `Size.IsZero`, `IsNegative`, `IsRelative` and `Value` of a logical volume's size.
struct SizeFacts {
    zero: bool,
    negative: bool,
    relative: bool,
    bytes: f64,
}

fn size_facts(s: &Size) -> SizeFacts {
    let pct_raw = s.percentage.as_ref().and_then(|p| p.raw.as_deref());
    let bytes = s.bytes.as_ref().and_then(byte_size);
    SizeFacts {
        zero: pct_raw.is_none() && bytes.is_none(),
        negative: match (&s.bytes, pct_raw) {
            (Some(_), _) => bytes.is_some_and(|(_, neg)| neg),
            (None, Some(p)) => p.starts_with('-'),
            (None, None) => false,
        },
        relative: pct_raw.is_some(),
        bytes: bytes.map_or(0.0, |(v, _)| v),
    }
}

impl LvmLogicalVolumeConfig {
    /// The mirror and stripe counts against the volume type.
    fn layout(&self, out: &mut Vec<Issue>) {
        let kind = self.r#type.text();
        let mirrors_ok = matches!(kind.as_str(), "raid1" | "raid10");
        let stripes_ok = matches!(kind.as_str(), "raid0" | "raid10");
        if let Some(m) = self.mirrors {
            if !mirrors_ok {
                out.push(err(format!("mirrors is only valid for raid1/raid10, not {kind}"), "mirrors"));
            } else if m < 1 {
                out.push(err("mirrors must be at least 1", "mirrors"));
            }
        }
        if let Some(s) = self.stripes {
            if !stripes_ok {
                out.push(err(format!("stripes is only valid for raid0/raid10, not {kind}"), "stripes"));
            } else if s < 2 {
                out.push(err("stripes must be at least 2", "stripes"));
            }
        }
    }

    /// The volume group and sizes.
    fn sizes(&self, out: &mut Vec<Issue>) {
        let p = &self.provisioning;
        if p.volume_group.is_empty() {
            out.push(err("provisioning.volumeGroup is required", "provisioning.volumeGroup"));
        }
        let max = size_facts(&p.max_size);
        if max.zero {
            out.push(err("provisioning.maxSize is required", "provisioning.maxSize"));
        }
        if max.negative {
            out.push(err("provisioning.maxSize must not be negative", "provisioning.maxSize"));
        }
        let min = byte_size(&p.min_size).map_or(0.0, |(v, _)| v);
        if p.min_size.raw.is_some() && !max.relative && min > max.bytes {
            out.push(err("provisioning.minSize must not exceed provisioning.maxSize", "provisioning.minSize"));
        }
    }
}

impl Validate for LvmLogicalVolumeConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        storage_name(&self.name, 63, &mut out);
        self.layout(&mut out);
        self.sizes(&mut out);
        errors(out)
    }
}
