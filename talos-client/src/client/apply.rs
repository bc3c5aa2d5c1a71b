//! Applying configurations: `ApplyConfiguration` and the checked `patch mc`.

use std::time::Duration;

use super::resources::ACTIVE_CONFIG_ID;
use super::{Client, Target, machine_metadata, request};
use crate::error::{Code, Error, Result};
use crate::proto::machine::{self, apply_configuration_request::Mode as ProtoMode};
use crate::reply::single_reply;

/// How to apply a configuration (`--mode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ApplyMode {
    /// Live if possible, else with a reboot (talosctl's default).
    Auto,
    /// Live only; refused if the change needs a reboot.
    NoReboot,
    /// Persist and reboot.
    Reboot,
    /// Persist for the next boot.
    Staged,
    /// Live, rolled back after the try timeout unless confirmed by another apply.
    Try,
}

impl ApplyMode {
    /// The CLI name (`auto`, `no-reboot`, `reboot`, `staged`, `try`).
    pub fn as_str(self) -> &'static str {
        match self {
            ApplyMode::Auto => "auto",
            ApplyMode::NoReboot => "no-reboot",
            ApplyMode::Reboot => "reboot",
            ApplyMode::Staged => "staged",
            ApplyMode::Try => "try",
        }
    }

    /// The protobuf enum.
    pub fn to_proto(self) -> ProtoMode {
        match self {
            ApplyMode::Auto => ProtoMode::Auto,
            ApplyMode::NoReboot => ProtoMode::NoReboot,
            ApplyMode::Reboot => ProtoMode::Reboot,
            ApplyMode::Staged => ProtoMode::Staged,
            ApplyMode::Try => ProtoMode::Try,
        }
    }

    /// From the protobuf enum value (`None` if unknown).
    pub fn from_proto(value: i32) -> Option<ApplyMode> {
        Some(match ProtoMode::try_from(value).ok()? {
            ProtoMode::Auto => ApplyMode::Auto,
            ProtoMode::NoReboot => ApplyMode::NoReboot,
            ProtoMode::Reboot => ApplyMode::Reboot,
            ProtoMode::Staged => ApplyMode::Staged,
            ProtoMode::Try => ApplyMode::Try,
        })
    }
}

impl std::str::FromStr for ApplyMode {
    type Err = Error;

    fn from_str(s: &str) -> Result<ApplyMode> {
        match s {
            "auto" => Ok(ApplyMode::Auto),
            "no-reboot" => Ok(ApplyMode::NoReboot),
            "reboot" => Ok(ApplyMode::Reboot),
            "staged" => Ok(ApplyMode::Staged),
            "try" => Ok(ApplyMode::Try),
            other => Err(Error::config(format!(
                "invalid apply mode {other:?}: expected auto, no-reboot, reboot, staged or try"
            ))),
        }
    }
}

impl std::fmt::Display for ApplyMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// ApplyConfiguration options (talosctl's `--mode`, `--dry-run`, `--timeout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ApplyOptions {
    /// The mode.
    pub mode: ApplyMode,
    /// Only report what would happen.
    pub dry_run: bool,
    /// Try-mode rollback timeout (always sent, as talosctl does; the node uses it only in try mode).
    pub try_timeout: Duration,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions { mode: ApplyMode::Auto, dry_run: false, try_timeout: Duration::from_secs(60) }
    }
}

impl ApplyOptions {
    /// Options with this mode, no dry run, 1m try timeout.
    pub fn mode(mode: ApplyMode) -> ApplyOptions {
        ApplyOptions { mode, ..ApplyOptions::default() }
    }
}

/// What a node said to an apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApplyResult {
    /// The node.
    pub node: String,
    /// The resolved mode (`None` if the node sent an unknown value).
    pub mode: Option<ApplyMode>,
    /// `mode_details` (e.g. `Applied configuration without a reboot`, or the dry-run summary).
    pub details: String,
    /// Validation warnings.
    pub warnings: Vec<String>,
}

/// The outcome of [`Client::patch_machine_config`].
#[derive(Clone, PartialEq, Eq)]
pub struct PatchOutcome {
    /// The node.
    pub node: String,
    /// Resource version of the active config before the patch.
    pub version_before: String,
    /// Resource version after the apply (`None` for a dry run or when nothing changed).
    pub version_after: Option<String>,
    /// The node's answer (`None` when the patched config equals the current one: nothing is sent).
    pub apply: Option<ApplyResult>,
    /// The warnings of the local check (the node's warnings are in `apply`).
    pub local_warnings: Vec<String>,
    /// The patched config sent (or that would have been sent).
    pub config: Vec<u8>,
}

impl std::fmt::Debug for PatchOutcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatchOutcome")
            .field("node", &self.node)
            .field("version_before", &self.version_before)
            .field("version_after", &self.version_after)
            .field("apply", &self.apply)
            .field("local_warnings", &self.local_warnings)
            .field("config", &format_args!("<{} bytes>", self.config.len()))
            .finish()
    }
}

impl Client {
    /// `ApplyConfiguration` of a full config. A node's refusal is an [`Error`] with its code and Talos's text
    /// ([`crate::ErrorKind::Status`], or [`crate::ErrorKind::ApplyInProgress`] while another apply runs). The
    /// request is sent at most once: a connection lost after sending is [`crate::ErrorKind::OutcomeUnknown`]
    /// (a dry run, which changes nothing, is tried again on a fresh connection like a read).
    pub async fn apply_configuration(
        &self,
        target: &Target,
        data: &[u8],
        options: ApplyOptions,
    ) -> Result<ApplyResult> {
        let fallback = self.fallback(target);
        let message = machine::ApplyConfigurationRequest {
            data: data.to_vec(),
            mode: options.mode.to_proto() as i32,
            dry_run: options.dry_run,
            try_mode_timeout: Some(duration_proto(options.try_timeout)),
        };
        let metadata = &machine_metadata(target)?;
        let message = &message;
        let attempt = || async move { self.machine().apply_configuration(request(metadata, message.clone())).await };
        // A dry run changes nothing: it is a read.
        let reply = if options.dry_run {
            self.read("ApplyConfiguration", Some(&fallback), attempt).await?
        } else {
            self.write("ApplyConfiguration", &fallback, attempt).await?
        }
        .into_inner();
        let (node, a) = single_reply(reply.messages, &fallback)?;
        Ok(ApplyResult { node, mode: ApplyMode::from_proto(a.mode), details: a.mode_details, warnings: a.warnings })
    }

    /// `talosctl patch mc`, done carefully: reads the node's platform mode and Talos version (`Version`) and
    /// active machine config, merges the patches with `talos-config` as the node's release does (the supported
    /// release of its line, [`talos_config::Release::of_line`]; the default release for a line the engine does not
    /// know), checks the result exactly as the node would ([`talos_config::node::check_apply_for`], installed)
    /// and fails with [`crate::ErrorKind::Rejected`] (the node's text) without sending anything; otherwise applies
    /// it (nothing is sent if the config is unchanged) and reports the resource version before and after. Load
    /// strategic patches for a node of another line than the default with
    /// [`talos_config::load_patches_for`] and that release: a strategic patch loaded as another release is
    /// refused (a `talos-config` patch-load error) before anything is sent.
    pub async fn patch_machine_config(
        &self,
        node: &str,
        patches: &[talos_config::Patch],
        options: ApplyOptions,
    ) -> Result<PatchOutcome> {
        let target = Target::node(node);
        let version = self.version(&target).await?;
        let mode = local_check_mode(node, &version.platform_mode)?;
        let release = talos_config::Release::of_line(&version.tag).unwrap_or_default();
        let before = self.machine_config(&target, ACTIVE_CONFIG_ID).await?;
        let patched = talos_config::apply_patches_for(&before.bytes, patches, release)?;
        let local_warnings = talos_config::node::check_apply_for(&patched, mode, true, release)
            .map_err(|r| Error::rejected(node, Code::from_i32(r.code.number()), r.message))?;
        if patched == before.bytes {
            return Ok(PatchOutcome {
                node: node.to_string(),
                version_before: before.version,
                version_after: None,
                apply: None,
                local_warnings,
                config: patched,
            });
        }
        let apply = self.apply_configuration(&target, &patched, options).await?;
        let version_after =
            if options.dry_run { None } else { Some(self.machine_config(&target, ACTIVE_CONFIG_ID).await?.version) };
        Ok(PatchOutcome {
            node: node.to_string(),
            version_before: before.version,
            version_after,
            apply: Some(apply),
            local_warnings,
            config: patched,
        })
    }
}

/// The text Talos answers every MachineService call with in agent mode.
pub const AGENT_MODE_TEXT: &str = "API is not implemented in agent mode";

/// The validation mode for a node's reported platform mode, for [`Client::patch_machine_config`]'s local check.
/// A `metal-agent` node answers `ApplyConfiguration` with `Unimplemented` ([`AGENT_MODE_TEXT`]): refused as
/// [`crate::ErrorKind::Rejected`] with that code and text.
fn local_check_mode(node: &str, platform_mode: &str) -> Result<talos_config::Mode> {
    use talos_config::Mode;
    match platform_mode.parse::<Mode>() {
        Ok(Mode::MetalAgent) => Err(Error::rejected(node, Code::Unimplemented, AGENT_MODE_TEXT.to_string())),
        Ok(mode) => Ok(mode),
        Err(m) => Err(Error::protocol(Some(node), format!("node reports an unusable platform mode: {m}"))),
    }
}

fn duration_proto(d: Duration) -> prost_types::Duration {
    prost_types::Duration {
        seconds: i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
        nanos: i32::try_from(d.subsec_nanos()).unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn platform_modes_for_the_local_check() {
        use talos_config::Mode;
        assert_eq!(local_check_mode("n", "container").unwrap(), Mode::Container);
        assert_eq!(local_check_mode("n", "metal").unwrap(), Mode::Metal);
        assert_eq!(local_check_mode("n", "cloud").unwrap(), Mode::Cloud);
        let err = local_check_mode("10.5.0.3", "metal-agent").unwrap_err();
        assert_eq!(err.code(), Some(Code::Unimplemented));
        assert_eq!(err.message(), "API is not implemented in agent mode");
        assert_eq!(
            err.to_string(),
            "10.5.0.3: rpc error: code = Unimplemented desc = API is not implemented in agent mode"
        );
        let err = local_check_mode("n", "Metal").unwrap_err();
        assert_eq!(err.kind(), crate::ErrorKind::Protocol, "{err:?}");
        assert_eq!(err.code(), None);
    }

    #[test]
    fn apply_modes_round_trip() {
        for m in [ApplyMode::Auto, ApplyMode::NoReboot, ApplyMode::Reboot, ApplyMode::Staged, ApplyMode::Try] {
            assert_eq!(m.as_str().parse::<ApplyMode>().unwrap(), m);
            assert_eq!(ApplyMode::from_proto(m.to_proto() as i32), Some(m));
        }
        assert_eq!(ProtoMode::NoReboot as i32, 2);
        assert!("Auto".parse::<ApplyMode>().is_err());
        assert_eq!(ApplyMode::from_proto(99), None);
    }
}
