//! `ContainerConfig` (v1.14): the document's own checks. The checks across containers (unknown
//! dependencies, cycles) belong to the cross-document pass.

use super::err;
use crate::go::image_ref::{Reference, parse_reference};
use crate::gofmt::quote;
use crate::model::container::{
    ContainerConfig, ContainerDependsOn, ContainerMount, ContainerResources, ContainerRunAs, ContainerSecurity,
};
use crate::validate::{Context, Findings, Issue, Validate};

/// The longest container name.
const MAX_NAME: usize = 63;
/// Mount options a container mount accepts.
const MOUNT_OPTIONS: &[&str] = &["ro", "rw", "noexec", "nosuid", "nodev", "noatime", "rbind", "rshared"];
/// Network conditions a container may wait for.
const NETWORK_CONDITIONS: &[&str] = &["addresses", "connectivity", "hostname", "etcfiles"];

fn name(n: &str) -> Option<String> {
    if n.is_empty() {
        Some("name is required".into())
    } else if n.len() > MAX_NAME {
        Some(format!("name {} must be {MAX_NAME} characters or fewer", quote(n)))
    } else if !n.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') {
        Some(format!("name {}: name can only contain lowercase ASCII letters, digits and hyphens", quote(n)))
    } else {
        None
    }
}

/// `ValidateAbsPath`.
fn abs_path(kind: &str, path: &str) -> Option<String> {
    if path.is_empty() {
        Some(format!("{kind} is required"))
    } else if !path.starts_with('/') {
        Some(format!("{kind} {} must be an absolute path", quote(path)))
    } else {
        None
    }
}

fn mount_options(options: &[String], out: &mut Vec<String>) {
    for o in options.iter().filter(|o| !MOUNT_OPTIONS.contains(&o.as_str())) {
        out.push(format!("unsupported mount option {}", quote(o)));
    }
    if options.iter().any(|o| o == "ro") && options.iter().any(|o| o == "rw") {
        out.push("mount options ro and rw are mutually exclusive".into());
    }
}

/// `ContainerMount.Validate`: the destination and the mount's own problems.
fn mount(m: &ContainerMount) -> (String, Vec<String>) {
    let set = [m.user_volume.is_some(), m.tmpfs.is_some(), m.host_path.is_some()];
    if set.iter().filter(|s| **s).count() != 1 {
        return (String::new(), vec!["exactly one of userVolume, tmpfs or hostPath must be set".into()]);
    }
    let mut out = Vec::new();
    if let Some(u) = &m.user_volume {
        if u.name.is_empty() {
            out.push("userVolume.name is required".into());
        }
        out.extend(abs_path("userVolume.destination", &u.destination));
        mount_options(&u.options, &mut out);
        return (u.destination.clone(), out);
    }
    if let Some(t) = &m.tmpfs {
        out.extend(abs_path("tmpfs.destination", &t.destination));
        mount_options(&t.options, &mut out);
        return (t.destination.clone(), out);
    }
    let Some(h) = &m.host_path else { return (String::new(), out) };
    out.extend(abs_path("hostPath.source", &h.source));
    out.extend(abs_path("hostPath.destination", &h.destination));
    mount_options(&h.options, &mut out);
    (h.destination.clone(), out)
}

fn mounts(list: &[ContainerMount], out: &mut Vec<Issue>) {
    let mut destinations = std::collections::HashSet::new();
    for (i, m) in list.iter().enumerate() {
        let path = format!("mounts[{i}]");
        let (destination, problems) = mount(m);
        if !problems.is_empty() {
            // One joined error, prefixed once: its later lines carry no prefix.
            out.push(err(format!("mounts[{i}]: {}", problems.join("\n")), &path));
            continue;
        }
        if !destinations.insert(destination.clone()) {
            out.push(err(format!("mounts[{i}]: duplicate destination {}", quote(&destination)), &path));
        }
    }
}

/// `ValidateCapabilityName`.
fn capability_name(field: &str, c: &str) -> Option<String> {
    if c.is_empty() {
        Some(format!("{field}: capability name must not be empty"))
    } else if c.starts_with("CAP_") {
        Some(format!("{field}: capability {} must be given without the CAP_ prefix", quote(c)))
    } else if c.to_uppercase() != c {
        Some(format!("{field}: capability {} must be upper case", quote(c)))
    } else if !c.chars().all(|r| r.is_ascii_uppercase() || r == '_') {
        Some(format!("{field}: capability {} may only contain upper case letters and underscores", quote(c)))
    } else {
        None
    }
}

fn security(s: &ContainerSecurity, out: &mut Vec<Issue>) {
    let path = "security";
    if !matches!(s.profile.as_str(), "" | "restricted" | "privileged") {
        let text = format!("unsupported security profile {}, expected restricted or privileged", quote(&s.profile));
        out.push(err(text, path));
    }
    let Some(caps) = &s.capabilities else { return };
    for c in &caps.add {
        if c == "ALL" {
            out.push(err("capabilities.add does not accept ALL, use profile: privileged instead", path));
            continue;
        }
        out.extend(capability_name("capabilities.add", c).map(|t| err(t, path)));
    }
    for c in caps.drop.iter().filter(|c| *c != "ALL") {
        out.extend(capability_name("capabilities.drop", c).map(|t| err(t, path)));
    }
    for c in caps.add.iter().filter(|c| caps.drop.contains(c)) {
        out.push(err(format!("capability {} appears in both add and drop", quote(c)), path));
    }
}

/// `parseMillicores`' complaint about a CPU limit, if any.
fn millicores(value: &str) -> Option<String> {
    let Some(number) = value.strip_suffix('m') else {
        return Some(format!("limits.cpu {} must be expressed in millicores, e.g. 1500m", quote(value)));
    };
    match crate::go::errors::parse_uint(number, 64) {
        Err(e) => Some(format!("limits.cpu {} is not a valid millicore quantity: {e}", quote(value))),
        Ok(0) => Some(format!("limits.cpu {} must be greater than zero", quote(value))),
        Ok(_) => None,
    }
}

fn resources(r: &ContainerResources, out: &mut Vec<Issue>) {
    let Some(limits) = &r.limits else { return };
    if !limits.memory.is_empty()
        && let Err(e) = crate::model::block::types::humanize_parse_bytes(&limits.memory)
    {
        out.push(err(format!("limits.memory {} is not a valid size: {e}", quote(&limits.memory)), "resources"));
    }
    if !limits.cpu.is_empty() {
        out.extend(millicores(&limits.cpu).map(|t| err(t, "resources")));
    }
}

fn depends_on(d: &ContainerDependsOn, self_name: &str, out: &mut Vec<Issue>) {
    let path = "dependsOn";
    for p in &d.paths {
        out.extend(abs_path("dependsOn.paths entry", p).map(|t| err(t, path)));
    }
    for c in d.networks.iter().filter(|c| !NETWORK_CONDITIONS.contains(&c.as_str())) {
        out.push(err(format!("unsupported dependsOn.networks condition {}", quote(c)), path));
    }
    for c in &d.containers {
        if c.is_empty() {
            out.push(err("dependsOn.containers entry must not be empty", path));
        } else if c == self_name {
            out.push(err(format!("container {} cannot depend on itself", quote(self_name)), path));
        }
    }
}

fn run_as(r: &ContainerRunAs, out: &mut Vec<Issue>) {
    if let Some(uid) = r.uid.filter(|u| *u < 0) {
        out.push(err(format!("runAs.uid must be non-negative, got {uid}"), "runAs.uid"));
    }
    if let Some(gid) = r.gid.filter(|g| *g < 0) {
        out.push(err(format!("runAs.gid must be non-negative, got {gid}"), "runAs.gid"));
    }
}

impl ContainerConfig {
    /// The image's error, or the warning when it is not pinned by digest.
    fn image(&self, out: &mut Vec<Issue>, warnings: &mut Vec<Issue>) {
        let image = &self.image;
        match (image.is_empty(), parse_reference(image)) {
            (true, _) => out.push(err("image is required", "image")),
            (false, None) => out.push(err(
                format!("invalid image reference {}: could not parse reference: {image}", quote(image)),
                "image",
            )),
            (false, Some(Reference::Tag)) => warnings.push(err(
                format!(
                    "container {}: image {} is not digest-pinned, the running image may change on restart",
                    quote(&self.name),
                    quote(image)
                ),
                "image",
            )),
            (false, Some(Reference::Digest)) => {}
        }
    }
}

impl Validate for ContainerConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        let mut warnings = Vec::new();
        out.extend(name(&self.name).map(|t| err(t, "name")));
        self.image(&mut out, &mut warnings);
        for (i, env) in self.environment.iter().enumerate() {
            if !env.contains('=') {
                out.push(err(format!("environment[{i}]: {} must be in KEY=value form", quote(env)), "environment"));
            }
        }
        mounts(&self.mounts, &mut out);
        if let Some(s) = &self.security {
            security(s, &mut out);
        }
        if let Some(n) = self.network.as_ref().filter(|n| !matches!(n.mode.as_str(), "" | "none" | "host")) {
            out.push(err(
                format!("unsupported network mode {}, expected none or host", quote(&n.mode)),
                "network.mode",
            ));
        }
        if let Some(r) = &self.resources {
            resources(r, &mut out);
        }
        if let Some(d) = &self.depends_on {
            depends_on(d, &self.name, &mut out);
        }
        if let Some(r) = &self.run_as {
            run_as(r, &mut out);
        }
        Findings { errors: out, warnings }
    }
}
