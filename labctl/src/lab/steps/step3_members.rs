//! Step 3, the cluster's members and the worker's MachineConfig version: running it and checking it.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Step 3: members, the Talos tag and the worker's MachineConfig version.
pub(super) async fn run(s: &Session) -> Result<(), LabError> {
    let (talos_version, members) = members_now(s).await?;
    let worker_mc_version = s.worker_config().await?.version;
    let file = files::Members { talos_version, members, worker_mc_version };
    s.out.write_json(names::MEMBERS, &file)?;
    println!(
        "{}",
        tr!(
            "s3-done",
            talos = file.talos_version.as_str(),
            members = file.members.keys().cloned().collect::<Vec<_>>().join(", "),
            version = file.worker_mc_version
        )
    );
    Ok(())
}

/// Grades step 3: its files against the live cluster.
pub(super) async fn check(s: &Session) -> Grade {
    let f: files::Members = need(s, names::MEMBERS)?;
    let (tag, members) = members_now(s).await.map_err(lab)?;
    same("members.json talos_version", &f.talos_version, &tag)?;
    same("members.json members", &f.members, &members)?;
    let now = s.worker_config().await.map_err(lab)?.version;
    ensure(f.worker_mc_version >= 1 && f.worker_mc_version <= now, || {
        tr!("s3-check-version-range", recorded = f.worker_mc_version, now = now)
    })?;
    Ok(tr!("s3-check-pass", talos = tag, members = members.len(), version = f.worker_mc_version))
}
