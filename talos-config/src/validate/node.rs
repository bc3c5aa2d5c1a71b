//! What a Talos node does with a config it receives through
//! `MachineService.ApplyConfiguration` before applying it (docs/merge.md §10.3, docs/validation.md
//! §9.2): load, require the v1alpha1 document, validate in the node's mode (never strict),
//! then run the node-only runtime checks.

use super::{Issue, Mode, Options, ValidationError};
use crate::Config;

/// The gRPC status code a node answers with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Code {
    /// `InvalidArgument` (3): the config does not load or does not validate.
    InvalidArgument,
}

impl Code {
    /// The numeric gRPC code.
    pub fn number(self) -> i32 {
        match self {
            Code::InvalidArgument => 3,
        }
    }

    /// The name grpc-go prints (`rpc error: code = InvalidArgument desc = ...`).
    pub fn name(self) -> &'static str {
        match self {
            Code::InvalidArgument => "InvalidArgument",
        }
    }
}

/// A node's refusal: the status code and message a client receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The gRPC status code.
    pub code: Code,
    /// The status message (Talos's text, no trailing newline added).
    pub message: String,
    /// The validation error tree (with field paths) when validation refused the config.
    pub validation: Option<ValidationError>,
}

impl std::fmt::Display for Rejection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rpc error: code = {} desc = {}", self.code.name(), self.message)
    }
}

impl std::error::Error for Rejection {}

/// The message a node gives when the config has no v1alpha1 document.
pub(crate) const NO_V1ALPHA1: &str = "the applied machine configuration doesn't contain v1alpha1 config, did you mean to patch the machine config instead?";

/// Checks `bytes` exactly as a node in `mode` does on `ApplyConfiguration` (not in maintenance
/// mode). Returns the warnings the node would report, or its refusal.
///
/// ```
/// use talos_config::{Mode, node};
/// let err = node::check_apply(b"version: v1alpha1\npersist: true\n", Mode::Container, false).unwrap_err();
/// assert_eq!(err.code, node::Code::InvalidArgument);
/// assert_eq!(err.message, "1 error occurred:\n\t* v1alpha1.Config: 1 error occurred:\n\t* machine instructions are required\n\n\n\n");
/// ```
pub fn check_apply(bytes: &[u8], mode: Mode, installed: bool) -> Result<Vec<String>, Rejection> {
    check_apply_for(bytes, mode, installed, crate::Release::DEFAULT)
}

/// [`check_apply`] as a node running `release` checks the config.
pub fn check_apply_for(
    bytes: &[u8],
    mode: Mode,
    installed: bool,
    release: crate::Release,
) -> Result<Vec<String>, Rejection> {
    let config = Config::from_bytes_for(bytes, release).map_err(|e| Rejection {
        code: Code::InvalidArgument,
        message: e.to_string(),
        validation: None,
    })?;
    let Some(v1) = config.get::<crate::model::v1alpha1::Config>() else {
        return Err(Rejection { code: Code::InvalidArgument, message: NO_V1ALPHA1.into(), validation: None });
    };
    let report = config.validate(mode, Options { strict: false, installed, node: true });
    let runtime = || super::v1alpha1::runtime_validate_for(v1, mode, installed, config.release());
    let runtime_issue = |errors: Vec<Issue>| (!errors.is_empty()).then(|| Issue::list("v1alpha1.Config", None, errors));
    let refused = |err: ValidationError| Rejection {
        code: Code::InvalidArgument,
        message: err.to_string(),
        validation: Some(err),
    };
    // v1.14 (`ValidateAtRuntime`) runs both and reports one list; before, a node stopped at
    // the first that failed.
    if release.rules().container_validation {
        let runtime = runtime();
        let mut issues = report.error.map(|e| e.issues).unwrap_or_default();
        issues.extend(runtime_issue(runtime.errors));
        if !issues.is_empty() {
            return Err(refused(ValidationError { issues }));
        }
        let mut warnings = report.warnings;
        warnings.extend(runtime.warnings.into_iter().map(|w| w.message));
        return Ok(warnings);
    }
    if let Some(err) = report.error {
        return Err(refused(err));
    }
    let runtime = runtime();
    if let Some(issue) = runtime_issue(runtime.errors) {
        return Err(refused(ValidationError { issues: vec![issue] }));
    }
    let mut warnings = report.warnings;
    warnings.extend(runtime.warnings.into_iter().map(|w| w.message));
    Ok(warnings)
}
