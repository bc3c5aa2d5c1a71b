//! Step 1, no shell, no SSH: docker exec sh and the ports: running it and checking it.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Step 1: `docker exec <controlplane> sh`, the node IP, ports 22 and 50000.
pub(super) async fn run(s: &Session) -> Result<(), LabError> {
    let t = s.env.probe_timeout;
    let exec = s.env.containers.exec(CONTROLPLANE_CONTAINER, &["sh"], Duration::from_secs(30)).await?;
    if !is_no_shell(&exec) {
        return Err(LabError::new(tr!(
            "s1-exec-unexpected",
            container = CONTROLPLANE_CONTAINER,
            code = exec.exit_code,
            output = super::json_text(&exec.first_line())
        )));
    }
    let inspect = s.env.containers.inspect(CONTROLPLANE_CONTAINER, Duration::from_secs(30)).await?;
    let ip = parse_ip(&inspect.ip, &tr!("s1-container-address"))?;
    let port22_open = s.env.ports.probe(ip, 22, t).await;
    let port50000_open = s.env.ports.probe(ip, DEFAULT_PORT, t).await;
    let file = files::NoShell {
        container: CONTROLPLANE_CONTAINER.to_string(),
        node_ip: inspect.ip.clone(),
        exec_sh_exit: exec.exit_code,
        exec_sh_error: exec.first_line(),
        port22_open,
        port50000_open,
    };
    s.out.write_json(names::NOSHELL, &file)?;
    println!(
        "{}",
        tr!(
            "s1-done",
            container = CONTROLPLANE_CONTAINER,
            code = file.exec_sh_exit,
            error = file.exec_sh_error.as_str(),
            ip = file.node_ip.as_str(),
            ssh_state = open(port22_open),
            port = DEFAULT_PORT,
            api_state = open(port50000_open)
        )
    );
    Ok(())
}

/// Grades step 1: its files against the live cluster.
pub(super) async fn check(s: &Session) -> Grade {
    let f: files::NoShell = need(s, names::NOSHELL)?;
    let t = Duration::from_secs(30);
    let inspect = s.env.containers.inspect(CONTROLPLANE_CONTAINER, t).await.map_err(lab)?;
    same("noshell.json container", &f.container, &CONTROLPLANE_CONTAINER.to_string())?;
    same("noshell.json node_ip", &f.node_ip, &inspect.ip)?;
    ensure(f.exec_sh_exit == 126 || f.exec_sh_exit == 127, || tr!("s1-check-exit-code", code = f.exec_sh_exit))?;
    ensure(is_oci_no_shell_line(&f.exec_sh_error), || {
        tr!("s1-check-not-oci-line", error = super::json_text(&f.exec_sh_error))
    })?;
    ensure(!f.exec_sh_error.contains('\n') && !f.exec_sh_error.contains('\r'), || tr!("s1-check-multi-line"))?;
    let ip: std::net::IpAddr =
        f.node_ip.parse().map_err(|_| tr!("s1-check-not-ip", ip = super::json_text(&f.node_ip)))?;
    let p22 = s.env.ports.probe(ip, 22, s.env.probe_timeout).await;
    let p50000 = s.env.ports.probe(ip, DEFAULT_PORT, s.env.probe_timeout).await;
    same("noshell.json port22_open", &f.port22_open, &p22)?;
    same("noshell.json port50000_open", &f.port50000_open, &p50000)?;
    Ok(tr!("s1-check-pass", code = f.exec_sh_exit, ssh_state = open(p22), api_state = open(p50000)))
}
