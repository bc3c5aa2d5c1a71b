//! A Node object as the API serves it, computed from the simulated node now: labels from the
//! active machine config, the kubelet's version from its image, `Ready` from the kubelet service.

use std::collections::BTreeMap;
use std::time::SystemTime;

use serde_json::{Value, json};

use super::{KUBERNETES_VERSION, KubeNode, KubeState, kube_arch};
use crate::node::{MachineType, TAG};
use crate::util::rfc3339;

/// The labels and kubelet version of a node's active config.
fn config_facts(bytes: &[u8]) -> (BTreeMap<String, String>, String) {
    let Ok(config) = talos_config::Config::from_bytes(bytes) else {
        return (BTreeMap::new(), KUBERNETES_VERSION.to_string());
    };
    let Some(v1) = config.get::<talos_config::model::v1alpha1::Config>() else {
        return (BTreeMap::new(), KUBERNETES_VERSION.to_string());
    };
    let machine = v1.machine.as_ref();
    let labels = machine.map(|m| m.node_labels.clone()).unwrap_or_default();
    let image = machine.and_then(|m| m.kubelet.as_ref()).map(|k| k.image.as_str()).unwrap_or_default();
    let name = image.rsplit('/').next().unwrap_or_default();
    let version = match name.split_once(':') {
        Some((_, tag)) if !tag.is_empty() => tag.split('@').next().unwrap_or(tag).to_string(),
        _ => KUBERNETES_VERSION.to_string(),
    };
    (labels, version)
}

impl KubeState {
    /// The Node object of `n` now, and its resource version.
    pub(super) fn node_object(&self, n: &KubeNode, now: SystemTime) -> (Value, u64) {
        let node = &n.node;
        let name = node.identity.hostname.as_str();
        let (bytes, config_version, _) = node.config_state();
        let (config_labels, kubelet_version) = config_facts(&bytes);
        let kubelet = node.kubelet_status();
        let ready = node.node_ready(now);
        let resource_version = config_version + kubelet.service_version + u64::from(!ready.ready);
        let arch = kube_arch();
        let (labels, annotations) = labels_and_annotations(name, node.identity.machine_type, config_labels);
        let created = rfc3339(self.started);
        let conditions = conditions(&ready, &created);
        let resources = json!({
            "cpu": "2",
            "ephemeral-storage": "10218772Ki",
            "hugepages-2Mi": "0",
            "memory": "2048Mi",
            "pods": "110",
        });
        let object = json!({
            "apiVersion": "v1",
            "kind": "Node",
            "metadata": {
                "name": name,
                "uid": n.uid,
                "resourceVersion": resource_version.to_string(),
                "creationTimestamp": created,
                "labels": labels,
                "annotations": annotations,
            },
            "spec": {
                "podCIDR": n.pod_cidr,
                "podCIDRs": [n.pod_cidr],
            },
            "status": {
                "capacity": resources,
                "allocatable": resources,
                "conditions": conditions,
                "addresses": [
                    {"type": "InternalIP", "address": node.identity.address.to_string()},
                    {"type": "Hostname", "address": name},
                ],
                "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
                "nodeInfo": {
                    "machineID": n.machine_id,
                    "systemUUID": n.system_uuid,
                    "bootID": n.boot_id,
                    "kernelVersion": "6.18.9-talos",
                    "osImage": format!("Talos ({TAG})"),
                    "containerRuntimeVersion": "containerd://2.1.5",
                    "kubeletVersion": kubelet_version,
                    "kubeProxyVersion": kubelet_version,
                    "operatingSystem": "linux",
                    "architecture": arch,
                },
            },
        });
        (object, resource_version)
    }
}

/// The Node's labels (the well-known ones, the control-plane role, the config's) and annotations
/// (Talos's owned-labels list among them).
fn labels_and_annotations(
    name: &str,
    machine_type: MachineType,
    config_labels: BTreeMap<String, String>,
) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    let arch = kube_arch();
    let mut labels: BTreeMap<String, String> = BTreeMap::new();
    labels.insert("beta.kubernetes.io/arch".into(), arch.into());
    labels.insert("beta.kubernetes.io/os".into(), "linux".into());
    labels.insert("kubernetes.io/arch".into(), arch.into());
    labels.insert("kubernetes.io/hostname".into(), name.into());
    labels.insert("kubernetes.io/os".into(), "linux".into());
    // Talos's NodeLabelSpecController adds the role label on control planes and owns it.
    let mut owned: Vec<String> = config_labels.keys().cloned().collect();
    if machine_type == MachineType::ControlPlane {
        labels.insert("node-role.kubernetes.io/control-plane".into(), String::new());
        owned.push("node-role.kubernetes.io/control-plane".into());
    }
    owned.sort();
    owned.dedup();
    labels.extend(config_labels);
    let mut annotations: BTreeMap<String, String> = BTreeMap::new();
    annotations.insert("node.alpha.kubernetes.io/ttl".into(), "0".into());
    if !owned.is_empty() {
        annotations.insert("talos.dev/owned-labels".into(), serde_json::to_string(&owned).unwrap_or_default());
    }
    annotations.insert("volumes.kubernetes.io/controller-managed-attach-detach".into(), "true".into());
    (labels, annotations)
}

/// The Node's conditions: no pressure and Ready while the kubelet posts status, `Unknown` since
/// it stopped.
fn conditions(ready: &crate::node::NodeReady, created: &str) -> Vec<Value> {
    let heartbeat = rfc3339(ready.heartbeat);
    let pressure = |kind: &str, reason: &str, message: &str| {
        if ready.ready {
            json!({
                "type": kind,
                "status": "False",
                "lastHeartbeatTime": heartbeat,
                "lastTransitionTime": created,
                "reason": reason,
                "message": message,
            })
        } else {
            json!({
                "type": kind,
                "status": "Unknown",
                "lastHeartbeatTime": heartbeat,
                "lastTransitionTime": rfc3339(ready.since),
                "reason": "NodeStatusUnknown",
                "message": "Kubelet stopped posting node status.",
            })
        }
    };
    let ready_condition = if ready.ready {
        json!({
            "type": "Ready",
            "status": "True",
            "lastHeartbeatTime": heartbeat,
            "lastTransitionTime": rfc3339(ready.since),
            "reason": "KubeletReady",
            "message": "kubelet is posting ready status",
        })
    } else {
        json!({
            "type": "Ready",
            "status": "Unknown",
            "lastHeartbeatTime": heartbeat,
            "lastTransitionTime": rfc3339(ready.since),
            "reason": "NodeStatusUnknown",
            "message": "Kubelet stopped posting node status.",
        })
    };
    vec![
        pressure("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
        pressure("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
        pressure("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
        ready_condition,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubelet_version_from_image() {
        let (labels, v) = config_facts(crate::WORKER_CONFIG);
        assert_eq!(v, "v1.36.3");
        assert!(labels.is_empty());
        let (labels, _) = config_facts(crate::CONTROLPLANE_CONFIG);
        assert_eq!(labels.keys().collect::<Vec<_>>(), ["node.kubernetes.io/exclude-from-external-load-balancers"]);
        assert_eq!(config_facts(b"not yaml: [").1, KUBERNETES_VERSION);
    }
}
