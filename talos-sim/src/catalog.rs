//! What the simulated nodes serve through COSI, described as Talos v1.13.9 describes it: the
//! `meta` namespace's ResourceDefinitions (so that `talosctl get <alias>` resolves kinds) and
//! Namespaces, and machined's access filter (`internal/app/resources/access.go` upstream): a
//! type without a definition, a sensitive type for a caller without `os:admin`, and a namespace
//! that does not exist are refused with Talos's texts.

use std::time::SystemTime;

use prost::Message;
use talos_client::proto::cosi::resource as cosi;
use talos_client::proto::cosi::resource::meta::{NamespaceSpec, ResourceDefinitionSpec, resource_definition_spec};
use talos_yaml::Node;
use tonic::Status;

use crate::node::{NS_CLUSTER, NS_CONFIG, NS_RUNTIME, TYPE_MACHINE_CONFIG, TYPE_MEMBER, TYPE_SERVICE};

/// The namespace of definitions.
pub const NS_META: &str = "meta";
/// The type of the node's Kubernetes node name (id `nodename`, namespace `k8s`).
pub const TYPE_NODENAME: &str = "Nodenames.kubernetes.talos.dev";
/// The type of the node's hostname status (id `hostname`, namespace `network`).
pub const TYPE_HOSTNAME_STATUS: &str = "HostnameStatuses.net.talos.dev";
/// The type of resource definitions.
pub const TYPE_RESOURCE_DEFINITION: &str = "ResourceDefinitions.meta.cosi.dev";
/// The type of namespaces.
pub const TYPE_NAMESPACE: &str = "Namespaces.meta.cosi.dev";

/// One ResourceDefinition: what COSI's `ResourceDefinitionSpec.Fill` starts from.
#[derive(Debug)]
pub struct Definition {
    /// The canonical type (`MachineConfigs.config.talos.dev`).
    pub r#type: &'static str,
    /// The singular display type (`MachineConfig`).
    pub display_type: &'static str,
    /// Where the resources live when no namespace is given.
    pub default_namespace: &'static str,
    /// Aliases given by the resource itself, before the automatic ones.
    pub aliases: &'static [&'static str],
    /// Extra table columns: name and JSONPath into the YAML spec.
    pub print_columns: &'static [(&'static str, &'static str)],
    /// Readable only with `os:admin`.
    pub sensitive: bool,
}

/// The definitions of every type the simulator serves (Talos v1.13.9's, each as upstream
/// declares it).
pub const DEFINITIONS: [Definition; 7] = [
    Definition {
        r#type: TYPE_HOSTNAME_STATUS,
        display_type: "HostnameStatus",
        default_namespace: "network",
        aliases: &["hostname"],
        print_columns: &[("Hostname", "{.hostname}"), ("Domainname", "{.domainname}")],
        sensitive: false,
    },
    Definition {
        r#type: TYPE_MACHINE_CONFIG,
        display_type: "MachineConfig",
        default_namespace: NS_CONFIG,
        aliases: &[],
        print_columns: &[],
        sensitive: true,
    },
    Definition {
        r#type: TYPE_MEMBER,
        display_type: "Member",
        default_namespace: NS_CLUSTER,
        aliases: &[],
        print_columns: &[
            ("Hostname", "{.hostname}"),
            ("Machine Type", "{.machineType}"),
            ("OS", "{.operatingSystem}"),
            ("Addresses", "{.addresses}"),
        ],
        sensitive: false,
    },
    Definition {
        r#type: TYPE_NODENAME,
        display_type: "Nodename",
        default_namespace: "k8s",
        aliases: &[],
        print_columns: &[("Nodename", "{.nodename}")],
        sensitive: false,
    },
    Definition {
        r#type: TYPE_NAMESPACE,
        display_type: "Namespace",
        default_namespace: NS_META,
        aliases: &["ns"],
        print_columns: &[],
        sensitive: false,
    },
    Definition {
        r#type: TYPE_RESOURCE_DEFINITION,
        display_type: "ResourceDefinition",
        default_namespace: NS_META,
        aliases: &["api-resources"],
        print_columns: &[("Aliases", "{.aliases[:]}")],
        sensitive: false,
    },
    Definition {
        r#type: TYPE_SERVICE,
        display_type: "Service",
        default_namespace: NS_RUNTIME,
        aliases: &["svc"],
        print_columns: &[("Running", "{.running}"), ("Healthy", "{.healthy}"), ("Health Unknown", "{.unknown}")],
        sensitive: false,
    },
];

/// Talos's namespaces with their descriptions (`meta` is COSI's own).
pub const NAMESPACES: [(&str, &str); 17] = [
    ("cluster", "Cluster configuration and discovery resources."),
    ("cluster-raw", "Cluster unmerged raw resources."),
    ("config", "Talos node configuration."),
    ("controlplane", "Kubernetes control plane resources."),
    ("cri", "CRI Seccomp resources."),
    ("etcd", "etcd resources."),
    ("files", "Files and file-like resources."),
    ("hardware", "Hardware resources."),
    ("k8s", "Kubernetes all node types resources."),
    ("kubespan", "KubeSpan resources."),
    (NS_META, "Metadata namespace which contains resource and namespace definitions."),
    ("network", "Networking resources."),
    ("network-config", "Networking configuration resources."),
    ("perf", "Stats resources."),
    ("runtime", "Talos v1alpha1 subsystems glue resources."),
    ("secrets", "Resources with secret material."),
    ("security", "Security resources."),
];

impl Definition {
    /// The definition's id: the type in lower case.
    pub fn id(&self) -> String {
        self.r#type.to_lowercase()
    }

    /// COSI's `Fill`: `(aliases, all_aliases)`. Aliases are the resource's own, the lower-case
    /// display type, and for two or more capitals their lower-case initials (plus `s` unless
    /// they end in `S`); all aliases add the lower-case plural name, alone and with each
    /// leading part of the suffix.
    pub fn aliases(&self) -> (Vec<String>, Vec<String>) {
        let (name, suffix) = self.r#type.split_once('.').unwrap_or((self.r#type, ""));
        let mut aliases: Vec<String> = self.aliases.iter().map(|a| a.to_string()).collect();
        aliases.push(self.display_type.to_lowercase());
        let plural = name.to_lowercase();
        let mut all = vec![plural.clone()];
        let parts: Vec<&str> = suffix.split('.').collect();
        for i in 1..parts.len() {
            all.push(format!("{plural}.{}", parts[..i].join(".")));
        }
        let capitals: String = name.chars().filter(char::is_ascii_uppercase).collect();
        if capitals.len() > 1 {
            aliases.push(capitals.to_lowercase());
            if !capitals.ends_with('S') {
                aliases.push(format!("{}s", capitals.to_lowercase()));
            }
        }
        all.extend(aliases.iter().cloned());
        (aliases, all)
    }

    /// The definition as a COSI resource in `meta` (owner `meta`, version 1).
    fn resource(&self, created: SystemTime) -> cosi::Resource {
        let (aliases, all_aliases) = self.aliases();
        let spec = ResourceDefinitionSpec {
            resource_type: self.r#type.to_string(),
            display_type: self.display_type.to_string(),
            default_namespace: self.default_namespace.to_string(),
            aliases: aliases.clone(),
            all_aliases: all_aliases.clone(),
            print_columns: self
                .print_columns
                .iter()
                .map(|(name, path)| resource_definition_spec::PrintColumn {
                    name: name.to_string(),
                    json_path: path.to_string(),
                })
                .collect(),
            sensitivity: if self.sensitive {
                resource_definition_spec::Sensitivity::Sensitive as i32
            } else {
                resource_definition_spec::Sensitivity::NonSensitive as i32
            },
        };
        let list = |items: &[String]| Node::sequence(items.iter().map(Node::go_string).collect());
        let columns = self
            .print_columns
            .iter()
            .map(|(name, path)| {
                Node::mapping(vec![
                    (Node::go_string("name"), Node::go_string(*name)),
                    (Node::go_string("jsonPath"), Node::go_string(*path)),
                ])
            })
            .collect();
        let mut yaml = vec![
            (Node::go_string("type"), Node::go_string(self.r#type)),
            (Node::go_string("displayType"), Node::go_string(self.display_type)),
            (Node::go_string("defaultNamespace"), Node::go_string(self.default_namespace)),
            (Node::go_string("aliases"), list(&aliases)),
            (Node::go_string("allAliases"), list(&all_aliases)),
            (Node::go_string("printColumns"), Node::sequence(columns)),
        ];
        if self.sensitive {
            yaml.push((Node::go_string("sensitivity"), Node::go_string("sensitive")));
        }
        let id = ResourceId { namespace: NS_META, r#type: TYPE_RESOURCE_DEFINITION, id: self.id(), owner: NS_META };
        resource(id, spec.encode_to_vec(), Node::mapping(yaml), created)
    }
}

/// Where a resource is and who owns it.
struct ResourceId<'a> {
    namespace: &'a str,
    r#type: &'a str,
    id: String,
    owner: &'a str,
}

/// A resource at version 1 since `created`, with both spec encodings.
fn resource(id: ResourceId<'_>, proto_spec: Vec<u8>, yaml: Node, created: SystemTime) -> cosi::Resource {
    let at = crate::util::timestamp(created);
    cosi::Resource {
        metadata: Some(cosi::Metadata {
            namespace: id.namespace.to_string(),
            r#type: id.r#type.to_string(),
            id: id.id,
            version: "1".to_string(),
            owner: id.owner.to_string(),
            phase: "running".to_string(),
            created: at,
            updated: at,
            finalizers: Vec::new(),
            labels: Default::default(),
            annotations: Default::default(),
        }),
        spec: Some(cosi::Spec { proto_spec, yaml_spec: talos_yaml::emit_v4::emit_v4(&yaml) }),
    }
}

/// The `meta` resources of `r#type` (definitions or namespaces), sorted by id; `None` for any
/// other type.
pub fn meta_resources(r#type: &str, created: SystemTime) -> Option<Vec<cosi::Resource>> {
    let mut out: Vec<cosi::Resource> = match r#type {
        TYPE_RESOURCE_DEFINITION => DEFINITIONS.iter().map(|d| d.resource(created)).collect(),
        TYPE_NAMESPACE => NAMESPACES
            .iter()
            .map(|(name, description)| {
                let spec = NamespaceSpec { description: description.to_string() };
                let yaml = Node::mapping(vec![(Node::go_string("description"), Node::go_string(*description))]);
                let id =
                    ResourceId { namespace: NS_META, r#type: TYPE_NAMESPACE, id: name.to_string(), owner: NS_META };
                resource(id, spec.encode_to_vec(), yaml, created)
            })
            .collect(),
        _ => return None,
    };
    out.sort_by(|a, b| id_of(a).cmp(id_of(b)));
    Some(out)
}

fn id_of(r: &cosi::Resource) -> &str {
    r.metadata.as_ref().map_or("", |m| m.id.as_str())
}

/// `talos.resource.definitions.k8s.NodenameSpec`.
#[derive(Clone, PartialEq, prost::Message)]
struct NodenameSpec {
    #[prost(string, tag = "1")]
    nodename: String,
    #[prost(string, tag = "2")]
    hostname_version: String,
    #[prost(bool, tag = "3")]
    skip_node_registration: bool,
}

/// `talos.resource.definitions.network.HostnameStatusSpec`.
#[derive(Clone, PartialEq, prost::Message)]
struct HostnameStatusSpec {
    #[prost(string, tag = "1")]
    hostname: String,
    #[prost(string, tag = "2")]
    domainname: String,
}

/// The node's singletons derived from its identity: its hostname status (`network/hostname`,
/// no domain) and its Kubernetes node name (`k8s/nodename`, the hostname); `None` for other
/// types, an empty list for another namespace. Both have version 1 since boot (the simulated
/// hostname never changes).
pub fn identity_resources(r#type: &str, namespace: &str, node: &crate::Node) -> Option<Vec<cosi::Resource>> {
    let hostname = node.identity.hostname.clone();
    let (home, id, proto_spec, yaml) = match r#type {
        TYPE_HOSTNAME_STATUS => (
            "network",
            "hostname",
            HostnameStatusSpec { hostname: hostname.clone(), domainname: String::new() }.encode_to_vec(),
            Node::mapping(vec![
                (Node::go_string("hostname"), Node::go_string(hostname)),
                (Node::go_string("domainname"), Node::go_string("")),
            ]),
        ),
        TYPE_NODENAME => (
            "k8s",
            "nodename",
            NodenameSpec { nodename: hostname.clone(), hostname_version: "1".into(), skip_node_registration: false }
                .encode_to_vec(),
            Node::mapping(vec![
                (Node::go_string("nodename"), Node::go_string(hostname)),
                (Node::go_string("hostnameVersion"), Node::go_string("1")),
                (Node::go_string("skipNodeRegistration"), Node::plain("false")),
            ]),
        ),
        _ => return None,
    };
    if namespace != home {
        return Some(Vec::new());
    }
    let id = ResourceId { namespace: home, r#type, id: id.to_string(), owner: "" };
    Some(vec![resource(id, proto_spec, yaml, node.booted())])
}

/// machined's access filter for a read of `r#type` in `namespace` by a caller with `roles`:
/// the type needs a definition (looked up by its lower-case id, as upstream), a sensitive type
/// needs `os:admin`, the namespace must exist.
pub fn check_read(r#type: &str, namespace: &str, roles: &[String]) -> Result<(), Status> {
    let id = r#type.to_lowercase();
    let Some(definition) = DEFINITIONS.iter().find(|d| d.id() == id) else {
        return Err(Status::permission_denied(format!("resource type {} is not supported", talos_go::quote(r#type))));
    };
    if definition.sensitive && !roles.iter().any(|r| r == "os:admin") {
        return Err(Status::permission_denied("not authorized"));
    }
    if !NAMESPACES.iter().any(|(name, _)| *name == namespace) {
        return Err(Status::permission_denied(format!("namespace {} is not supported", talos_go::quote(namespace))));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aliases_of(t: &str) -> (Vec<String>, Vec<String>) {
        DEFINITIONS.iter().find(|d| d.r#type == t).unwrap().aliases()
    }

    #[test]
    fn aliases_follow_cosi_fill() {
        assert_eq!(
            aliases_of(TYPE_MACHINE_CONFIG),
            (
                vec!["machineconfig".into(), "mc".into(), "mcs".into()],
                vec![
                    "machineconfigs".into(),
                    "machineconfigs.config".into(),
                    "machineconfigs.config.talos".into(),
                    "machineconfig".into(),
                    "mc".into(),
                    "mcs".into()
                ]
            )
        );
        assert_eq!(aliases_of(TYPE_MEMBER).0, ["member"]);
        assert_eq!(aliases_of(TYPE_SERVICE).0, ["svc", "service"]);
        assert_eq!(
            aliases_of(TYPE_NAMESPACE).1,
            ["namespaces", "namespaces.meta", "namespaces.meta.cosi", "ns", "namespace"]
        );
        assert_eq!(aliases_of(TYPE_RESOURCE_DEFINITION).0, ["api-resources", "resourcedefinition", "rd", "rds"]);
    }
}
