//! The Talos v1.13 gRPC API over mutual TLS.

/// Generated protobuf types.
pub mod proto {
    /// `package common`.
    pub mod common {
        tonic::include_proto!("common");
    }
}
