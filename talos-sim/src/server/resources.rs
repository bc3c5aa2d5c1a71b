//! Node resources as COSI protobuf resources: the protobuf spec and the YAML spec `talosctl get`
//! prints, for machine configs, services and members.

use talos_client::proto::common;
use talos_client::proto::cosi::resource as cosi;
use talos_client::proto::resource::config::MachineConfigSpec;
use talos_client::proto::talos::resource::definitions::{cluster, enums, v1alpha1};

use crate::node::{self, MachineType};
use crate::util::timestamp;

/// YAML of a string scalar as go-yaml v4 writes it at indent 4 (block literal for multi-line
/// text).
fn yaml_string(text: &str) -> String {
    if !text.contains('\n') {
        return format!("{}\n", talos_go::quote(text));
    }
    let (body, chomp) = match text.strip_suffix('\n') {
        Some(b) => (b, "|"),
        None => (text, "|-"),
    };
    let mut out = format!("{chomp}\n");
    for line in body.split('\n') {
        if line.is_empty() {
            out.push('\n');
        } else {
            out.push_str("    ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn machine_type_enum(t: MachineType) -> enums::MachineType {
    match t {
        MachineType::ControlPlane => enums::MachineType::TypeControlPlane,
        MachineType::Worker => enums::MachineType::TypeWorker,
    }
}

/// A node resource as a COSI protobuf resource (both `proto_spec` and `yaml_spec`).
pub fn to_proto(r: &node::Resource) -> cosi::Resource {
    use prost::Message;
    let mut annotations = std::collections::HashMap::new();
    let (proto_spec, yaml_spec) = match &r.spec {
        node::Spec::MachineConfig(bytes) => {
            annotations.insert("talos.dev/yaml-spec".to_string(), "1".to_string());
            (
                MachineConfigSpec { yaml_marshalled: bytes.clone() }.encode_to_vec(),
                yaml_string(&String::from_utf8_lossy(bytes)),
            )
        }
        node::Spec::Service { running, healthy, unknown } => (
            v1alpha1::ServiceSpec { running: *running, healthy: *healthy, unknown: *unknown }.encode_to_vec(),
            format!("running: {running}\nhealthy: {healthy}\nunknown: {unknown}\n"),
        ),
        node::Spec::Member(m) => {
            let spec = cluster::MemberSpec {
                node_id: m.node_id.clone(),
                addresses: m
                    .addresses
                    .iter()
                    .map(|a| common::NetIp {
                        ip: match a {
                            std::net::IpAddr::V4(v) => v.octets().to_vec(),
                            std::net::IpAddr::V6(v) => v.octets().to_vec(),
                        },
                    })
                    .collect(),
                hostname: m.hostname.clone(),
                machine_type: machine_type_enum(m.machine_type) as i32,
                operating_system: m.operating_system.clone(),
                control_plane: m.control_plane_port.map(|p| cluster::ControlPlane { api_server_port: p }),
            };
            let mut yaml = format!("nodeId: {}\naddresses:\n", m.node_id);
            for a in &m.addresses {
                yaml.push_str(&format!("    - {a}\n"));
            }
            yaml.push_str(&format!(
                "hostname: {}\nmachineType: {}\noperatingSystem: {}\n",
                m.hostname,
                m.machine_type.as_str(),
                m.operating_system
            ));
            if let Some(p) = m.control_plane_port {
                yaml.push_str(&format!("controlPlane:\n    port: {p}\n"));
            }
            (spec.encode_to_vec(), yaml)
        }
    };
    cosi::Resource {
        metadata: Some(cosi::Metadata {
            namespace: r.namespace.to_string(),
            r#type: r.r#type.to_string(),
            id: r.id.clone(),
            version: r.version.to_string(),
            owner: String::new(),
            phase: "running".to_string(),
            created: timestamp(r.created),
            updated: timestamp(r.updated),
            finalizers: Vec::new(),
            labels: Default::default(),
            annotations,
        }),
        spec: Some(cosi::Spec { proto_spec, yaml_spec }),
    }
}
