//! The Talos release whose behaviour the engine reproduces, chosen per call (docs/versions.md).

use std::fmt;
use std::str::FromStr;

/// A Talos release the engine answers as: loading, patching, encoding, validation, the schema,
/// generation and lint follow that release's own code, text for text.
///
/// The default is [`Release::V1_13_9`]. A release is named as Talos tags it (`v1.12.11`), with
/// or without the `v`; a minor version alone (`v1.12`, `1.12`) picks the newest patch release
/// of that line the engine supports.
///
/// ```
/// use talos_config::Release;
/// assert_eq!("v1.12".parse::<Release>(), Ok(Release::V1_12_11));
/// assert_eq!("1.13.9".parse::<Release>(), Ok(Release::V1_13_9));
/// assert_eq!(Release::default(), Release::V1_13_9);
/// assert_eq!(Release::V1_12_11.to_string(), "v1.12.11");
/// assert!(Release::V1_12_11 < Release::V1_13_9);
/// assert_eq!("v1.14".parse::<Release>(), Ok(Release::V1_14_0_RC1));
/// assert_eq!(
///     "v1.11".parse::<Release>().unwrap_err().to_string(),
///     "unknown Talos release \"v1.11\": supported releases are v1.12.11, v1.13.9 and v1.14.0-rc.1 (v1.12, v1.13 and v1.14 name them too)"
/// );
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Release {
    /// Talos v1.12.11, the v1.12 line's newest release here.
    V1_12_11,
    /// Talos v1.13.9, the default.
    #[default]
    V1_13_9,
    /// Talos v1.14.0-rc.1, the first release candidate of v1.14.
    #[allow(non_camel_case_types)] // named as Talos tags it, like the others
    V1_14_0_RC1,
}

impl Release {
    /// Every supported release, oldest first.
    pub const ALL: &'static [Release] = &[Release::V1_12_11, Release::V1_13_9, Release::V1_14_0_RC1];

    /// The release used when none is named.
    pub const DEFAULT: Release = Release::V1_13_9;

    /// The oldest supported release: what a kind or field exists since when it says nothing.
    pub(crate) const OLDEST: Release = Release::V1_12_11;

    /// The release's tag, `v1.13.9`.
    pub const fn tag(self) -> &'static str {
        match self {
            Release::V1_12_11 => "v1.12.11",
            Release::V1_13_9 => "v1.13.9",
            Release::V1_14_0_RC1 => "v1.14.0-rc.1",
        }
    }

    /// The tag without its `v` (`1.13.9`), as Talos's own texts print it.
    pub(crate) fn number(self) -> &'static str {
        &self.tag()[1..]
    }

    /// The `major.minor` line (`v1.13`).
    pub fn line(self) -> &'static str {
        match self {
            Release::V1_12_11 => "v1.12",
            Release::V1_13_9 => "v1.13",
            Release::V1_14_0_RC1 => "v1.14",
        }
    }

    /// The supported release of the line a node's version tag belongs to (`v1.12.5` and
    /// `v1.12.11-dirty` are answered as v1.12.11); `None` for a line the engine does not support.
    ///
    /// ```
    /// use talos_config::Release;
    /// assert_eq!(Release::of_line("v1.12.5"), Some(Release::V1_12_11));
    /// assert_eq!(Release::of_line("v1.13.9"), Some(Release::V1_13_9));
    /// assert_eq!(Release::of_line("v1.11.3"), None);
    /// ```
    pub fn of_line(tag: &str) -> Option<Release> {
        let bare = tag.trim().strip_prefix('v').unwrap_or(tag.trim());
        let mut parts = bare.split(['.', '-', '+']);
        let line = format!("v{}.{}", parts.next()?, parts.next()?);
        Release::ALL.iter().copied().find(|r| r.line() == line)
    }

    /// The go-yaml v4 release the Talos release pins, which words YAML errors its own way.
    pub(crate) fn yaml(self) -> crate::yaml::Dialect {
        match self {
            Release::V1_12_11 => crate::yaml::Dialect::V4Rc3,
            Release::V1_13_9 => crate::yaml::Dialect::V4Rc4,
            Release::V1_14_0_RC1 => crate::yaml::Dialect::V4Rc6,
        }
    }
}

/// Go types v1.14 moved into package `meta`, by the name they had before.
const MOVED_TO_META: &[(&str, &str)] = &[
    ("v1alpha1.Args", "meta.Args"),
    ("v1alpha1.ArgValue", "meta.ArgValue"),
    ("v1alpha1.Unstructured", "meta.Unstructured"),
    ("network.Prefix", "meta.Prefix"),
    ("network.Addr", "meta.Addr"),
    ("network.AddrPort", "meta.AddrPort"),
];

impl Release {
    /// A Go type name as the release's own code prints it in decode errors (`[]v1alpha1.Args`
    /// is `[]meta.Args` from v1.14): the model names each type as it was before v1.14.
    pub(crate) fn go_type_name(self, name: &str) -> std::borrow::Cow<'_, str> {
        if self < Release::V1_14_0_RC1 || !name.contains('.') {
            return std::borrow::Cow::Borrowed(name);
        }
        let mut out = String::with_capacity(name.len());
        let mut rest = name;
        while !rest.is_empty() {
            let at_token_start = !out.chars().last().is_some_and(|c| c.is_alphanumeric() || c == '.');
            let moved = MOVED_TO_META
                .iter()
                .filter(|(old, _)| at_token_start && rest.starts_with(old))
                .find(|(old, _)| !rest[old.len()..].chars().next().is_some_and(|c| c.is_alphanumeric()));
            match moved {
                Some((old, new)) => {
                    out.push_str(new);
                    rest = &rest[old.len()..];
                }
                None => {
                    let c = rest.chars().next().unwrap_or_default();
                    out.push(c);
                    rest = &rest[c.len_utf8()..];
                }
            }
        }
        std::borrow::Cow::Owned(out)
    }
}

/// What varies between releases beyond their kinds and fields: one row per release
/// (docs/versions.md says where each is used).
#[derive(Debug)]
pub(crate) struct Rules {
    /// `role.All`: the roles `kubernetesTalosAPIAccess.allowedRoles` may name.
    pub talos_roles: &'static [&'static str],
    /// The warning for `.machine.install.extensions`.
    pub extensions_deprecated: &'static str,
    /// v1.13: `hostDNS.forwardKubeDNSToHost` needs `hostDNS.enabled` in every mode.
    pub forward_kube_dns_needs_host_dns: bool,
    /// v1.13: a `LinkAliasConfig` name may hold `%` only as a `%d` suffix.
    pub link_alias_format_verb: bool,
    /// v1.13: volume sizes may be negative (`-10GB`, `-10%`: all but that much).
    pub negative_sizes: bool,
    /// `RuntimeValidate`'s Kubernetes window: the oldest supported version and the first one
    /// too new (`MinimumKubernetesVersion`, `MaximumKubernetesVersion`).
    pub kubernetes_window: ((u64, u64, u64), (u64, u64, u64)),
    /// `constants.DefaultKubernetesVersion`.
    pub default_kubernetes: &'static str,
    /// The installer image `talosctl gen config` defaults to (`TAG` unset).
    pub default_installer_image: &'static str,
    /// v1.12: `gen config` takes `-p/--persist` (`generate.WithPersist`); v1.13 always writes
    /// `persist: true`.
    pub gen_persist: bool,
    /// v1.13: generated configs of contracts above v1.12 carry KubeSpan as a `KubeSpanConfig`
    /// document and no `machine.network`; v1.12 always writes `machine.network`, KubeSpan in it.
    pub gen_kubespan_document: bool,
    /// The newest version contract the release's `gen config` knows: a newer one, and the
    /// current one, generate as this one. From (1, 14): `v0.0` is the current contract, etcd
    /// and Kubernetes may be left out, a Kubernetes version is required, a `--with-secrets`
    /// bundle is checked against the contract.
    pub gen_contract: (u64, u64),
    /// v1.14: a strategic patch is loaded without the container's checks (a kind and name may
    /// repeat, two v1alpha1 documents are allowed: `WithNoValidation`), and applying it indexes
    /// every document it appends, so a repeat merges into it, and skips a `$patch: delete` whose
    /// document is absent (v1.13 appended the selector).
    pub unvalidated_patches: bool,
    /// v1.14 moves checks that read several documents out of the v1alpha1 document into a
    /// pass over the whole config (`container/validate.go`: host DNS in container mode, KubeSpan
    /// needs discovery, discovery needs an identity, etcd encryption, control-plane-only
    /// kinds), no longer requires `.machine.install` or `.cluster.controlPlane`, and warns about
    /// `.machine.files` and `.machine.baseRuntimeSpecOverrides`.
    pub container_validation: bool,
    /// The OCI runtime spec base runtime spec overrides are decoded into.
    pub runtime_spec: RuntimeSpec,
    /// cel-go v0.28 on (Talos v1.14): a quoted field name (`` disk.`dev_path` ``) is accepted.
    pub cel_ident_escapes: bool,
    /// cel-go v0.31 on (Talos v1.14): `optMap`/`optFlatMap` take a target that is not a plain
    /// name once (before, the checker saw it twice).
    pub cel_macro_target_once: bool,
}

/// The version of github.com/opencontainers/runtime-spec a release pins.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum RuntimeSpec {
    /// Talos v1.12.
    V1_2_1,
    /// Talos v1.13 and v1.14.
    V1_3_0,
}

const V1_12_RULES: Rules = Rules {
    talos_roles: &["os:admin", "os:operator", "os:reader", "os:etcd:backup", "os:impersonator"],
    extensions_deprecated: ".machine.install.extensions is deprecated, please see https://www.talos.dev/latest/talos-guides/install/boot-assets/",
    forward_kube_dns_needs_host_dns: false,
    link_alias_format_verb: false,
    negative_sizes: false,
    kubernetes_window: ((1, 30, 0), (1, 35, 99)),
    default_kubernetes: "1.35.4",
    default_installer_image: "ghcr.io/siderolabs/installer:v1.12.11",
    gen_persist: true,
    gen_kubespan_document: false,
    gen_contract: (1, 12),
    unvalidated_patches: false,
    container_validation: false,
    runtime_spec: RuntimeSpec::V1_2_1,
    cel_ident_escapes: false,
    cel_macro_target_once: false,
};

pub(crate) const V1_13_RULES: Rules = Rules {
    talos_roles: &[
        "os:admin",
        "os:operator",
        "os:reader",
        "os:etcd:backup",
        "os:image:verifier",
        "os:meta:writer",
        "os:impersonator",
    ],
    extensions_deprecated: ".machine.install.extensions is deprecated, please see https://docs.siderolabs.com/talos/latest/platform-specific-installations/boot-assets",
    forward_kube_dns_needs_host_dns: true,
    link_alias_format_verb: true,
    negative_sizes: true,
    kubernetes_window: ((1, 31, 0), (1, 36, 99)),
    default_kubernetes: "1.36.3",
    default_installer_image: "ghcr.io/siderolabs/installer:v1.13.9",
    gen_persist: false,
    gen_kubespan_document: true,
    gen_contract: (1, 13),
    unvalidated_patches: false,
    container_validation: false,
    runtime_spec: RuntimeSpec::V1_3_0,
    cel_ident_escapes: false,
    cel_macro_target_once: false,
};

const V1_14_RULES: Rules = Rules {
    kubernetes_window: ((1, 32, 0), (1, 37, 99)),
    default_kubernetes: "1.37.0-rc.0",
    default_installer_image: "factory.talos.dev/metal-installer/376567988ad370138ad8b2698212367b8edcb69b5fd68c80be1f2ec7d603b4ba:v1.14.0-rc.1",
    gen_contract: (1, 14),
    unvalidated_patches: true,
    container_validation: true,
    cel_ident_escapes: true,
    cel_macro_target_once: true,
    ..V1_13_RULES
};

impl Release {
    /// The release's row of the rules table.
    pub(crate) fn rules(self) -> &'static Rules {
        match self {
            Release::V1_12_11 => &V1_12_RULES,
            Release::V1_13_9 => &V1_13_RULES,
            Release::V1_14_0_RC1 => &V1_14_RULES,
        }
    }
}

impl fmt::Display for Release {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

impl FromStr for Release {
    type Err = UnknownRelease;

    fn from_str(text: &str) -> Result<Release, UnknownRelease> {
        let bare = text.trim().strip_prefix('v').unwrap_or(text.trim());
        Release::ALL
            .iter()
            .copied()
            .find(|r| r.number() == bare || &r.line()[1..] == bare)
            .ok_or_else(|| UnknownRelease { text: text.to_string() })
    }
}

/// A release name the engine does not support; its text lists the ones it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRelease {
    text: String,
}

impl fmt::Display for UnknownRelease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tags: Vec<&str> = Release::ALL.iter().map(|r| r.tag()).collect();
        let lines: Vec<&str> = Release::ALL.iter().map(|r| r.line()).collect();
        write!(
            f,
            "unknown Talos release {}: supported releases are {} ({} name them too)",
            talos_go::quote(&self.text),
            english_list(&tags),
            english_list(&lines)
        )
    }
}

impl std::error::Error for UnknownRelease {}

/// `a`, `a and b`, `a, b and c`.
fn english_list(items: &[&str]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_type_names_moved_to_meta_in_v1_14() {
        let v14 = Release::V1_14_0_RC1;
        for (name, want) in [
            ("v1alpha1.Args", "meta.Args"),
            ("*network.AddrPort", "*meta.AddrPort"),
            ("[]network.Addr", "[]meta.Addr"),
            ("map[string]v1alpha1.Unstructured", "map[string]meta.Unstructured"),
            ("network.AddrFamily", "network.AddrFamily"),
            ("xnetwork.Addr", "xnetwork.Addr"),
            ("int", "int"),
        ] {
            assert_eq!(v14.go_type_name(name), want, "{name}");
            assert_eq!(Release::V1_13_9.go_type_name(name), name);
        }
    }

    #[test]
    fn names() {
        for (text, want) in [
            ("v1.12.11", Some(Release::V1_12_11)),
            ("1.12.11", Some(Release::V1_12_11)),
            ("v1.12", Some(Release::V1_12_11)),
            ("1.12", Some(Release::V1_12_11)),
            ("v1.13.9", Some(Release::V1_13_9)),
            ("v1.13", Some(Release::V1_13_9)),
            ("v1.14.0-rc.1", Some(Release::V1_14_0_RC1)),
            ("1.14.0-rc.1", Some(Release::V1_14_0_RC1)),
            ("v1.14", Some(Release::V1_14_0_RC1)),
            ("v1.14.0", None),
            ("v1.13.8", None),
            ("v1.1", None),
            ("", None),
            ("latest", None),
        ] {
            assert_eq!(text.parse::<Release>().ok(), want, "{text}");
        }
    }
}
