//! Block kinds.

use super::{err, errors};
use crate::model::block::*;
use crate::validate::{Context, Findings, Issue, Validate};

/// Talos's `celenv.DiskLocator` environment (v1.12.11 and v1.13.9): the disk, whether it is
/// the system disk, the size constants, and `glob`.
pub(super) const DISK_LOCATOR: crate::cel::Declarations<'static> = crate::cel::Declarations {
    variables: &["disk", "system_disk"],
    functions: &["glob"],
    size_units: true,
    optional_types: false,
};

/// Talos's `celenv.VolumeLocator` environment (v1.12.11 and v1.13.9): the volume, its disk and
/// the size constants.
pub(super) const VOLUME_LOCATOR: crate::cel::Declarations<'static> = crate::cel::Declarations {
    variables: &["volume", "disk"],
    functions: &[],
    size_units: true,
    optional_types: false,
};

/// A byte size's magnitude and sign (`block.ByteSize`).
pub(super) fn byte_size(b: &ByteSize) -> Option<(f64, bool)> {
    let raw = b.raw.as_deref()?;
    let magnitude = crate::model::block::types::parse_bytes(raw).ok()?;
    Some((magnitude.floor(), raw.starts_with('-')))
}

fn provisioning_is_zero(p: &ProvisioningSpec) -> bool {
    p.grow.is_none()
        && p.min_size.raw.is_none()
        && p.max_size.bytes.is_none()
        && p.max_size.percentage.is_none()
        && p.disk_selector.r#match.0.is_empty()
}

/// `ProvisioningSpec.Validate(required, sizeSupported)`.
fn provisioning(p: &ProvisioningSpec, required: bool, size_supported: bool, cx: &Context<'_>, out: &mut Vec<Issue>) {
    let expr = &p.disk_selector.r#match.0;
    if !expr.is_empty() {
        if let Some(e) = crate::cel::check(expr, &DISK_LOCATOR, cx.release) {
            out.push(err(format!("disk selector is invalid: {e}"), "provisioning.diskSelector.match"));
        }
    } else if required {
        out.push(err("disk selector is required", "provisioning.diskSelector.match"));
    }
    let min_zero = p.min_size.raw.is_none();
    let max_zero = p.max_size.bytes.is_none() && p.max_size.percentage.is_none();
    let min = byte_size(&p.min_size);
    if size_supported {
        let max_abs = match (&p.max_size.bytes, &p.max_size.percentage) {
            (Some(b), _) => byte_size(b).filter(|(_, neg)| !neg),
            _ => None,
        };
        if !min_zero && !max_zero && max_abs.is_some() {
            if let (Some((lo, _)), Some((hi, _))) = (min, max_abs)
                && lo > hi
            {
                out.push(err("min size is greater than max size", "provisioning.minSize"));
            }
        } else if required && min_zero && max_zero {
            out.push(err("min size or max size is required", "provisioning"));
        }
        if min.is_some_and(|(_, neg)| neg) {
            out.push(err("min size cannot be negative", "provisioning.minSize"));
        }
    } else if !min_zero || !max_zero || p.grow.is_some() {
        out.push(err("min size, max size and grow are not supported", "provisioning"));
    }
}

/// `EncryptionSpec.IsZero`: no provider and no keys (a cipher or key size alone counts as
/// zero).
fn encryption_is_zero(e: &EncryptionSpec) -> bool {
    e.provider.0 == 0 && e.keys.is_empty()
}

/// `EncryptionSpec.Validate`.
fn encryption(e: &EncryptionSpec, out: &mut Vec<Issue>) {
    if e.provider.0 == 0 && e.keys.is_empty() {
        return;
    }
    if e.provider.0 != 1 {
        out.push(err(format!("unsupported encryption provider: {}", e.provider.text()), "encryption.provider"));
    }
    if e.keys.is_empty() {
        out.push(err("encryption keys are required", "encryption.keys"));
    }
    let mut slots: Vec<i64> = Vec::new();
    for (i, key) in e.keys.iter().enumerate() {
        let path = format!("encryption.keys[{i}]");
        if slots.contains(&key.slot) {
            out.push(err(format!("duplicate key slot {}", key.slot), &format!("{path}.slot")));
        }
        slots.push(key.slot);
        if key.r#static.is_none() && key.node_id.is_none() && key.kms.is_none() && key.tpm.is_none() {
            out.push(err(format!("at least one encryption key type must be specified for slot {}", key.slot), &path));
        }
        if let Some(opts) = key.tpm.as_ref().and_then(|t| t.options.as_ref()) {
            for pcr in &opts.pcrs {
                if !(0..=23).contains(pcr) {
                    out.push(err(format!("TPM PCR {pcr} is out of range (0-23)"), &format!("{path}.tpm.options.pcrs")));
                }
            }
        }
    }
}

/// User/raw/swap/external volume name rules.
fn volume_name(name: &str, out: &mut Vec<Issue>) {
    if name.is_empty() {
        out.push(err("name is required", "name"));
    }
    if name.is_empty() || name.len() > 34 {
        out.push(err("name must be between 1 and 34 characters long", "name"));
    }
    name_charset(name, out);
}

fn name_charset(name: &str, out: &mut Vec<Issue>) {
    if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        out.push(err("name can only contain lowercase and uppercase ASCII letters, digits, and hyphens", "name"));
    }
}

const SYSTEM_VOLUMES: [&str; 3] = ["STATE", "EPHEMERAL", "IMAGECACHE"];

/// v1.14 adds the volumes that default to directories under EPHEMERAL.
const SYSTEM_VOLUMES_V1_14: [&str; 7] = ["STATE", "EPHEMERAL", "IMAGECACHE", "ETCD", "CRI", "KUBELET", "LOG"];

/// The system volume names `release` accepts, as Go's `%q` prints the list.
fn system_volumes(release: crate::Release) -> &'static [&'static str] {
    if release >= crate::Release::V1_14_0_RC1 { &SYSTEM_VOLUMES_V1_14 } else { &SYSTEM_VOLUMES }
}

impl VolumeConfig {
    /// v1.14's per-volume limits on `mount` and `filesystem`.
    fn constraints_v1_14(&self, out: &mut Vec<Issue>) {
        let name = crate::gofmt::quote(&self.name);
        let mount_set = self.mount != VolumeMountSpec::default();
        match self.name.as_str() {
            "STATE" | "IMAGECACHE" if mount_set => {
                out.push(err(format!("mount config is not allowed for the {name} volume"), "mount"));
            }
            "ETCD" | "CRI" | "KUBELET" | "LOG" if mount_set && provisioning_is_zero(&self.provisioning) => {
                let text = format!(
                    "mount config for the {name} volume is only supported when it is provisioned onto a dedicated partition"
                );
                out.push(err(text, "mount"));
            }
            _ => {}
        }
        if self.name == "IMAGECACHE" && self.filesystem != SystemVolumeFilesystemSpec::default() {
            out.push(err(format!("filesystem config is not allowed for the {name} volume"), "filesystem"));
        }
    }

    /// The trim and scrub settings (v1.14).
    fn maintenance(trim: Option<&TrimConfig>, scrub: Option<&ScrubConfig>, out: &mut Vec<Issue>) {
        if let Some(t) = trim {
            super::v1_14::trim(t, out);
        }
        if let Some(s) = scrub {
            super::v1_14::scrub(s, out);
        }
    }
}

impl Validate for VolumeConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        let names = system_volumes(cx.release);
        if !names.contains(&self.name.as_str()) {
            let list: Vec<String> = names.iter().map(|n| crate::gofmt::quote(n)).collect();
            return errors(vec![err(format!("only [{}] volumes are supported", list.join(" ")), "name")]);
        }
        let mut out = Vec::new();
        if self.name == "STATE" {
            if !provisioning_is_zero(&self.provisioning) {
                out.push(err(r#"provisioning config is not allowed for the "STATE" volume"#, "provisioning"));
            }
            for (i, key) in self.encryption.keys.iter().enumerate() {
                if key.lock_to_state.unwrap_or(false) {
                    out.push(err(
                        r#"state-locked key is not allowed for the "STATE" volume"#,
                        &format!("encryption.keys[{i}].lockToState"),
                    ));
                }
            }
        }
        if cx.release >= crate::Release::V1_14_0_RC1 {
            self.constraints_v1_14(&mut out);
        }
        provisioning(&self.provisioning, false, true, cx, &mut out);
        encryption(&self.encryption, &mut out);
        VolumeConfig::maintenance(self.trim.as_ref(), self.scrub.as_ref(), &mut out);
        errors(out)
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        if self.encryption.provider.0 == 0 {
            return Vec::new();
        }
        let sde = crate::validate::legacy(cx)
            .and_then(|c| c.machine.as_ref())
            .and_then(|m| m.system_disk_encryption.as_ref());
        let legacy = match self.name.as_str() {
            "STATE" => sde.and_then(|s| s.state.as_ref()),
            "EPHEMERAL" => sde.and_then(|s| s.ephemeral.as_ref()),
            _ => None,
        };
        match legacy {
            Some(_) => vec![err(
                format!(
                    "system disk encryption for {} is configured in both v1alpha1.Config and VolumeConfig",
                    crate::gofmt::quote(&self.name)
                ),
                "machine.systemDiskEncryption",
            )],
            None => Vec::new(),
        }
    }
}

impl Validate for UserVolumeConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        volume_name(&self.name, &mut out);
        let vtype = self.volume_type.unwrap_or_default();
        match vtype.0 {
            // partition
            0 | 1 => {
                provisioning(&self.provisioning, true, vtype.0 == 0, cx, &mut out);
                filesystem(&self.filesystem, cx.release, &mut out);
                encryption(&self.encryption, &mut out);
            }
            // directory
            3 => {
                if !provisioning_is_zero(&self.provisioning) {
                    out.push(err("provisioning spec is invalid for volumeType directory", "provisioning"));
                }
                if !encryption_is_zero(&self.encryption) {
                    out.push(err("encryption spec is invalid for volumeType directory", "encryption"));
                }
                if self.filesystem != FilesystemSpec::default() {
                    out.push(err("filesystem spec is invalid for volumeType directory", "filesystem"));
                }
                if self.mount != UserMountSpec::default() {
                    out.push(err("mount spec is invalid for volumeType directory", "mount"));
                }
            }
            _ => out.push(err(
                format!("unsupported volume type {}", crate::gofmt::quote(&vtype.text_for(cx.release))),
                "volumeType",
            )),
        }
        VolumeConfig::maintenance(self.trim.as_ref(), self.scrub.as_ref(), &mut out);
        errors(out)
    }
}

/// `FilesystemSpec.Validate` (first problem only): none (defaults to xfs), xfs and ext4.
fn filesystem(f: &FilesystemSpec, release: crate::Release, out: &mut Vec<Issue>) {
    // FilesystemType: none = 0, xfs = 1, ext4 = 3, btrfs = 7 (v1.14, the only release naming it).
    if !matches!(f.r#type.0, 0 | 1 | 3 | 7) {
        out.push(err(format!("unsupported filesystem type: {}", f.r#type.text_for(release)), "filesystem.type"));
        return;
    }
    let effective_xfs = matches!(f.r#type.0, 0 | 1);
    if f.project_quota_support.unwrap_or(false) && !effective_xfs {
        out.push(err("project quota support is only available for xfs filesystem", "filesystem.projectQuotaSupport"));
        return;
    }
    if f.xfs.is_some() && !effective_xfs {
        out.push(err("xfs options are only available for xfs filesystem", "filesystem.xfs"));
    }
}

/// Raw and swap volumes share their checks: name, required provisioning, encryption.
macro_rules! raw_volume_checks {
    ($($kind:ty),*) => {$(
        impl Validate for $kind {
            fn validate(&self, cx: &Context<'_>) -> Findings {
                let mut out = Vec::new();
                volume_name(&self.name, &mut out);
                provisioning(&self.provisioning, true, true, cx, &mut out);
                encryption(&self.encryption, &mut out);
                errors(out)
            }
        }
    )*};
}

raw_volume_checks!(RawVolumeConfig, SwapVolumeConfig);

impl Validate for ExistingVolumeConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.name.is_empty() {
            out.push(err("name is required", "name"));
        }
        name_charset(&self.name, &mut out);
        let expr = &self.discovery.volume_selector.r#match.0;
        if expr.is_empty() {
            out.push(err("volume selector is required", "discovery.volumeSelector.match"));
        } else if let Some(e) = crate::cel::check(expr, &VOLUME_LOCATOR, cx.release) {
            out.push(err(format!("volume selector is invalid: {e}"), "discovery.volumeSelector.match"));
        }
        VolumeConfig::maintenance(self.trim.as_ref(), self.scrub.as_ref(), &mut out);
        errors(out)
    }
}

impl Validate for ExternalVolumeConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        volume_name(&self.name, &mut out);
        // FilesystemType virtiofs = 6.
        if self.filesystem_type.0 == 6 {
            match &self.mount.virtiofs {
                None => out.push(err("virtiofs mount spec is required", "mount.virtiofs")),
                Some(v) if v.tag.is_empty() => out.push(err("virtiofs tag is required", "mount.virtiofs.tag")),
                Some(_) => {}
            }
        } else {
            out.push(err(format!("invalid filesystem type: {}", self.filesystem_type.text()), "filesystemType"));
        }
        errors(out)
    }
}

impl Validate for ZswapConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.max_pool_percent.is_some_and(|p| !(0..=100).contains(&p)) {
            out.push(err("maxPoolPercent must be between 0 and 100", "maxPoolPercent"));
        }
        errors(out)
    }
}
