//! What a step's check reads and compares: the lab's files, a grade's helpers, and the patches' effect on the
//! pristine worker config.

use super::*;

/// A check's outcome: what passed, or the first thing that is wrong.
pub(super) type Grade = Result<String, String>;

pub(super) fn lab(e: LabError) -> String {
    e.message
}

pub(super) fn need<T: serde::de::DeserializeOwned>(s: &Session, name: &str) -> Result<T, String> {
    s.out.read_json::<T>(name).map_err(lab)?.ok_or_else(|| tr!("ev-missing", file = name))
}

/// An earlier step's file, when it is there and reads (its own check reports it otherwise).
pub(super) fn recorded<T: serde::de::DeserializeOwned>(s: &Session, name: &str) -> Option<T> {
    s.out.read_json::<T>(name).ok().flatten()
}

pub(super) fn need_text(s: &Session, name: &str) -> Result<String, String> {
    s.out.read(name).map_err(lab)?.ok_or_else(|| tr!("ev-missing", file = name))
}

pub(super) fn same<T: PartialEq + Serialize>(what: &str, file: &T, live: &T) -> Result<(), String> {
    if file == live {
        Ok(())
    } else {
        Err(tr!("ev-differs", what = what, file = json_text(file), live = json_text(live)))
    }
}

/// A value as JSON text (strings quoted the way the lab's files write them): what a learner reads in reasons.
pub fn json_text<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| tr!("ev-not-representable"))
}

pub(super) fn ensure(cond: bool, why: impl FnOnce() -> String) -> Result<(), String> {
    if cond { Ok(()) } else { Err(why()) }
}

pub(super) fn open(b: bool) -> String {
    if b { tr!("ev-open") } else { tr!("ev-closed") }
}

/// One cluster, one user, one context: a second `talosctl kubeconfig` into the same file merges (`-1` names).
pub(super) fn fetched_once(text: &str) -> Result<(), String> {
    let kc = kube::config::Kubeconfig::from_yaml(text).map_err(|e| format!("{}: {e}", names::KUBECONFIG))?;
    let counts = [
        ("clusters", kc.clusters.iter().map(|c| c.name.as_str()).collect::<Vec<_>>()),
        ("users", kc.auth_infos.iter().map(|u| u.name.as_str()).collect()),
        ("contexts", kc.contexts.iter().map(|c| c.name.as_str()).collect()),
    ];
    for (what, names_found) in counts {
        ensure(names_found.len() == 1, || {
            tr!(
                "ev-fetched-twice",
                file = names::KUBECONFIG,
                count = names_found.len(),
                what = what,
                names = names_found.join(", ")
            )
        })?;
    }
    Ok(())
}

pub(super) type Labels = BTreeMap<String, String>;
pub(super) type ExtraArgs = BTreeMap<String, Vec<String>>;

/// The labels and kubelet extraArgs a patch file produces on the pristine worker config.
pub(super) fn on_pristine(s: &Session, names_in_order: &[&str]) -> Result<(Labels, ExtraArgs), String> {
    let mut bytes = talos_sim::WORKER_CONFIG.to_vec();
    for name in names_in_order {
        let text = need_text(s, name)?;
        let patch = talos_config::load_patches([talos_config::PatchSource::new(format!("@{name}"), text)])
            .map_err(|e| format!("{name}: {e}"))?;
        ensure(patch.iter().all(|p| !p.is_json6902()), || tr!("ev-not-strategic-merge", file = *name))?;
        bytes = talos_config::apply_patches(&bytes, &patch).map_err(|e| format!("{name}: {e}"))?;
    }
    let w = crate::lab::session::WorkerConfig { bytes, version: 0 };
    Ok((w.node_labels(), w.kubelet_extra_args()))
}

pub(super) fn added<K: Ord + Clone, V: PartialEq + Clone>(
    before: &BTreeMap<K, V>,
    after: &BTreeMap<K, V>,
) -> BTreeMap<K, V> {
    after.iter().filter(|(k, v)| before.get(*k) != Some(*v)).map(|(k, v)| (k.clone(), v.clone())).collect()
}

/// Talos's service states other than Running (`talosctl service`'s STATE column).
pub(super) const DOWN_STATES: [&str; 8] =
    ["Waiting", "Preparing", "Starting", "Stopping", "Finished", "Failed", "Initialized", "Skipped"];

/// The worker's machined log, as far back as the node keeps it.
pub(super) async fn worker_machined_log(s: &Session) -> Result<Vec<String>, String> {
    s.log_lines(&s.env.worker, "machined", 100_000).await.map_err(lab)
}

/// The lab's files must tell one story: versions only grow, so a version a step recorded is at least (`strictly`:
/// above) the one an earlier step recorded, when that file is there.
pub(super) fn follows(later: (&str, u64), earlier: (&str, u64), step: u8, strictly: bool) -> Result<(), String> {
    let (later_what, later_value) = later;
    let (earlier_what, earlier_value) = earlier;
    let ok = if strictly { later_value > earlier_value } else { later_value >= earlier_value };
    ensure(ok, || {
        let (later, earlier) = (later_what, earlier_what);
        if strictly {
            tr!(
                "ev-follows-not-above",
                later = later,
                later_value = later_value,
                earlier = earlier,
                earlier_value = earlier_value,
                step = step
            )
        } else {
            tr!(
                "ev-follows-below",
                later = later,
                later_value = later_value,
                earlier = earlier,
                earlier_value = earlier_value,
                step = step
            )
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kubeconfig_fetched_twice_is_named() {
        let once = "apiVersion: v1\nkind: Config\nclusters:\n- name: talos-default\n  cluster:\n    server: \
                    https://10.5.0.2:6443\nusers:\n- name: admin@talos-default\n  user: {}\ncontexts:\n- name: \
                    admin@talos-default\n  context:\n    cluster: talos-default\n    user: admin@talos-default\n\
                    current-context: admin@talos-default\n";
        assert_eq!(fetched_once(once), Ok(()));
        let twice =
            once.replace("users:", "- name: talos-default-1\n  cluster:\n    server: https://10.5.0.2:6443\nusers:");
        assert_eq!(
            fetched_once(&twice),
            Err("kubeconfig holds 2 clusters (talos-default, talos-default-1): it must hold only the Talos cluster's \
                 (a second fetch into the same file merges; fetch it once, into a new file)"
                .to_string())
        );
    }
}
