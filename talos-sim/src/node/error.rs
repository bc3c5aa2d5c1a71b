//! Why a node refuses a request: the gRPC code Talos answers with and the exact text, with no
//! transport attached (`server` maps it onto a gRPC status).

/// Why a node refused a request. The case names the gRPC code the API answers with; the text is
/// the status message, exactly as sent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NodeError {
    /// `InvalidArgument`: the request cannot be honoured as given (a config that does not
    /// validate, a change that cannot be applied in the requested mode).
    #[error("{0}")]
    InvalidArgument(String),
    /// `FailedPrecondition`: the node is busy with another request (an apply in progress).
    #[error("{0}")]
    FailedPrecondition(String),
    /// `NotFound`: no such resource.
    #[error("{0}")]
    NotFound(String),
    /// `Unimplemented`: not available on this node (the kubeconfig on a worker).
    #[error("{0}")]
    Unimplemented(String),
    /// `Unknown`: an error Talos does not classify (a log that was never registered).
    #[error("{0}")]
    Unknown(String),
}
