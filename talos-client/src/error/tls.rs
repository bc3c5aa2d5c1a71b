//! The crate's one error type.

use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

pub use tonic::Code;

/// Result alias for this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong talking to Talos. No variant ever holds key material, certificates or tokens.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The talosconfig could not be found, read, parsed or used (the message names the problem, never a secret).
    #[error("{message}")]
    Config {
        /// What is wrong.
        message: String,
    },
    /// A file could not be read or written.
    #[error("{}: {message}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error text.
        message: String,
    },
    /// No endpoint could be connected to (TCP, TLS handshake or certificate verification failed).
    #[error("failed to connect to {endpoint}: {message}")]
    Connect {
        /// The endpoint as `host:port`.
        endpoint: String,
        /// Why (the transport's error chain).
        message: String,
    },
    /// The TLS handshake with an endpoint failed because one side refused the other's
    /// certificate. Displayed as one sentence: who refused, the TLS reason, what to do.
    #[error("{0}")]
    TlsRefused(TlsRefusal),
    /// A gRPC status: the call failed, or a node's reply carried an in-band error.
    ///
    /// Displayed as grpc-go prints it, `rpc error: code = InvalidArgument desc = <Talos's message>`, prefixed by
    /// `<node>: ` when the error belongs to a node (as talosctl's `FilterMessages` does).
    #[error("{}rpc error: code = {} desc = {message}", node_prefix(node), code_name(*code))]
    Rpc {
        /// The node the error belongs to (the target string), when known.
        node: Option<String>,
        /// The gRPC status code.
        code: Code,
        /// Talos's message, intact (may span several lines).
        message: String,
    },
    /// The node refused the call for the caller's role (Talos's `PermissionDenied: not
    /// authorized`). Displayed as Talos's error, then which roles Talos's calls need.
    #[error(
        "{}rpc error: code = PermissionDenied desc = not authorized (the role in the talosconfig's certificate may not make this call: {ROLE_RULES}; use a talosconfig with the role it needs)",
        node_prefix(node)
    )]
    NotAuthorized {
        /// The node that refused, when known.
        node: Option<String>,
    },
    /// The configuration was checked locally exactly as the node would check it, and the node would refuse it.
    /// Nothing was sent. Displayed like the node's in-band error.
    #[error("{node}: rpc error: code = {} desc = {message}", code_name(*code))]
    Rejected {
        /// The node the configuration was meant for.
        node: String,
        /// The code the node would answer with (`InvalidArgument`).
        code: Code,
        /// The node's exact text.
        message: String,
    },
    /// A patch could not be loaded or applied locally.
    #[error("{0}")]
    Patch(#[from] talos_config::Error),
    /// A reply could not be understood (missing fields, undecodable spec, bad kubeconfig archive, ...).
    #[error("{}{message}", node_prefix(node))]
    Protocol {
        /// The node the reply came from, when known.
        node: Option<String>,
        /// What is wrong.
        message: String,
    },
    /// Something looked for is absent (e.g. a service id on no node).
    #[error("{message}")]
    NotFound {
        /// Talos-style text, e.g. `service "x" is not registered on any nodes`.
        message: String,
    },
    /// A call did not finish in time.
    #[error("{what} timed out after {after:?}")]
    Timeout {
        /// The call.
        what: String,
        /// The limit.
        after: Duration,
    },
}

/// Which side of a TLS handshake refused the other's certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RefusedBy {
    /// The server (apid) refused our client certificate: it sent a TLS alert.
    Server,
    /// We refused the server's certificate.
    Client,
}

/// A certificate refusal in the TLS handshake (see [`Error::TlsRefused`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsRefusal {
    /// The endpoint (`host:port`).
    pub endpoint: String,
    /// Who refused.
    pub refused_by: RefusedBy,
    /// The TLS reason: the alert the server sent (as Go names alerts, e.g. `bad certificate`),
    /// or why we refused the server's certificate.
    pub reason: String,
    /// What to do about it.
    pub hint: &'static str,
}

impl fmt::Display for TlsRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.refused_by {
            RefusedBy::Server => write!(
                f,
                "{} refused our client certificate (TLS alert: {}): {}",
                self.endpoint, self.reason, self.hint
            ),
            RefusedBy::Client => {
                write!(f, "the certificate of {} is not trusted ({}): {}", self.endpoint, self.reason, self.hint)
            }
        }
    }
}

impl TlsRefusal {
    /// The refusal a transport error chain holds, if any: a TLS alert received from the server,
    /// or our verifier's verdict on the server's certificate.
    pub(crate) fn find(endpoint: &str, error: &(dyn std::error::Error + 'static)) -> Option<TlsRefusal> {
        let mut next = Some(error);
        while let Some(e) = next {
            let tls = e.downcast_ref::<rustls::Error>().or_else(|| {
                e.downcast_ref::<std::io::Error>()
                    .and_then(|io| io.get_ref())
                    .and_then(|inner| inner.downcast_ref::<rustls::Error>())
            });
            if let Some(tls) = tls {
                return TlsRefusal::from_rustls(endpoint, tls);
            }
            // h2 passes an I/O error's own source on, not the error: the alert rustls received
            // is then only in the text.
            if let Some(alert) = received_alert(&e.to_string()) {
                return TlsRefusal::from_rustls(endpoint, &rustls::Error::AlertReceived(alert));
            }
            next = e.source();
        }
        None
    }

    fn from_rustls(endpoint: &str, error: &rustls::Error) -> Option<TlsRefusal> {
        use rustls::{AlertDescription as A, CertificateError as C};
        let (refused_by, reason, hint) = match error {
            rustls::Error::AlertReceived(alert) => {
                let hint = match alert {
                    A::UnknownCA => {
                        "the cluster does not know the CA that signed it: this talosconfig is for another cluster or an older CA; use a current talosconfig"
                    }
                    A::CertificateExpired => {
                        "it has expired or is not valid yet: make a new one (`talosctl config new` with a working talosconfig) and check the clock"
                    }
                    A::BadCertificate | A::UnsupportedCertificate => {
                        "Talos accepts only client certificates whose extended key usage is exactly client authentication, as `talosctl config new` makes them"
                    }
                    _ => "the server ended the handshake: check that the talosconfig belongs to this cluster",
                };
                (RefusedBy::Server, go_alert_name(*alert), hint)
            }
            rustls::Error::InvalidCertificate(problem) => {
                let hint = match problem {
                    C::UnknownIssuer | C::BadSignature => {
                        "it is not signed by the talosconfig's CA: the endpoint is another cluster's node, or the talosconfig's `ca` is out of date"
                    }
                    C::NotValidForName | C::NotValidForNameContext { .. } => {
                        "it does not name the endpoint: use the node's address as it appears in its certificate"
                    }
                    C::Expired | C::ExpiredContext { .. } | C::NotValidYet | C::NotValidYetContext { .. } => {
                        "it has expired or is not valid yet: check the node's clock"
                    }
                    _ => "check that the endpoint and the talosconfig's `ca` belong to the same cluster",
                };
                (RefusedBy::Client, certificate_problem(problem), hint)
            }
            _ => return None,
        };
        Some(TlsRefusal { endpoint: endpoint.to_string(), refused_by, reason, hint })
    }
}

/// The alert in rustls's `received fatal alert: <name>` text.
fn received_alert(text: &str) -> Option<rustls::AlertDescription> {
    let (_, name) = text.split_once("received fatal alert: ")?;
    let name = name.split(|c: char| !c.is_ascii_alphanumeric()).next()?;
    (0..=u8::MAX).map(rustls::AlertDescription::from).find(|alert| format!("{alert:?}") == name)
}

/// A TLS alert as Go's `crypto/tls` names it (`bad certificate`, `unknown certificate
/// authority`, ...).
fn go_alert_name(alert: rustls::AlertDescription) -> String {
    use rustls::AlertDescription as A;
    match alert {
        A::BadCertificate => "bad certificate".into(),
        A::UnsupportedCertificate => "unsupported certificate".into(),
        A::CertificateRevoked => "revoked certificate".into(),
        A::CertificateExpired => "expired certificate".into(),
        A::CertificateUnknown => "unknown certificate".into(),
        A::UnknownCA => "unknown certificate authority".into(),
        A::AccessDenied => "access denied".into(),
        A::HandshakeFailure => "handshake failure".into(),
        A::CertificateRequired => "certificate required".into(),
        A::DecryptError => "error decrypting message".into(),
        other => format!("alert {}", u8::from(other)),
    }
}

/// Why our verifier refused the server's certificate, in words.
fn certificate_problem(problem: &rustls::CertificateError) -> String {
    use rustls::CertificateError as C;
    match problem {
        C::UnknownIssuer => "signed by an unknown authority".into(),
        C::BadSignature => "its signature does not verify against the CA".into(),
        C::NotValidForName | C::NotValidForNameContext { .. } => "not valid for this address".into(),
        C::Expired | C::ExpiredContext { .. } => "expired".into(),
        C::NotValidYet | C::NotValidYetContext { .. } => "not valid yet".into(),
        C::InvalidPurpose | C::InvalidPurposeContext { .. } => "not issued for servers".into(),
        C::Revoked => "revoked".into(),
        _ => "unacceptable".into(),
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

impl Error {
    /// The gRPC code, for [`Error::Rpc`] and [`Error::Rejected`] (and `DeadlineExceeded` for timeouts).
    pub fn code(&self) -> Option<Code> {
        match self {
            Error::Rpc { code, .. } | Error::Rejected { code, .. } => Some(*code),
            Error::NotAuthorized { .. } => Some(Code::PermissionDenied),
            Error::Timeout { .. } => Some(Code::DeadlineExceeded),
            _ => None,
        }
    }

    /// The node the error belongs to, when known.
    pub fn node(&self) -> Option<&str> {
        match self {
            Error::Rpc { node, .. } | Error::Protocol { node, .. } | Error::NotAuthorized { node } => node.as_deref(),
            Error::Rejected { node, .. } => Some(node),
            _ => None,
        }
    }

    /// Talos's message for [`Error::Rpc`] and [`Error::Rejected`] (the `desc` part), else the display text.
    pub fn message(&self) -> String {
        match self {
            Error::Rpc { message, .. } | Error::Rejected { message, .. } => message.clone(),
            Error::NotAuthorized { .. } => "not authorized".to_string(),
            other => other.to_string(),
        }
    }

    pub(crate) fn config(message: impl Into<String>) -> Error {
        Error::Config { message: message.into() }
    }

    pub(crate) fn protocol(node: Option<&str>, message: impl Into<String>) -> Error {
        Error::Protocol { node: node.map(str::to_owned), message: message.into() }
    }

    /// Converts a gRPC status received for a call aimed at `node`.
    pub(crate) fn from_status(node: Option<&str>, status: &tonic::Status) -> Error {
        let mut message = status.message().to_string();
        // Transport failures carry their cause as a source chain; server statuses have none.
        let mut source = std::error::Error::source(status);
        while let Some(s) = source {
            let text = s.to_string();
            if !text.is_empty() && !message.contains(&text) {
                if !message.is_empty() {
                    message.push_str(": ");
                }
                message.push_str(&text);
            }
            source = s.source();
        }
        Error::rpc(node.map(str::to_owned), status.code(), message)
    }

    /// A gRPC error from a node: [`Error::NotAuthorized`] for Talos's role refusal, else
    /// [`Error::Rpc`].
    pub(crate) fn rpc(node: Option<String>, code: Code, message: String) -> Error {
        if code == Code::PermissionDenied && message == "not authorized" {
            return Error::NotAuthorized { node };
        }
        Error::Rpc { node, code, message }
    }
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
    use super::*;

    #[test]
    fn displays_like_grpc_go() {
        let e = Error::Rpc { node: Some("10.5.0.2".into()), code: Code::InvalidArgument, message: "a\nb".into() };
        assert_eq!(e.to_string(), "10.5.0.2: rpc error: code = InvalidArgument desc = a\nb");
        let e = Error::Rpc { node: None, code: Code::Cancelled, message: "x".into() };
        assert_eq!(e.to_string(), "rpc error: code = Canceled desc = x");
        assert_eq!(code_from_name("PermissionDenied"), Some(Code::PermissionDenied));
        assert_eq!(code_from_name("Nope"), None);
    }

    #[test]
    fn alerts_are_read_from_rustls_text_and_named_as_go_names_them() {
        let alert = received_alert("transport error: connection error: received fatal alert: BadCertificate");
        assert_eq!(alert, Some(rustls::AlertDescription::BadCertificate));
        assert_eq!(received_alert("received fatal alert: NoSuchAlert"), None);
        assert_eq!(received_alert("connection reset"), None);
        assert_eq!(go_alert_name(rustls::AlertDescription::UnknownCA), "unknown certificate authority");
        assert_eq!(go_alert_name(rustls::AlertDescription::from(200)), "alert 200");
    }

    #[test]
    fn a_refusal_reads_as_one_sentence() {
        let refusal = TlsRefusal::from_rustls(
            "10.5.0.2:50000",
            &rustls::Error::AlertReceived(rustls::AlertDescription::CertificateExpired),
        );
        assert_eq!(
            refusal.map(|r| Error::TlsRefused(r).to_string()).as_deref(),
            Some(
                "10.5.0.2:50000 refused our client certificate (TLS alert: expired certificate): it has expired or is not valid yet: make a new one (`talosctl config new` with a working talosconfig) and check the clock"
            )
        );
        assert_eq!(TlsRefusal::from_rustls("x:1", &rustls::Error::HandshakeNotComplete), None);
    }
}
