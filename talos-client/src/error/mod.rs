//! The crate's one error type: what kind of failure, the node it concerns, Talos's status code and
//! text when a node answered, and the underlying cause as `source()`.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

pub use tonic::Code;

mod tls;

pub use tls::{RefusedBy, TlsRefusal};

/// Result alias for this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The error of a boxed cause.
type Cause = Box<dyn std::error::Error + Send + Sync + 'static>;

/// The text apid answers an apply with while another apply is running on the node.
pub const APPLY_IN_PROGRESS: &str = "another apply configuration is already in progress";

/// What kind of failure an [`Error`] is: the way to branch on errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The talosconfig could not be found, parsed or used, or a node target is malformed.
    Config,
    /// A local file could not be read or written.
    Io,
    /// No endpoint could be connected to (TCP, TLS handshake, timeout).
    Connect,
    /// One side of the TLS handshake refused the other's certificate ([`Error::tls_refusal`]).
    TlsRefused,
    /// A node answered with a gRPC status ([`Error::code`], [`Error::message`]).
    Status,
    /// The node refused the call for the caller's role (`PermissionDenied: not authorized`).
    NotAuthorized,
    /// The node refused an apply because another one is running on it: nothing was changed,
    /// and nothing was retried.
    ApplyInProgress,
    /// The configuration was checked locally as the node checks it and would be refused; nothing
    /// was sent.
    Rejected,
    /// A patch could not be loaded or applied locally.
    Patch,
    /// A reply could not be understood.
    Protocol,
    /// Something looked for is absent (e.g. a service id on no node).
    NotFound,
    /// A call got no answer within its deadline (the client options' call timeout).
    Timeout,
    /// The connection broke during a read (after one retry on a fresh connection, or in the
    /// middle of a stream that had already delivered data).
    ConnectionLost,
    /// An apply was sent, but its answer never came (the connection broke, or the call deadline
    /// passed): the node may or may not have applied it. Check the node's MachineConfig version
    /// before applying again.
    OutcomeUnknown,
}

/// Everything that can go wrong talking to Talos. No error ever holds key material, certificates
/// or tokens. Displayed as one line (a node's own text may span several) that says what to do
/// next; a node's gRPC status is displayed as grpc-go prints it.
///
/// ```
/// use talos_client::{Code, Error, ErrorKind};
///
/// let e = Error::status(Some("10.5.0.3".into()), Code::InvalidArgument, "bad label".into());
/// assert_eq!((e.kind(), e.node(), e.code()), (ErrorKind::Status, Some("10.5.0.3"), Some(Code::InvalidArgument)));
/// assert_eq!(e.to_string(), "10.5.0.3: rpc error: code = InvalidArgument desc = bad label");
/// ```
pub struct Error(Box<Repr>);

/// The data of each kind (private: callers use [`Error`]'s accessors).
#[derive(Debug, thiserror::Error)]
pub(crate) enum Repr {
    #[error("{message}")]
    Config { message: String },
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error(
        "failed to connect to {endpoint}: {message} (check that the node is up and that {endpoint} is its Talos API address)"
    )]
    Connect {
        endpoint: String,
        /// The transport's error chain in words.
        message: String,
        source: Option<Cause>,
    },
    #[error("{0}")]
    TlsRefused(TlsRefusal),
    #[error("{}rpc error: code = {} desc = {message}", node_prefix(node), code_name(*code))]
    Status { node: Option<String>, code: Code, message: String },
    #[error(
        "{}rpc error: code = PermissionDenied desc = not authorized (the role in the talosconfig's certificate may not make this call: {ROLE_RULES}; use a talosconfig with the role it needs)",
        node_prefix(node)
    )]
    NotAuthorized { node: Option<String> },
    #[error("{node}: rpc error: code = {} desc = {message}", code_name(*code))]
    Rejected { node: String, code: Code, message: String },
    #[error("{0}")]
    Patch(#[from] talos_config::Error),
    #[error("{}{message}", node_prefix(node))]
    Protocol { node: Option<String>, message: String },
    #[error("{message}")]
    NotFound { message: String },
    #[error(
        "{node}: no answer to {call} within {}: the node may be rebooting, overloaded or unreachable; check that it is up, or allow more time (the client's call timeout)",
        go_duration(*after)
    )]
    Timeout { call: &'static str, node: String, after: Duration },
    #[error("{}", lost_text(call, node, *delivered, *retried, source))]
    ConnectionLost {
        call: &'static str,
        node: String,
        /// What a stream had delivered before it broke, and what it counts (`line`, `event`);
        /// `None` for a call whose answer was not yet delivered.
        delivered: Option<(usize, &'static str)>,
        /// Whether the call was tried again on a fresh connection.
        retried: bool,
        source: tonic::Status,
    },
    #[error(
        "{node}: {call} was sent, but its answer never came ({}): the configuration may or may not have been applied; compare the node's MachineConfig version with the one before (`talosctl -n {node} get machineconfig`), then decide whether to apply again",
        transport_text(source)
    )]
    OutcomeUnknown { call: &'static str, node: String, source: tonic::Status },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &*self.0 {
            Repr::Io { source, .. } => Some(source),
            Repr::Connect { source: Some(source), .. } => Some(source.as_ref()),
            Repr::Patch(source) => Some(source),
            Repr::ConnectionLost { source, .. } | Repr::OutcomeUnknown { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<Repr> for Error {
    fn from(repr: Repr) -> Error {
        Error(Box::new(repr))
    }
}

impl From<talos_config::Error> for Error {
    fn from(e: talos_config::Error) -> Error {
        Repr::Patch(e).into()
    }
}

/// Which role Talos v1.13.9's calls need (machined's rules and the sensitive resources).
pub const ROLE_RULES: &str = "versions, services, logs and resources need os:reader, os:operator or os:admin; machine configs, the kubeconfig and applying a config need os:admin";

fn node_prefix(node: &Option<String>) -> String {
    match node {
        Some(n) => format!("{n}: "),
        None => String::new(),
    }
}

/// Go's text of a duration (`1m0s`, `300ms`), as Talos and talosctl print them.
pub(crate) fn go_duration(d: Duration) -> String {
    talos_config::model::Duration::from(d).to_string()
}

/// A transport failure in words: the status's text, then each cause not already in it.
fn transport_text(status: &tonic::Status) -> String {
    chain_text(status.message().to_string(), std::error::Error::source(status))
}

/// `first`, then the text of each cause in `source`'s chain that it does not already hold,
/// joined by `: `.
pub(crate) fn chain_text(first: String, mut source: Option<&(dyn std::error::Error + 'static)>) -> String {
    let mut text = first;
    while let Some(s) = source {
        let part = without_rustls_link(&s.to_string());
        if !part.is_empty() && !text.contains(&part) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&part);
        }
        source = s.source();
    }
    text
}

/// An error text without the link to rustls's manual that its unexpected-EOF error carries (a
/// pointer for TLS implementers, not for someone whose node went away).
fn without_rustls_link(text: &str) -> String {
    match text.find(": https://docs.rs/rustls/") {
        Some(at) => text[..at].to_string(),
        None => text.to_string(),
    }
}

fn lost_text(
    call: &str,
    node: &str,
    delivered: Option<(usize, &str)>,
    retried: bool,
    source: &tonic::Status,
) -> String {
    let cause = transport_text(source);
    match (delivered, retried) {
        (Some((n, unit)), _) => format!(
            "{node}: the connection was lost during {call} after {n} {unit}{} ({cause}): check that the node is up and run the command again",
            if n == 1 { "" } else { "s" }
        ),
        (None, true) => format!(
            "{node}: the connection was lost during {call} ({cause}), and again on a fresh connection: check that the node is up and run the command again"
        ),
        (None, false) => {
            format!(
                "{node}: the connection was lost during {call} ({cause}): check that the node is up and run the command again"
            )
        }
    }
}

impl Error {
    /// A node's gRPC status for a call (Talos's code and text, intact): [`ErrorKind::Status`],
    /// or [`ErrorKind::NotAuthorized`] / [`ErrorKind::ApplyInProgress`] for those answers.
    pub fn status(node: Option<String>, code: Code, message: String) -> Error {
        if code == Code::PermissionDenied && message == "not authorized" {
            return Repr::NotAuthorized { node }.into();
        }
        Repr::Status { node, code, message }.into()
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        match &*self.0 {
            Repr::Config { .. } => ErrorKind::Config,
            Repr::Io { .. } => ErrorKind::Io,
            Repr::Connect { .. } => ErrorKind::Connect,
            Repr::TlsRefused(_) => ErrorKind::TlsRefused,
            Repr::Status { code: Code::FailedPrecondition, message, .. } if message == APPLY_IN_PROGRESS => {
                ErrorKind::ApplyInProgress
            }
            Repr::Status { .. } => ErrorKind::Status,
            Repr::NotAuthorized { .. } => ErrorKind::NotAuthorized,
            Repr::Rejected { .. } => ErrorKind::Rejected,
            Repr::Patch(_) => ErrorKind::Patch,
            Repr::Protocol { .. } => ErrorKind::Protocol,
            Repr::NotFound { .. } => ErrorKind::NotFound,
            Repr::Timeout { .. } => ErrorKind::Timeout,
            Repr::ConnectionLost { .. } => ErrorKind::ConnectionLost,
            Repr::OutcomeUnknown { .. } => ErrorKind::OutcomeUnknown,
        }
    }

    /// The gRPC code a node answered with (or would answer with, for [`ErrorKind::Rejected`]);
    /// `DeadlineExceeded` for [`ErrorKind::Timeout`], `Unavailable` for a lost connection.
    pub fn code(&self) -> Option<Code> {
        match &*self.0 {
            Repr::Status { code, .. } | Repr::Rejected { code, .. } => Some(*code),
            Repr::NotAuthorized { .. } => Some(Code::PermissionDenied),
            Repr::Timeout { .. } => Some(Code::DeadlineExceeded),
            Repr::ConnectionLost { .. } | Repr::OutcomeUnknown { .. } => Some(Code::Unavailable),
            _ => None,
        }
    }

    /// The node the error concerns (as targeted, or the endpoint), when known.
    pub fn node(&self) -> Option<&str> {
        match &*self.0 {
            Repr::Status { node, .. } | Repr::Protocol { node, .. } | Repr::NotAuthorized { node } => node.as_deref(),
            Repr::Rejected { node, .. }
            | Repr::Timeout { node, .. }
            | Repr::ConnectionLost { node, .. }
            | Repr::OutcomeUnknown { node, .. } => Some(node),
            _ => None,
        }
    }

    /// The gRPC method that failed (`Version`, `ApplyConfiguration`, ...), for timeouts and lost
    /// connections.
    pub fn call(&self) -> Option<&'static str> {
        match &*self.0 {
            Repr::Timeout { call, .. } | Repr::ConnectionLost { call, .. } | Repr::OutcomeUnknown { call, .. } => {
                Some(call)
            }
            _ => None,
        }
    }

    /// Talos's own text for a node's status (the `desc` part) and for [`ErrorKind::Rejected`];
    /// else the display text.
    pub fn message(&self) -> String {
        match &*self.0 {
            Repr::Status { message, .. } | Repr::Rejected { message, .. } => message.clone(),
            Repr::NotAuthorized { .. } => "not authorized".to_string(),
            _ => self.to_string(),
        }
    }

    /// The certificate refusal, for [`ErrorKind::TlsRefused`].
    pub fn tls_refusal(&self) -> Option<&TlsRefusal> {
        match &*self.0 {
            Repr::TlsRefused(refusal) => Some(refusal),
            _ => None,
        }
    }

    pub(crate) fn config(message: impl Into<String>) -> Error {
        Repr::Config { message: message.into() }.into()
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Repr::Io { path: path.into(), source }.into()
    }

    pub(crate) fn connect(endpoint: String, message: String, source: Option<Cause>) -> Error {
        Repr::Connect { endpoint, message, source }.into()
    }

    pub(crate) fn tls_refused(refusal: TlsRefusal) -> Error {
        Repr::TlsRefused(refusal).into()
    }

    pub(crate) fn protocol(node: Option<&str>, message: impl Into<String>) -> Error {
        Repr::Protocol { node: node.map(str::to_owned), message: message.into() }.into()
    }

    pub(crate) fn rejected(node: &str, code: Code, message: String) -> Error {
        Repr::Rejected { node: node.to_string(), code, message }.into()
    }

    pub(crate) fn not_found(message: String) -> Error {
        Repr::NotFound { message }.into()
    }

    pub(crate) fn timeout(call: &'static str, node: &str, after: Duration) -> Error {
        Repr::Timeout { call, node: node.to_string(), after }.into()
    }

    pub(crate) fn connection_lost(
        call: &'static str,
        node: &str,
        delivered: Option<(usize, &'static str)>,
        retried: bool,
        source: tonic::Status,
    ) -> Error {
        Repr::ConnectionLost { call, node: node.to_string(), delivered, retried, source }.into()
    }

    pub(crate) fn outcome_unknown(call: &'static str, node: &str, source: tonic::Status) -> Error {
        Repr::OutcomeUnknown { call, node: node.to_string(), source }.into()
    }

    /// A config error whose text gets a prefix (the file it came from).
    pub(crate) fn with_config_prefix(self, prefix: &str) -> Error {
        match *self.0 {
            Repr::Config { message } => Error::config(format!("{prefix}: {message}")),
            other => other.into(),
        }
    }

    /// Converts a gRPC status a node answered for a call aimed at `node`.
    pub(crate) fn from_status(node: Option<&str>, status: &tonic::Status) -> Error {
        Error::status(node.map(str::to_owned), status.code(), transport_text(status))
    }
}

/// Whether a failed call's status came from the transport (the connection broke or could not be
/// made) rather than from a node: tonic gives transport failures a cause, a node's answer none.
pub(crate) fn is_transport(status: &tonic::Status) -> bool {
    std::error::Error::source(status).is_some()
}

/// The code's name as grpc-go prints it (`InvalidArgument`, `NotFound`, ...).
pub fn code_name(code: Code) -> &'static str {
    match code {
        Code::Ok => "OK",
        Code::Cancelled => "Canceled",
        Code::Unknown => "Unknown",
        Code::InvalidArgument => "InvalidArgument",
        Code::DeadlineExceeded => "DeadlineExceeded",
        Code::NotFound => "NotFound",
        Code::AlreadyExists => "AlreadyExists",
        Code::PermissionDenied => "PermissionDenied",
        Code::ResourceExhausted => "ResourceExhausted",
        Code::FailedPrecondition => "FailedPrecondition",
        Code::Aborted => "Aborted",
        Code::OutOfRange => "OutOfRange",
        Code::Unimplemented => "Unimplemented",
        Code::Internal => "Internal",
        Code::Unavailable => "Unavailable",
        Code::DataLoss => "DataLoss",
        Code::Unauthenticated => "Unauthenticated",
    }
}

/// Parses a grpc-go code name (the inverse of [`code_name`]).
pub fn code_from_name(name: &str) -> Option<Code> {
    (0..=16).map(Code::from_i32).find(|c| code_name(*c) == name)
}

/// A tiny helper to print a value without showing it (used by hand-written `Debug` impls).
pub(crate) struct Redacted<'a>(pub &'a str);

impl fmt::Debug for Redacted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn displays_like_grpc_go() {
        let e = Error::status(Some("10.5.0.2".into()), Code::InvalidArgument, "a\nb".into());
        assert_eq!(e.to_string(), "10.5.0.2: rpc error: code = InvalidArgument desc = a\nb");
        let e = Error::status(None, Code::Cancelled, "x".into());
        assert_eq!(e.to_string(), "rpc error: code = Canceled desc = x");
        assert_eq!(code_from_name("PermissionDenied"), Some(Code::PermissionDenied));
        assert_eq!(code_from_name("Nope"), None);
    }

    #[test]
    fn kinds_follow_talos_answers() {
        let busy = Error::status(Some("n".into()), Code::FailedPrecondition, APPLY_IN_PROGRESS.into());
        assert_eq!(busy.kind(), ErrorKind::ApplyInProgress);
        assert_eq!(busy.to_string(), format!("n: rpc error: code = FailedPrecondition desc = {APPLY_IN_PROGRESS}"));
        let denied = Error::status(None, Code::PermissionDenied, "not authorized".into());
        assert_eq!((denied.kind(), denied.code()), (ErrorKind::NotAuthorized, Some(Code::PermissionDenied)));
        let other = Error::status(None, Code::FailedPrecondition, "something else".into());
        assert_eq!(other.kind(), ErrorKind::Status);
    }

    #[test]
    fn lost_connections_keep_their_cause_and_say_what_to_do() {
        let cause = tonic::Status::unavailable("connection reset");
        let e = Error::connection_lost("Version", "10.5.0.3", None, true, cause.clone());
        assert_eq!(
            e.to_string(),
            "10.5.0.3: the connection was lost during Version (connection reset), and again on a fresh connection: check that the node is up and run the command again"
        );
        assert_eq!((e.kind(), e.call(), e.node()), (ErrorKind::ConnectionLost, Some("Version"), Some("10.5.0.3")));
        assert_eq!(e.source().map(|s| s.to_string()), Some(cause.to_string()));
        let e = Error::connection_lost("Logs", "10.5.0.3", Some((1, "line")), false, cause.clone());
        assert_eq!(
            e.to_string(),
            "10.5.0.3: the connection was lost during Logs after 1 line (connection reset): check that the node is up and run the command again"
        );
        let e = Error::outcome_unknown("ApplyConfiguration", "10.5.0.3", cause);
        assert_eq!(e.kind(), ErrorKind::OutcomeUnknown);
        assert_eq!(
            e.to_string(),
            "10.5.0.3: ApplyConfiguration was sent, but its answer never came (connection reset): the configuration may or may not have been applied; compare the node's MachineConfig version with the one before (`talosctl -n 10.5.0.3 get machineconfig`), then decide whether to apply again"
        );
    }

    #[test]
    fn timeouts_name_the_call_and_the_node() {
        let e = Error::timeout("Version", "10.5.0.2", Duration::from_millis(1500));
        assert_eq!(
            e.to_string(),
            "10.5.0.2: no answer to Version within 1.5s: the node may be rebooting, overloaded or unreachable; check that it is up, or allow more time (the client's call timeout)"
        );
        assert_eq!((e.kind(), e.code()), (ErrorKind::Timeout, Some(Code::DeadlineExceeded)));
    }

    #[test]
    fn io_errors_keep_the_os_error() {
        let e = Error::io("/x/config", std::io::Error::from(std::io::ErrorKind::NotFound));
        assert_eq!(e.to_string(), "/x/config: entity not found");
        assert_eq!(e.source().map(|s| s.to_string()).as_deref(), Some("entity not found"));
    }
}
