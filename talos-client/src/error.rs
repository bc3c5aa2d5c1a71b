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
            Error::Timeout { .. } => Some(Code::DeadlineExceeded),
            _ => None,
        }
    }

    /// The node the error belongs to, when known.
    pub fn node(&self) -> Option<&str> {
        match self {
            Error::Rpc { node, .. } | Error::Protocol { node, .. } => node.as_deref(),
            Error::Rejected { node, .. } => Some(node),
            _ => None,
        }
    }

    /// Talos's message for [`Error::Rpc`] and [`Error::Rejected`] (the `desc` part), else the display text.
    pub fn message(&self) -> String {
        match self {
            Error::Rpc { message, .. } | Error::Rejected { message, .. } => message.clone(),
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
        Error::Rpc { node: node.map(str::to_owned), code: status.code(), message }
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
}
