//! The rule catalogue, and the rules about values Talos passes on unchecked: kubelet flags,
//! subnets, and secrets in patches (which also reads where each value came from).

use super::cx::{Cx, finding, finding_in, path};
use super::{Finding, Rule};
use crate::kubelet::{self, Flag, Suggestion};
use crate::net::{Prefix, overlaps, parse_prefix};
use crate::redact::is_secret;
use crate::{DocumentId, FieldPath, Segment, Severity, Site};
use talos_yaml::node::deep;
use talos_yaml::parse::parse_documents;
use talos_yaml::{Mark, Node, NodeValue};

/// Every rule, in the order findings are reported.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        id: "talos-validation",
        severity: Severity::Error,
        summary: "Talos's own validation error (`talosctl validate`, and the node on apply).",
        why: "The node refuses the config; the text is Talos's.",
        example: "machine:\n  nodeLabels:\n    lab.talos.dev/team name: platform\n",
        fix: "Change the value as the message says.",
    },
    Rule {
        id: "talos-warning",
        severity: Severity::Warning,
        summary: "Talos's own validation warning.",
        why: "The node accepts the config and logs the warning; `talosctl validate --strict` refuses it.",
        example: "machine:\n  install:\n    extraKernelArgs: [talos.platform=metal]\n",
        fix: "Change the value as the message says.",
    },
    Rule {
        id: "kubelet-unknown-flag",
        severity: Severity::Error,
        summary: "A `machine.kubelet.extraArgs` key kubelet v1.36 does not know, a key Talos refuses, or a deprecated flag.",
        why: "Talos passes every key on as `--key=value` without checking it. An unknown flag makes the kubelet exit at start; Talos restarts it every 5 s and the node never becomes Ready. A key on Talos's deny-list is refused by the kubelet controller, which then keeps the kubelet's previous arguments.",
        example: "machine:\n  kubelet:\n    extraArgs:\n      max-pod: \"150\"\n",
        fix: "Use the flag's exact name (`max-pods`), or set config-file fields through `machine.kubelet.extraConfig`.",
    },
    Rule {
        id: "subnet-overlap",
        severity: Severity::Error,
        summary: "Pod and service subnets overlapping each other, the node's own addresses and routes, or the ranges given with `--host-ranges`.",
        why: "Talos accepts overlapping subnets. Pods or services then shadow real addresses, and traffic to them goes to the wrong place.",
        example: "cluster:\n  network:\n    podSubnets: [10.96.0.0/16]\n",
        fix: "Pick pod and service subnets that overlap nothing else.",
    },
    Rule {
        id: "extra-args-denied",
        severity: Severity::Error,
        summary: "An `extraArgs` key of the API server, controller manager, scheduler, kube-proxy or etcd that Talos refuses.",
        why: "Talos sets these flags itself. Validation accepts the key, but the controller that renders the component fails with `extra arg \"<key>\" is not allowed` and retries forever: the component is not (re)started with the new config.",
        example: "cluster:\n  apiServer:\n    extraArgs:\n      etcd-servers: https://10.0.0.1:2379\n",
        fix: "Remove the key; Talos manages that flag.",
    },
    Rule {
        id: "node-label-restricted",
        severity: Severity::Error,
        summary: "On a worker, `nodeLabels` keys that Kubernetes' NodeRestriction admission refuses, and any `nodeTaints`.",
        why: "Talos applies a worker's labels and taints with the kubelet's own node identity, in one update of the Node. NodeRestriction (always on in Talos) refuses labels under `kubernetes.io` and `k8s.io` outside the kubelet's allowed list, anything under `node-restriction.kubernetes.io`, and any taint change by a node. The whole update is refused, so none of the node's labels, annotations or taints are applied, and Talos logs `controller failed` again and again. Control-plane nodes use admin credentials and are not affected.",
        example: "machine:\n  type: worker\n  nodeLabels:\n    node-role.kubernetes.io/worker: \"\"\n",
        fix: "Use a label outside `kubernetes.io`/`k8s.io` (or under `node.kubernetes.io/`), or set it once as a cluster admin with `kubectl label node`; Talos then adopts the existing label.",
    },
    Rule {
        id: "files",
        severity: Severity::Error,
        summary: "`machine.files` entries the node cannot write: an unknown `op`, `create` outside `/var`, a relative path.",
        why: "Talos validation does not look at `machine.files`. The node writes them during boot; an error there stops the boot (`writeUserFiles failed, rebooting in 35 minutes`) and the node reboots in a loop.",
        example: "machine:\n  files:\n    - path: /etc/motd\n      content: hello\n      op: create\n",
        fix: "Use `op: create` under `/var`, or `append`/`overwrite` on a file that exists; paths must be absolute.",
    },
    Rule {
        id: "endpoint-certsans",
        severity: Severity::Warning,
        summary: "Certificate SANs that can never match a host name (a URL, a port, a path, a space, a non-ASCII name).",
        why: "Talos accepts any text in `machine.certSANs` and `cluster.apiServer.certSANs` and puts what is not an IP address into the certificate as a DNS name, so `https://lb.example.com:6443` never matches a client's host. (The cluster endpoint's own host needs no entry: Talos adds it to the API server's certificate itself.)",
        example: "cluster:\n  apiServer:\n    certSANs:\n      - https://lb.example.com:6443\n",
        fix: "List bare host names or IP addresses.",
    },
    Rule {
        id: "superseded-setting",
        severity: Severity::Warning,
        summary: "A v1alpha1 setting that a new-style document silently overrides (the same link, registry or environment variable configured twice).",
        why: "Talos refuses some duplicates (hostname, resolvers, time, KubeSpan) but accepts others and lets the new-style document win, so the v1alpha1 value is dead text that still looks in force.",
        example: "machine:\n  network:\n    interfaces:\n      - interface: eth0\n        mtu: 9000\n---\napiVersion: v1alpha1\nkind: LinkConfig\nname: eth0\nmtu: 1500\n",
        fix: "Keep the setting in one place: move it into the new-style document and remove it from v1alpha1.",
    },
    Rule {
        id: "secret-in-patch",
        severity: Severity::Warning,
        summary: "A patch that carries key material or tokens (CA keys, bootstrap tokens, encryption secrets, private keys).",
        why: "Patches live in git. Secrets belong in the base config generated per cluster (or in a secrets bundle), not in reviewable patches.",
        example: "cluster:\n  secretboxEncryptionSecret: 3MhqYwbW...\n",
        fix: "Move the value out of the patch into the generated base config or a secret store.",
    },
];

// ---------------------------------------------------------------------------------------------
// kubelet-unknown-flag

const KUBELET_RULE: &str = "kubelet-unknown-flag";

pub(super) fn kubelet_flags(cx: &Cx<'_>, out: &mut Vec<Finding>) {
    let Some((image, args)) = super::bridge::kubelet(cx) else {
        return;
    };
    if args.value.0.is_empty() {
        return;
    }
    let in_document = |mut f: Finding| {
        f.document = args.document.clone();
        f
    };
    match kubelet::kubelet_version_for(image.value, cx.config.release()) {
        Some((major, minor, _)) if (major, minor) == kubelet::FLAGS_VERSION => {}
        version => {
            let shown = version.map_or_else(|| "an unknown version".to_string(), |(a, b, c)| format!("v{a}.{b}.{c}"));
            let (fa, fb) = kubelet::FLAGS_VERSION;
            let described = match image.value {
                "" => format!("Talos {}'s default kubelet", cx.config.release()),
                image => format!("the kubelet image `{image}`"),
            };
            let mut f = finding(
                KUBELET_RULE,
                Severity::Info,
                format!("{described} runs {shown}; the flag table is for v{fa}.{fb}, so extraArgs were not checked"),
                image.path.clone(),
            );
            f.suggestion = Some(format!("check the flags against the kubelet's own `--help` for {shown}"));
            out.push(in_document(f));
            return;
        }
    }
    for (key, value) in &args.value.0 {
        let here = args.path.key(key.as_str());
        // Talos refuses a denied key even with an empty value.
        if value.values().is_empty() && kubelet::check_flag(key) != Flag::Denied {
            out.push(in_document(empty_arg(key, here)));
            continue;
        }
        if let Some(f) = flag_finding(key, &value.values(), here) {
            out.push(in_document(f));
        }
    }
}

/// The kubelet flags Talos sets itself that an extraArgs key (even an empty one) takes over.
const TALOS_SET: [&str; 3] = ["node-ip", "hostname-override", "cloud-provider"];

/// An empty extraArgs value: no flag at all. For a flag Talos sets itself, that also drops
/// Talos's own value (`spec/kubelet-flags.md` §2.2).
fn empty_arg(key: &str, here: FieldPath) -> Finding {
    let mut f = if TALOS_SET.contains(&key) {
        finding(
            KUBELET_RULE,
            Severity::Warning,
            format!(
                "extraArgs `{key}` is empty: the kubelet then gets no `--{key}` at all, not even the one Talos sets"
            ),
            here,
        )
    } else {
        finding(
            KUBELET_RULE,
            Severity::Info,
            format!("extraArgs `{key}` is empty, so Talos passes no flag for it"),
            here,
        )
    };
    f.suggestion = Some("remove the key with `$patch: delete` if that is not meant".to_string());
    f
}

fn flag_finding(key: &str, values: &[String], here: FieldPath) -> Option<Finding> {
    let (fa, fb) = kubelet::FLAGS_VERSION;
    let flag = kubelet::check_flag(key);
    // A misspelled flag's fix is mechanical: the key renamed.
    let rename = match &flag {
        Flag::Unknown { suggestion: Some(Suggestion::DidYouMean(flag)), .. } => Some(flag.to_string()),
        _ => None,
    };
    let (severity, message, suggestion) = match flag {
        Flag::Known { name: name @ ("help" | "version"), .. } if exits_at_start(name, values) => (
            Severity::Error,
            format!(
                "`--{name}` makes the kubelet print its {} and exit at start; Talos restarts it every 5 s and the node never becomes Ready",
                if name == "help" { "usage" } else { "version" }
            ),
            "remove the key".to_string(),
        ),
        Flag::Known { deprecated: None, .. } => return None,
        Flag::Known { name, deprecated: Some(d) } => (
            Severity::Warning,
            format!("kubelet flag `--{name}` is deprecated: {}", d.message()),
            match config_field_for(name) {
                Some(field) if kubelet::PROTECTED_CONFIG_FIELDS.contains(&top_field(field)) => format!(
                    "Talos sets `{}` of the kubelet's config file itself and refuses it in `extraConfig`: remove the flag",
                    top_field(field)
                ),
                Some(field) => format!("set `machine.kubelet.extraConfig.{field}` instead"),
                None => "plan to drop the flag before the kubelet removes it".to_string(),
            },
        ),
        Flag::Denied => (
            Severity::Error,
            format!(
                "extra arg {} is not allowed: Talos sets this kubelet flag itself, refuses the key, and keeps the kubelet's previous arguments",
                crate::gofmt::quote(key)
            ),
            "remove the key; Talos manages this flag".to_string(),
        ),
        Flag::BadSyntax => (
            Severity::Error,
            format!(
                "`--{key}=...` is not a flag: the kubelet exits at start (bad flag syntax) and the node never becomes Ready"
            ),
            "remove the key or fix its name".to_string(),
        ),
        Flag::Unknown { name, suggestion } => (
            Severity::Error,
            format!(
                "kubelet v{fa}.{fb} has no flag `--{name}`: it exits at start (`unknown flag: --{name}`), Talos restarts it every 5 s, and the node never becomes Ready"
            ),
            match suggestion {
                Some(Suggestion::DidYouMean(flag)) => format!("did you mean `{flag}`? Rename the key."),
                Some(Suggestion::Removed(version)) => {
                    format!("`--{name}` was removed in Kubernetes {version}; remove the key")
                }
                Some(Suggestion::ConfigField(field)) => {
                    format!(
                        "`{field}` is a kubelet config-file field: set `machine.kubelet.extraConfig.{field}` instead"
                    )
                }
                None => "remove the key, or check the name against `kubelet --help`".to_string(),
            },
        ),
    };
    let mut f = finding(KUBELET_RULE, severity, message, here);
    f.suggestion = Some(suggestion);
    f.rename = rename;
    Some(f)
}

/// Whether `--help` / `--version` with these values ends the kubelet (`spec/kubelet-flags.md`
/// §4.6): any value of `help` Go's ParseBool takes as true; `version` unless `false` or a value
/// starting with `v` (which only changes the version it reports).
fn exits_at_start(name: &str, values: &[String]) -> bool {
    values.iter().any(|v| {
        let truthy = matches!(v.as_str(), "1" | "t" | "T" | "TRUE" | "true" | "True");
        match name {
            "help" => truthy,
            _ => truthy || v == "raw",
        }
    })
}

/// The flags whose config-file field is not their own name in camel case, with that field's
/// path (kubelet's `options.go` binds every config flag to a `KubeletConfiguration` field; the
/// paths are its v1beta1 JSON names).
const FLAG_FIELDS: &[(&str, &str)] = &[
    ("anonymous-auth", "authentication.anonymous.enabled"),
    ("authentication-token-webhook", "authentication.webhook.enabled"),
    ("authentication-token-webhook-cache-ttl", "authentication.webhook.cacheTTL"),
    ("authorization-mode", "authorization.mode"),
    ("authorization-webhook-cache-authorized-ttl", "authorization.webhook.cacheAuthorizedTTL"),
    ("authorization-webhook-cache-unauthorized-ttl", "authorization.webhook.cacheUnauthorizedTTL"),
    ("client-ca-file", "authentication.x509.clientCAFile"),
    ("contention-profiling", "enableContentionProfiling"),
    ("event-qps", "eventRecordQPS"),
    ("image-gc-high-threshold", "imageGCHighThresholdPercent"),
    ("image-gc-low-threshold", "imageGCLowThresholdPercent"),
    ("kube-api-content-type", "contentType"),
    ("manifest-url", "staticPodURL"),
    ("manifest-url-header", "staticPodURLHeader"),
    ("minimum-image-ttl-duration", "imageMinimumGCAge"),
    ("pod-manifest-path", "staticPodPath"),
    ("pod-max-pids", "podPidsLimit"),
    ("registry-qps", "registryPullQPS"),
    ("reserved-cpus", "reservedSystemCPUs"),
    ("resolv-conf", "resolvConf"),
    ("rotate-server-certificates", "serverTLSBootstrap"),
    ("runonce", "runOnce"),
];

/// The config-file field a deprecated flag sets: from [`FLAG_FIELDS`], else the field whose name
/// is the flag's in camel case, acronyms aside (`cgroups-per-qos` -> `cgroupsPerQOS`).
fn config_field_for(flag: &str) -> Option<&'static str> {
    if let Some((_, field)) = FLAG_FIELDS.iter().find(|(f, _)| *f == flag) {
        return Some(field);
    }
    let camel = kubelet::lower_camel(flag);
    kubelet::CONFIG_FIELDS.iter().find(|f| f.eq_ignore_ascii_case(&camel)).copied()
}

/// The top-level field of a config-file path (`authentication` of `authentication.x509...`).
fn top_field(path: &str) -> &str {
    path.split('.').next().unwrap_or(path)
}

// ---------------------------------------------------------------------------------------------
// subnet-overlap

const SUBNET_RULE: &str = "subnet-overlap";

/// A subnet with the path it came from.
struct Named {
    document: DocumentId,
    path: FieldPath,
    prefix: Prefix,
    /// Talos's default, not written in the config.
    defaulted: bool,
}

pub(super) fn subnet_overlap(cx: &Cx<'_>, out: &mut Vec<Finding>) {
    let Ok(found) = crate::subnets::subnets_overlap_host(cx.config, cx.options.host_ranges) else {
        return;
    };
    let cluster: Vec<Named> = found
        .iter()
        .map(|c| Named { document: c.document.clone(), path: c.path.clone(), prefix: c.subnet, defaulted: c.defaulted })
        .collect();
    let (pods, services) = cluster.split_at(found.pod_subnets.len());
    for p in pods {
        for s in services.iter().filter(|s| overlaps(&p.prefix, &s.prefix)) {
            let at = if p.defaulted { s } else { p };
            let mut f = finding_in(
                SUBNET_RULE,
                Severity::Error,
                format!(
                    "pod subnet {}{} overlaps service subnet {}{}",
                    p.prefix,
                    default_note(p),
                    s.prefix,
                    default_note(s)
                ),
                at.document.clone(),
                at.path.clone(),
            );
            f.suggestion = Some("choose pod and service subnets that do not overlap".to_string());
            out.push(f);
        }
    }
    let host = node_networks(cx);
    for c in &cluster {
        // Reported at the node's address or route: that is the value a patch usually adds.
        for h in host.iter().filter(|h| overlaps(&c.prefix, &h.prefix)) {
            let mut f = finding(
                SUBNET_RULE,
                Severity::Error,
                format!("the node's network {} overlaps {}{} (`{}`)", h.prefix, c.prefix, default_note(c), c.path),
                h.path.clone(),
            );
            f.suggestion = Some("move the pod or service subnet away from the node's addresses and routes".to_string());
            out.push(f);
        }
        for h in &found.iter().find(|x| x.path == c.path).map(|x| x.overlaps.clone()).unwrap_or_default() {
            let mut f = finding_in(
                SUBNET_RULE,
                Severity::Error,
                format!("{}{} overlaps the host range {h}", c.prefix, default_note(c)),
                c.document.clone(),
                c.path.clone(),
            );
            let list = c.path.parent().filter(|_| !c.defaulted).unwrap_or_else(|| c.path.clone());
            let ranges: Vec<String> = cx.options.host_ranges.iter().map(ToString::to_string).collect();
            f.suggestion = Some(format!("set `{list}` to a range outside {}", ranges.join(", ")));
            out.push(f);
        }
    }
}

fn default_note(n: &Named) -> &'static str {
    if n.defaulted { " (Talos's default)" } else { "" }
}

/// The node's static addresses and route destinations (`machine.network.interfaces`), as
/// prefixes. Default routes are skipped: they overlap everything by design.
fn node_networks(cx: &Cx<'_>) -> Vec<Named> {
    let mut out = Vec::new();
    let Some(network) = cx.legacy().and_then(|c| c.machine.as_ref()).and_then(|m| m.network.as_ref()) else {
        return out;
    };
    for (i, dev) in network.interfaces.0.iter().enumerate() {
        let Some(dev) = dev else { continue };
        let base = path("machine.network.interfaces").index(i);
        for (j, addr) in dev.addresses.iter().enumerate() {
            if let Ok(prefix) = parse_prefix(addr) {
                out.push(Named {
                    document: DocumentId::legacy(),
                    path: base.key("addresses").index(j),
                    prefix: prefix.masked(),
                    defaulted: false,
                });
            }
        }
        for (j, route) in dev.routes.iter().enumerate() {
            let Some(route) = route else { continue };
            if let Ok(prefix) = parse_prefix(&route.network)
                && prefix.bits() > 0
            {
                out.push(Named {
                    document: DocumentId::legacy(),
                    path: base.key("routes").index(j).key("network"),
                    prefix,
                    defaulted: false,
                });
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// secret-in-patch

const SECRET_RULE: &str = "secret-in-patch";

pub(super) fn secrets_in_patches(cx: &Cx<'_>, out: &mut Vec<Finding>) {
    // Each patch's own text: a secret a later patch overrides or deletes is still in git.
    for patch in cx.patches {
        let Ok(docs) = parse_documents(&patch.bytes) else { continue };
        for root in docs.iter().filter(|r| r.as_mapping().is_some()) {
            let kind = root.get("kind").and_then(Node::as_scalar).map_or("v1alpha1", |s| s.text.as_str());
            let name = root.get("name").and_then(Node::as_scalar).map(|s| s.text.as_str());
            let document = DocumentId::new(kind, name.filter(|_| kind != "v1alpha1"));
            let mut found = Vec::new();
            scan(root, kind, &mut Vec::new(), root.mark, &mut found);
            for (path, mark, pem) in found {
                let site = Site { input: patch.name.as_str().into(), line: mark.line, column: mark.column };
                let what = if pem { "a PEM private key" } else { "a secret" };
                let mut f = finding(
                    SECRET_RULE,
                    Severity::Warning,
                    format!("the patch {} sets `{path}`, {what}: patches are kept in git", patch.name),
                    path,
                );
                f.document = document.clone();
                f.site = Some(site);
                f.suggestion =
                    Some("keep secrets in the generated base config or a secret store, not in a patch".to_string());
                out.push(f);
            }
        }
    }
}

/// Finds the non-empty secret fields (Talos's `RedactSecrets` list) and PEM private keys under
/// `node`: their path and the position of their key (or item).
fn scan(node: &Node, kind: &str, path: &mut Vec<Segment>, at: Mark, out: &mut Vec<(FieldPath, Mark, bool)>) {
    deep(|| match &node.value {
        // `******` is siderolabs/crypto's redaction marker: no secret is there.
        NodeValue::Scalar(s) if !s.text.is_empty() && s.text != "******" => {
            let pem = s.text.contains("PRIVATE KEY-----");
            if pem || is_secret(kind, path) {
                out.push((FieldPath::from_segments(path.clone()), at, pem));
            }
        }
        NodeValue::Scalar(_) => {}
        NodeValue::Mapping(entries, _) => {
            for (k, v) in entries {
                let Some(key) = k.as_scalar().map(|s| s.text.clone()) else { continue };
                path.push(Segment::Key(key));
                scan(v, kind, path, k.mark, out);
                path.pop();
            }
        }
        NodeValue::Sequence(items, _) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Segment::Index(i));
                scan(item, kind, path, item.mark, out);
                path.pop();
            }
        }
    })
}
