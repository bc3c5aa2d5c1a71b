//! Step 7, a patch that validation rejects: running it and checking it.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Step 7: a label name with a space, sent to the node, which rejects it.
pub(super) async fn run(s: &Session, force: bool) -> Result<(), LabError> {
    s.out.write(names::BAD_PATCH, files::BAD_PATCH_TEXT.as_bytes())?;
    let patch = patch_of(names::BAD_PATCH, files::BAD_PATCH_TEXT)?;
    let worker = s.env.worker.clone();
    s.guard_pending_try(&worker, force).await?;
    let before = s.worker_config().await?;
    let merged = talos_config::apply_patches(&before.bytes, &patch)
        .map_err(|e| LabError::new(format!("{}: {e}", names::BAD_PATCH)))?;
    let predicted = rejection_of(s, &merged).await?;
    // The lab asks to try the apply: it is sent to the node (labctl's own check would stop it), so that the node's
    // own validation answers.
    let target = Target::node(&worker);
    let answer = s.env.talos.apply_configuration(&target, &merged, ApplyOptions::mode(ApplyMode::NoReboot)).await;
    let after = s.worker_config().await?;
    match answer {
        Ok(result) => {
            s.out.write(names::REJECTED_OUT, super::talosctl::applied(&worker, &result).as_bytes())?;
            Err(LabError::new(tr!("s7-accepted", file = names::BAD_PATCH)))
        }
        Err(e) => {
            let text = super::talosctl::failed(&worker, &e);
            // rejected.txt keeps talosctl's text byte for byte; the screen shows the node's answer without
            // talosctl's "patched" line (which reads like success) and its trailing blank lines.
            let patched = super::talosctl::patched_line(&worker);
            eprintln!("{}", tr!("s7-sent", file = names::BAD_PATCH, worker = worker.as_str()));
            eprintln!("{}", text.strip_prefix(&patched).unwrap_or(&text).trim_end_matches('\n'));
            s.out.write(names::REJECTED_OUT, text.as_bytes())?;
            if e.code() != Some(talos_client::Code::InvalidArgument) {
                return Err(LabError::new(tr!("s7-not-validation", error = e.to_string())));
            }
            let file = files::Rejected { version_before: before.version, version_after: after.version };
            s.out.write_json(names::REJECTED, &file)?;
            let agreed = matches!((&predicted, &e),
                (Some(p), e) if e.kind() == talos_client::ErrorKind::Status && p.message == e.message());
            let (before, after) = (file.version_before, file.version_after);
            let line = if agreed {
                tr!("s7-done", worker = worker.as_str(), before = before, after = after)
            } else {
                tr!("s7-done-unlike", worker = worker.as_str(), before = before, after = after)
            };
            println!("{line}");
            Ok(())
        }
    }
}

/// Grades step 7: its files against the live cluster.
pub(super) async fn check(s: &Session) -> Grade {
    let (base_labels, _) = on_pristine(s, &[])?;
    let (labels, _) = on_pristine(s, &[names::BAD_PATCH])?;
    let want: BTreeMap<String, String> = [(BAD_LABEL.to_string(), BAD_LABEL_VALUE.to_string())].into();
    same(&tr!("labels-added", file = names::BAD_PATCH), &added(&base_labels, &labels), &want)?;
    let text = need_text(s, names::BAD_PATCH)?;
    let patch = talos_config::load_patches([talos_config::PatchSource::new(format!("@{}", names::BAD_PATCH), text)])
        .map_err(|e| e.to_string())?;
    let config = s.worker_config().await.map_err(lab)?;
    let merged = talos_config::apply_patches(&config.bytes, &patch).map_err(|e| e.to_string())?;
    let rejection = rejection_of(s, &merged)
        .await
        .map_err(lab)?
        .ok_or_else(|| tr!("live-bad-patch-passes", file = names::BAD_PATCH))?;
    let worker = s.env.worker.clone();
    let error = talos_client::Error::status(Some(worker.clone()), Code::InvalidArgument, rejection.message);
    let predicted = super::talosctl::failed(&worker, &error);
    let got = need_text(s, names::REJECTED_OUT)?;
    // The node's own words are the evidence: its text is checked for shape, and compared with labctl's prediction
    // only to say whether they agree.
    let head = format!(
        "{}1 error occurred:\n\t* {worker}: rpc error: code = InvalidArgument desc = ",
        super::talosctl::patched_line(&worker)
    );
    ensure(got.starts_with(&head), || {
        tr!("s7-check-head", file = names::REJECTED_OUT, head = super::json_text(&head))
    })?;
    // Talos's words for the label name with a space.
    let invalid = "name \"team name\" is invalid";
    ensure(got.contains(invalid), || tr!("s7-check-label-not-named", file = names::REJECTED_OUT, expected = invalid))?;
    let f: files::Rejected = need(s, names::REJECTED)?;
    if let Some(t) = recorded::<files::Try>(s, names::TRY) {
        follows(
            ("rejected.json version_before", f.version_before),
            ("try.json version_after_revert", t.version_after_revert),
            7,
            false,
        )?;
    }
    ensure(f.version_before == f.version_after, || {
        tr!("s7-check-versions-differ", before = f.version_before, after = f.version_after)
    })?;
    ensure(!config.node_labels().contains_key(BAD_LABEL), || tr!("s7-check-config-bad-label"))?;
    Ok(if got == predicted {
        tr!("s7-check-pass", version = f.version_before)
    } else {
        tr!("s7-check-pass-unlike", version = f.version_before)
    })
}
