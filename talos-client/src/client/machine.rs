//! A node's own state over MachineService: version, services and the kubeconfig.

use std::io::Read as _;

use super::{Client, Target, machine_metadata, machine_metadata_many, request};
use crate::error::{Error, Result};
use crate::proto::machine;
use crate::reply::{in_band_error, single_reply};

/// Limit on the unpacked kubeconfig archive (a kubeconfig is a few KiB).
const MAX_KUBECONFIG: u64 = 16 << 20;

/// `talosctl version` for one node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionInfo {
    /// The node (`metadata.hostname`, else the target or endpoint).
    pub node: String,
    /// Release tag, e.g. `v1.13.10`.
    pub tag: String,
    /// Git SHA.
    pub sha: String,
    /// Build date (empty in release builds).
    pub built: String,
    /// Go version.
    pub go_version: String,
    /// OS (`linux`).
    pub os: String,
    /// Architecture (`amd64`).
    pub arch: String,
    /// Platform name (`container` in Docker).
    pub platform_name: String,
    /// Platform (runtime) mode: `container`, `metal` or `cloud`.
    pub platform_mode: String,
    /// RBAC enabled.
    pub rbac: bool,
}

/// One service event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceEvent {
    /// Event message.
    pub msg: String,
    /// State at the event.
    pub state: String,
    /// Time of the event.
    pub ts: Option<prost_types::Timestamp>,
}

/// A service as `talosctl services`/`service <id>` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceInfo {
    /// The node.
    pub node: String,
    /// Service id (`kubelet`, ...).
    pub id: String,
    /// State (`Running`, `Waiting`, ...).
    pub state: String,
    /// Health is unknown (no health check).
    pub health_unknown: bool,
    /// Healthy.
    pub healthy: bool,
    /// Last health message.
    pub last_health_message: String,
    /// Events, oldest first as Talos sends them ([`ServiceInfo::events_newest_first`] reverses).
    pub events: Vec<ServiceEvent>,
}

impl ServiceInfo {
    /// The events newest first, as `talosctl service <id>` prints them.
    pub fn events_newest_first(&self) -> Vec<ServiceEvent> {
        self.events.iter().rev().cloned().collect()
    }

    /// `?`, `OK` or `Fail`, as the HEALTH column shows.
    pub fn health_text(&self) -> &'static str {
        if self.health_unknown {
            "?"
        } else if self.healthy {
            "OK"
        } else {
            "Fail"
        }
    }
}

/// Appends a received kubeconfig chunk, refusing an archive larger than [`MAX_KUBECONFIG`].
fn append_archive(archive: &mut Vec<u8>, bytes: &[u8]) -> std::result::Result<(), String> {
    if (archive.len() as u64).saturating_add(bytes.len() as u64) > MAX_KUBECONFIG {
        return Err(format!("kubeconfig archive exceeds {MAX_KUBECONFIG} bytes"));
    }
    archive.extend_from_slice(bytes);
    Ok(())
}

/// Unpacks the kubeconfig from a gzip-compressed tar (the entry named `kubeconfig`).
pub fn extract_kubeconfig(archive: &[u8]) -> std::result::Result<Vec<u8>, String> {
    let gz = flate2::read::GzDecoder::new(archive);
    let mut tar = tar::Archive::new(gz.take(MAX_KUBECONFIG));
    let entries = tar.entries().map_err(|e| format!("invalid kubeconfig archive: {e}"))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| format!("invalid kubeconfig archive: {e}"))?;
        let path = entry.path().map_err(|e| format!("invalid kubeconfig archive: {e}"))?.into_owned();
        let name = path.to_string_lossy();
        if name.trim_start_matches("./") == "kubeconfig" {
            let mut out = Vec::new();
            entry.read_to_end(&mut out).map_err(|e| format!("invalid kubeconfig archive: {e}"))?;
            return Ok(out);
        }
    }
    Err("kubeconfig archive has no kubeconfig entry".to_string())
}

impl Client {
    /// `Version` for one target.
    pub async fn version(&self, target: &Target) -> Result<VersionInfo> {
        let fallback = self.fallback(target);
        let metadata = &machine_metadata(target)?;
        let reply = self
            .read("Version", Some(&fallback), || async move { self.machine().version(request(metadata, ())).await })
            .await?
            .into_inner();
        let (node, v) = single_reply(reply.messages, &fallback)?;
        Ok(version_info(node, v))
    }

    /// `Version` fanned out to several nodes (one `nodes` header entry each): one result per reply item.
    pub async fn version_many(&self, nodes: &[&str]) -> Result<Vec<Result<VersionInfo>>> {
        let fallback = self.endpoint.to_string();
        let metadata = &machine_metadata_many(nodes)?;
        let reply = self
            .read("Version", None, || async move { self.machine().version(request(metadata, ())).await })
            .await?
            .into_inner();
        Ok(crate::reply::split_replies(reply.messages, &fallback)
            .into_iter()
            .map(|r| r.result.map(|v| version_info(r.node, v)))
            .collect())
    }

    /// `ServiceList`: every service of the target.
    pub async fn service_list(&self, target: &Target) -> Result<Vec<ServiceInfo>> {
        let fallback = self.fallback(target);
        let metadata = &machine_metadata(target)?;
        let reply =
            self.read("ServiceList", Some(&fallback), || async move {
                self.machine().service_list(request(metadata, ())).await
            })
            .await?
            .into_inner();
        let (node, list) = single_reply(reply.messages, &fallback)?;
        Ok(list.services.into_iter().map(|s| service_info(&node, s)).collect())
    }

    /// One service (`talosctl service <id>`): ServiceList filtered by id. Use
    /// [`ServiceInfo::events_newest_first`] for talosctl's event order.
    pub async fn service(&self, target: &Target, id: &str) -> Result<ServiceInfo> {
        self.service_list(target)
            .await?
            .into_iter()
            .find(|s| s.id == id)
            .ok_or_else(|| Error::not_found(format!("service {} is not registered on any nodes", talos_go::quote(id))))
    }

    /// `Kubeconfig`: concatenates the chunks, gunzips, untars and returns the `kubeconfig` entry's bytes.
    pub async fn kubeconfig(&self, target: &Target) -> Result<Vec<u8>> {
        let fallback = self.fallback(target);
        let metadata = &machine_metadata(target)?;
        let node = fallback.as_str();
        let archive = self
            .read("Kubeconfig", Some(node), || async move {
                let mut stream = self.machine().kubeconfig(request(metadata, ())).await?.into_inner();
                let mut archive = Vec::new();
                while let Some(data) = stream.message().await? {
                    if let Some(err) = in_band_error(&data, node) {
                        return Ok(Err(err));
                    }
                    if let Err(m) = append_archive(&mut archive, &data.bytes) {
                        return Ok(Err(Error::protocol(Some(node), m)));
                    }
                }
                Ok(Ok(archive))
            })
            .await??;
        extract_kubeconfig(&archive).map_err(|m| Error::protocol(Some(node), m))
    }
}

fn version_info(node: String, v: machine::Version) -> VersionInfo {
    let info = v.version.unwrap_or_default();
    let platform = v.platform.unwrap_or_default();
    VersionInfo {
        node,
        tag: info.tag,
        sha: info.sha,
        built: info.built,
        go_version: info.go_version,
        os: info.os,
        arch: info.arch,
        platform_name: platform.name,
        platform_mode: platform.mode,
        rbac: v.features.is_some_and(|f| f.rbac),
    }
}

fn service_info(node: &str, s: machine::ServiceInfo) -> ServiceInfo {
    let health = s.health.unwrap_or_default();
    ServiceInfo {
        node: node.to_string(),
        id: s.id,
        state: s.state,
        health_unknown: health.unknown,
        healthy: health.healthy,
        last_health_message: health.last_message,
        events: s
            .events
            .unwrap_or_default()
            .events
            .into_iter()
            .map(|e| ServiceEvent { msg: e.msg, state: e.state, ts: e.ts })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubeconfig_archive_is_capped() {
        let mut archive = Vec::new();
        let chunk = vec![0u8; 1 << 20];
        for _ in 0..16 {
            append_archive(&mut archive, &chunk).unwrap();
        }
        assert_eq!(append_archive(&mut archive, b"x").unwrap_err(), "kubeconfig archive exceeds 16777216 bytes");
        assert_eq!(archive.len() as u64, MAX_KUBECONFIG);
    }

    #[test]
    fn kubeconfig_archive() {
        let mut tarball = tar::Builder::new(Vec::new());
        let body = b"apiVersion: v1\nkind: Config\n";
        let mut header = tar::Header::new_gnu();
        header.set_size(body.len() as u64);
        header.set_mode(0o600);
        header.set_cksum();
        tarball.append_data(&mut header, "kubeconfig", &body[..]).unwrap();
        let tarred = tarball.into_inner().unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, &tarred).unwrap();
        let archive = gz.finish().unwrap();
        assert_eq!(extract_kubeconfig(&archive).unwrap(), body);
        assert!(extract_kubeconfig(b"not gzip").is_err());
    }
}
