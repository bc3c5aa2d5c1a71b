//! The kubelet as Talos v1.13 starts it (docs/kubelet-flags.md §2): the argv Talos builds from
//! `machine.kubelet.extraArgs`, and how kubelet v1.36's flag parser reacts to it (§3, §4.1, §4.4).
//! Only flag *names* are checked, with the table in `talos_config::kubelet`; values are not
//! parsed (see the README).

use std::collections::BTreeMap;

use talos_go::quote;

use talos_config::kubelet::{Flag, check_flag};

/// The kubelet argv (without the binary) Talos renders for a node: Talos's own flags, overwritten
/// by extraArgs, sorted by key, one `--key=value` per value. `Err` carries Talos's deny-list
/// error (the KubeletSpec is then not updated).
pub fn argv(extra_args: &BTreeMap<String, Vec<String>>, hostname: &str, node_ip: &str) -> Result<Vec<String>, String> {
    let mut args: BTreeMap<String, Vec<String>> = BTreeMap::new();
    args.insert("bootstrap-kubeconfig".into(), vec!["/etc/kubernetes/bootstrap-kubeconfig".into()]);
    args.insert("cert-dir".into(), vec!["/var/lib/kubelet/pki".into()]);
    args.insert("config".into(), vec!["/etc/kubernetes/kubelet.yaml".into()]);
    args.insert("hostname-override".into(), vec![hostname.into()]);
    args.insert("kubeconfig".into(), vec!["/etc/kubernetes/kubeconfig-kubelet".into()]);
    args.insert("node-ip".into(), vec![node_ip.into()]);
    for (k, vs) in extra_args {
        if check_flag(k) == Flag::Denied {
            return Err(format!("error merging arguments: extra arg {} is not allowed", quote(k)));
        }
        args.insert(k.clone(), vs.clone());
    }
    Ok(args.iter().flat_map(|(k, vs)| vs.iter().map(move |v| format!("--{k}={v}"))).collect())
}

/// The error the kubelet's flag parsing stops at (the first bad argument in argv order), as the
/// kubelet wraps it: `failed to parse kubelet flag: ...`.
pub fn flag_error(argv: &[String]) -> Option<String> {
    for arg in argv {
        let body = arg.strip_prefix("--").unwrap_or(arg);
        if body.is_empty() || body.starts_with('-') || body.starts_with('=') {
            return Some(format!("failed to parse kubelet flag: bad flag syntax: {arg}"));
        }
        if let Flag::Unknown { name, .. } = check_flag(body.split('=').next().unwrap_or(body)) {
            return Some(format!("failed to parse kubelet flag: unknown flag: --{name}"));
        }
    }
    None
}

/// The klog line the kubelet prints before exiting 1 (`E<MMDD> <time> <pid> run.go:72] ...`).
pub fn command_failed_line(now: std::time::SystemTime, pid: u32, err: &str) -> String {
    let t = crate::util::Utc::from(now);
    format!(
        "E{:02}{:02} {:02}:{:02}:{:02}.{:06} {:>7} run.go:72] \"command failed\" err={}",
        t.month,
        t.day,
        t.hour,
        t.minute,
        t.second,
        t.micros,
        pid,
        quote(err)
    )
}

/// The service event Talos records when the kubelet exits with code 1.
pub fn restart_event(last_log: &str) -> String {
    format!(
        "Error running Containerd(kubelet), going to restart forever: task \"kubelet\" failed: exit code 1 (last log {})",
        quote(last_log)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_pod_is_unknown() {
        let mut extra = BTreeMap::new();
        extra.insert("max-pod".to_string(), vec!["150".to_string()]);
        let a = argv(&extra, "talos-default-worker-1", "10.5.0.3").unwrap();
        assert_eq!(
            a.join(" "),
            "--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubeconfig --cert-dir=/var/lib/kubelet/pki --config=/etc/kubernetes/kubelet.yaml --hostname-override=talos-default-worker-1 --kubeconfig=/etc/kubernetes/kubeconfig-kubelet --max-pod=150 --node-ip=10.5.0.3"
        );
        assert_eq!(flag_error(&a).unwrap(), "failed to parse kubelet flag: unknown flag: --max-pod");
        extra.insert("max_pods".to_string(), vec!["150".to_string()]);
        extra.remove("max-pod");
        assert_eq!(flag_error(&argv(&extra, "h", "1.2.3.4").unwrap()), None);
    }

    #[test]
    fn klog_line_and_event() {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_micros(1_787_653_207_512_345);
        let line = command_failed_line(t, 2450, "failed to parse kubelet flag: unknown flag: --max-pod");
        assert_eq!(
            line,
            "E0825 10:20:07.512345    2450 run.go:72] \"command failed\" err=\"failed to parse kubelet flag: unknown flag: --max-pod\""
        );
        assert_eq!(
            restart_event(&line),
            "Error running Containerd(kubelet), going to restart forever: task \"kubelet\" failed: exit code 1 (last log \"E0825 10:20:07.512345    2450 run.go:72] \\\"command failed\\\" err=\\\"failed to parse kubelet flag: unknown flag: --max-pod\\\"\")"
        );
    }
}
