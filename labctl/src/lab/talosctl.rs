//! What `talosctl patch mc` prints (all on stderr), so that `patch-out.txt` and `rejected.txt` hold talosctl's text.

use talos_client::ApplyResult;

/// The line talosctl prints per patched node, before the apply result, even when the apply fails.
pub fn patched_line(node: &str) -> String {
    format!("patched MachineConfigs.config.talos.dev/v1alpha1 at the node {node}\n")
}

/// A successful apply: the patched line, each warning as `WARNING: <w>`, then the node's mode details.
pub fn applied(node: &str, result: &ApplyResult) -> String {
    let mut out = patched_line(node);
    for w in &result.warnings {
        out.push_str(&format!("WARNING: {w}\n"));
    }
    if !result.details.is_empty() {
        out.push_str(&result.details);
        out.push('\n');
    }
    out
}

/// A failed apply: the patched line, then the error as talosctl reports a per-node failure — a go-multierror of
/// one (`1 error occurred:\n\t* <node>: rpc error: ...\n\n`) printed with `Fprintln` (one more `\n`).
pub fn failed(node: &str, error: &talos_client::Error) -> String {
    format!("{}1 error occurred:\n\t* {error}\n\n\n", patched_line(node))
}

#[cfg(test)]
mod tests {
    use talos_client::{ApplyMode, Code, Error};

    use super::*;

    #[test]
    fn step_7_text_is_talosctls() {
        let e = Error::status(
            Some("10.5.0.3".into()),
            Code::InvalidArgument,
            "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* invalid machine node labels: 1 error \
             occurred:\n\t* name \"bad key\" is invalid\n\n\n\n\n\n"
                .into(),
        );
        assert_eq!(
            failed("10.5.0.3", &e),
            "patched MachineConfigs.config.talos.dev/v1alpha1 at the node 10.5.0.3\n1 error occurred:\n\t* 10.5.0.3: \
             rpc error: code = InvalidArgument desc = 1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* \
             invalid machine node labels: 1 error occurred:\n\t* name \"bad key\" is invalid\n\n\n\n\n\n\n\n\n"
        );
    }

    #[test]
    fn step_6_text_is_talosctls() {
        let r = ApplyResult {
            node: "10.5.0.3".into(),
            mode: Some(ApplyMode::Try),
            details: "Applied configuration without a reboot\nThe config is applied in 'try' mode and will be \
                      automatically reverted back in 30s"
                .into(),
            warnings: vec![],
        };
        assert_eq!(
            applied("10.5.0.3", &r),
            "patched MachineConfigs.config.talos.dev/v1alpha1 at the node 10.5.0.3\nApplied configuration without a \
             reboot\nThe config is applied in 'try' mode and will be automatically reverted back in 30s\n"
        );
    }
}
