//! Step 2, the services running instead of a shell: running it and checking it.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Step 2: the service lists.
pub(super) async fn run(s: &Session) -> Result<(), LabError> {
    let file = services_now(s).await?;
    s.out.write_json(names::SERVICES, &file)?;
    println!(
        "{}",
        tr!(
            "s2-done",
            controlplane = file.controlplane.join(", "),
            worker = file.worker.join(", "),
            only = file.controlplane_only.join(", ")
        )
    );
    Ok(())
}

/// Grades step 2: its files against the live cluster.
pub(super) async fn check(s: &Session) -> Grade {
    let f: files::Services = need(s, names::SERVICES)?;
    let live = services_now(s).await.map_err(lab)?;
    same("services.json controlplane", &f.controlplane, &live.controlplane)?;
    same("services.json worker", &f.worker, &live.worker)?;
    same("services.json controlplane_only", &f.controlplane_only, &live.controlplane_only)?;
    Ok(tr!("s2-check-pass", controlplane = f.controlplane.len(), worker = f.worker.len()))
}
