//! Step 9, the report: running it and checking it.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Step 9: the report.
pub(super) async fn run(s: &Session) -> Result<(), LabError> {
    let noshell = s
        .out
        .read_json::<files::NoShell>(names::NOSHELL)?
        .ok_or_else(|| LabError::new(tr!("s9-noshell-missing", file = names::NOSHELL)))?;
    let version = s.worker_config().await?.version;
    let file = files::Report {
        shell_in_node: noshell.exec_sh_exit == 0,
        ssh_port_open: noshell.port22_open,
        api_port: DEFAULT_PORT,
        worker_config_changes: version.saturating_sub(1),
        worker_restarts: worker_restarts(s).await?,
        rejected_field: rejected_field(s).await?,
        broken_service: broken_service(s).await?.ok_or_else(|| LabError::new(tr!("s9-no-crash-loop")))?,
        apply_log_line: apply_log_line(s).await?.ok_or_else(|| LabError::new(tr!("s9-no-apply-line")))?,
        summary: SUMMARY.to_string(),
    };
    s.out.write_json(names::REPORT, &file)?;
    println!(
        "{}",
        tr!(
            "s9-done",
            changes = file.worker_config_changes,
            restarts = file.worker_restarts,
            field = file.rejected_field.as_str(),
            service = file.broken_service.as_str()
        )
    );
    Ok(())
}

/// Grades step 9: its files against the live cluster.
pub(super) async fn check(s: &Session) -> Grade {
    let f: files::Report = need(s, names::REPORT)?;
    let noshell: files::NoShell = need(s, names::NOSHELL)?;
    same("report.json shell_in_node", &f.shell_in_node, &(noshell.exec_sh_exit == 0))?;
    let ip: std::net::IpAddr = noshell.node_ip.parse().map_err(|_| tr!("s9-check-not-ip"))?;
    same("report.json ssh_port_open", &f.ssh_port_open, &s.env.ports.probe(ip, 22, s.env.probe_timeout).await)?;
    same("report.json api_port", &f.api_port, &DEFAULT_PORT)?;
    let version = s.worker_config().await.map_err(lab)?.version;
    same("report.json worker_config_changes", &f.worker_config_changes, &version.saturating_sub(1))?;
    same("report.json worker_restarts", &f.worker_restarts, &worker_restarts(s).await.map_err(lab)?)?;
    same("report.json rejected_field", &f.rejected_field, &"machine.nodeLabels".to_string())?;
    same("report.json rejected_field", &f.rejected_field, &rejected_field(s).await.map_err(lab)?)?;
    same("report.json broken_service", &f.broken_service, &KUBELET_SERVICE.to_string())?;
    // The crash loop stays in the kubelet's events (up to 64); a restarted node no longer shows it.
    if let Some(live) = broken_service(s).await.map_err(lab)? {
        same("report.json broken_service", &f.broken_service, &live)?;
    }
    let is_apply_line = f.apply_log_line.contains(machined_log::APPLY_REQUEST)
        || f.apply_log_line.contains(" OK [/machine.MachineService/ApplyConfiguration] ");
    ensure(is_apply_line, || tr!("s9-check-not-apply-line", line = super::json_text(&f.apply_log_line)))?;
    // `talosctl logs machined` prefixes each line with the node.
    let worker_prefix = format!("{}: ", s.env.worker);
    let line = f.apply_log_line.strip_prefix(&worker_prefix).unwrap_or(&f.apply_log_line);
    ensure(worker_machined_log(s).await?.iter().any(|l| l == line), || tr!("s9-check-line-not-in-log"))?;
    ensure(f.summary.chars().count() >= 80, || tr!("s9-check-summary-short", count = f.summary.chars().count()))?;
    Ok(tr!(
        "s9-check-pass",
        changes = f.worker_config_changes,
        restarts = f.worker_restarts,
        field = f.rejected_field.as_str(),
        service = f.broken_service.as_str()
    ))
}
