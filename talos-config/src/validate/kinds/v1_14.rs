//! Block, cluster, CRI, runtime and storage kinds new in v1.14.

use super::{err, errors, first};
use crate::gofmt::{base64_decode, quote};
use crate::model::block::{FilesystemScrubConfig, FilesystemTrimConfig, ScrubConfig, TrimConfig};
use crate::model::cluster::{DiscoveryIdentityConfig, DiscoveryServiceConfig};
use crate::model::cri::{CriBaseRuntimeSpecConfig, CriCustomizationConfig, ImageCacheConfig};
use crate::validate::{Context, Findings, Issue, Validate};

/// Upstream's smallest scrub interval, ten seconds.
const MIN_SCRUB_NANOS: i64 = 10_000_000_000;

/// `TrimConfig.Validate` of a volume (`trim`).
pub(super) fn trim(t: &TrimConfig, out: &mut Vec<Issue>) {
    if t.interval.nanos < 0 {
        out.push(err("trim interval cannot be negative", "trim.interval"));
    }
}

/// `ScrubConfig.Validate` of a volume (`scrub`), and the scrub document's own check.
pub(super) fn scrub_interval(nanos: i64, path: &str) -> Option<Issue> {
    (nanos != 0 && nanos < MIN_SCRUB_NANOS).then(|| err("scrub interval: minimum value is 10s", path))
}

/// `ScrubConfig.Validate` of a volume (`scrub`).
pub(super) fn scrub(s: &ScrubConfig, out: &mut Vec<Issue>) {
    out.extend(scrub_interval(s.interval.nanos, "scrub.interval"));
}

impl Validate for FilesystemTrimConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let negative = (self.interval.nanos < 0).then(|| err("interval cannot be negative", "interval"));
        errors(negative.into_iter().collect())
    }
}

impl Validate for FilesystemScrubConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        errors(scrub_interval(self.interval.nanos, "interval").into_iter().collect())
    }
}

impl DiscoveryServiceConfig {
    fn check(&self) -> Result<(), Issue> {
        if self.name.is_empty() {
            return Err(err("name is required", "name"));
        }
        let Some(url) = &self.endpoint.0 else {
            return Err(err("endpoint is required", "endpoint"));
        };
        if url.scheme.is_empty() {
            return Err(err("endpoint scheme is required", "endpoint"));
        }
        if !matches!(url.scheme.as_slice(), b"http" | b"https" | b"grpc") {
            return Err(err("endpoint scheme must be http://, https:// or grpc://", "endpoint"));
        }
        if url.hostname().is_empty() {
            return Err(err("endpoint host is required", "endpoint"));
        }
        Ok(())
    }
}

impl Validate for DiscoveryServiceConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        first(self.check())
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        let present =
            crate::validate::legacy(cx).and_then(|c| c.cluster.as_ref()).is_some_and(|c| c.discovery.is_some());
        conflict(
            present,
            "discovery service is already configured in .cluster.discovery of the v1alpha1 config",
            "cluster.discovery",
        )
    }
}

/// A conflict rule's one finding, when the v1alpha1 document has the setting.
fn conflict(present: bool, text: &str, path: &str) -> Vec<Issue> {
    if present { vec![err(text, path)] } else { Vec::new() }
}

/// The cluster secret's size in bytes (an AES-256 key).
const CLUSTER_SECRET_SIZE: usize = 32;

impl DiscoveryIdentityConfig {
    fn check(&self) -> Result<(), Issue> {
        if self.cluster_id.is_empty() {
            return Err(err("clusterID is required", "clusterID"));
        }
        let secret = &self.cluster_secret;
        if secret.is_empty() {
            return Err(err("clusterSecret is required", "clusterSecret"));
        }
        let problem = match base64_decode(secret) {
            Err(e) => format!("failed to decode from base64: {secret}; {e}"),
            Ok(bytes) if bytes.len() != CLUSTER_SECRET_SIZE => {
                format!("expected {CLUSTER_SECRET_SIZE} bytes, got {}: {secret}", bytes.len())
            }
            Ok(_) => return Ok(()),
        };
        Err(err(format!("invalid clusterSecret: {problem}"), "clusterSecret"))
    }
}

impl Validate for DiscoveryIdentityConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        first(self.check())
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        let present = crate::validate::legacy(cx)
            .and_then(|c| c.cluster.as_ref())
            .is_some_and(|c| !c.id.is_empty() || !c.secret.is_empty());
        conflict(
            present,
            "cluster identity is already configured in .cluster.id/.cluster.secret of the v1alpha1 config",
            "cluster.id",
        )
    }
}

impl Validate for CriBaseRuntimeSpecConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        let object = self.overrides.0.as_ref().and_then(|u| u.object.as_ref());
        let problem = object.and_then(|o| crate::validate::oci_spec::first_error(o, cx.release));
        errors(problem.map(|(text, key)| err(text, &format!("overrides.{key}"))).into_iter().collect())
    }

    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        let present = crate::validate::legacy(cx)
            .and_then(|c| c.machine.as_ref())
            .is_some_and(|m| m.base_runtime_spec_overrides.object.is_some());
        conflict(
            present,
            "base runtime spec overrides are already set in v1alpha1 config",
            "machine.baseRuntimeSpecOverrides",
        )
    }
}

/// The name under which the legacy CRI customization file is merged.
const LEGACY_CRI_CUSTOMIZATION: &str = "customization";

impl Validate for CriCustomizationConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if let Err(e) = crate::labels::validate_qualified_name(&self.name) {
            out.push(err(format!("invalid name: {e}"), "name"));
        }
        if self.name == LEGACY_CRI_CUSTOMIZATION {
            out.push(err(format!("name {} is reserved for the legacy CRI customization", quote(&self.name)), "name"));
        }
        errors(out)
    }
}

impl Validate for ImageCacheConfig {
    fn conflicts(&self, cx: &Context<'_>) -> Vec<Issue> {
        let present = crate::validate::legacy(cx)
            .and_then(|c| c.machine.as_ref())
            .and_then(|m| m.features.as_ref())
            .is_some_and(|f| f.image_cache.is_some());
        conflict(present, "image cache config is already set in v1alpha1 config", "machine.features.imageCache")
    }
}
