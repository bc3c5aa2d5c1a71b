//! Step 4, the kubeconfig through the API, the Nodes and the subnets: running it and checking it.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Step 4: the kubeconfig, the Nodes and the subnets.
pub(super) async fn run(s: &Session) -> Result<(), LabError> {
    let text = kubeconfig_once(s).await?;
    let api_server = kubeconfig_server(&text)?;
    let kube = s.kube().await?;
    let nodes = env::list_nodes(&kube).await?;
    let mut versions: Vec<String> = nodes.iter().map(|n| n.kubelet_version.clone()).collect();
    versions.sort();
    versions.dedup();
    let kubelet_version = versions.join(", ");
    let nodes = nodes.into_iter().map(|n| (n.name, n.internal_ip.unwrap_or_default())).collect();
    let cp = s.machine_config(&s.env.controlplane).await?;
    let Subnets { pods: pod_subnets, services: service_subnets, overlaps_host } = subnets(&cp.bytes)?;
    let file = files::Cluster { api_server, nodes, kubelet_version, pod_subnets, service_subnets, overlaps_host };
    s.out.write_json(names::CLUSTER, &file)?;
    let (api_server, kubelet) = (file.api_server.as_str(), file.kubelet_version.as_str());
    let (pods, services) = (file.pod_subnets.join(","), file.service_subnets.join(","));
    let line = if file.overlaps_host {
        tr!("s4-done-overlap", api_server = api_server, kubelet = kubelet, pods = pods, services = services)
    } else {
        tr!("s4-done-apart", api_server = api_server, kubelet = kubelet, pods = pods, services = services)
    };
    println!("{line}");
    Ok(())
}

/// Grades step 4: its files against the live cluster.
pub(super) async fn check(s: &Session) -> Grade {
    let path = s.out.path(names::KUBECONFIG);
    let meta = std::fs::symlink_metadata(&path).map_err(|_| tr!("ev-missing", file = names::KUBECONFIG))?;
    ensure(meta.file_type().is_file(), || tr!("s4-check-not-regular", file = names::KUBECONFIG))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = meta.permissions().mode() & 0o777;
        ensure(mode == 0o600, || tr!("s4-check-mode", file = names::KUBECONFIG, mode = format!("{mode:04o}")))?;
    }
    let text = need_text(s, names::KUBECONFIG)?;
    fetched_once(&text)?;
    let server = kubeconfig_server(&text).map_err(lab)?;
    let f: files::Cluster = need(s, names::CLUSTER)?;
    same("cluster.json api_server", &f.api_server, &server)?;
    let kube = s.kube().await.map_err(lab)?;
    let nodes = env::list_nodes(&kube).await.map_err(lab)?;
    let mut versions: Vec<String> = nodes.iter().map(|n| n.kubelet_version.clone()).collect();
    versions.sort();
    versions.dedup();
    let live: BTreeMap<String, String> =
        nodes.into_iter().map(|n| (n.name, n.internal_ip.unwrap_or_default())).collect();
    same("cluster.json nodes", &f.nodes, &live)?;
    same("cluster.json kubelet_version", &f.kubelet_version, &versions.join(", "))?;
    let cp = s.machine_config(&s.env.controlplane).await.map_err(lab)?;
    let live = subnets(&cp.bytes).map_err(lab)?;
    same("cluster.json pod_subnets", &f.pod_subnets, &live.pods)?;
    same("cluster.json service_subnets", &f.service_subnets, &live.services)?;
    same("cluster.json overlaps_host", &f.overlaps_host, &live.overlaps_host)?;
    Ok(tr!(
        "s4-check-pass",
        nodes = f.nodes.len(),
        kubelet = f.kubelet_version.as_str(),
        overlaps_host = f.overlaps_host.to_string()
    ))
}
