//! Code generated from `proto/` (prost messages, tonic clients and servers).
//!
//! The module tree mirrors the protobuf packages, so cross-package references in the generated code resolve:
//! `common`, `machine`, `cosi::resource` (+ `cosi::resource::meta`), `resource::config`,
//! `talos::resource::definitions::{enums, cluster, v1alpha1}` and `google::rpc`.
//! Well-known types map to `prost_types` (`Timestamp`, `Duration`, `Any`); `google.protobuf.Empty` maps to `()`.

#![allow(missing_docs, clippy::all, clippy::pedantic)]

/// `package common`: the reply envelope (`Metadata`, `Data`, `Empty`) and shared types.
pub mod common {
    tonic::include_proto!("common");
}

/// `package machine`: `MachineService` (Version, ServiceList, Logs, Kubeconfig, ApplyConfiguration).
pub mod machine {
    tonic::include_proto!("machine");
}

/// COSI packages.
pub mod cosi {
    /// `package cosi.resource`: resources and the `State` service (Get, List, Watch).
    pub mod resource {
        tonic::include_proto!("cosi.resource");

        /// `package cosi.resource.meta`: resource definitions.
        pub mod meta {
            tonic::include_proto!("cosi.resource.meta");
        }
    }
}

/// Talos resource spec packages outside `talos.resource.definitions`.
pub mod resource {
    /// `package resource.config`: `MachineConfigSpec`.
    pub mod config {
        tonic::include_proto!("resource.config");
    }
}

/// `package talos.*`.
pub mod talos {
    /// `package talos.resource`.
    pub mod resource {
        /// `package talos.resource.definitions`.
        pub mod definitions {
            /// `package talos.resource.definitions.enums`: `MachineType`.
            pub mod enums {
                tonic::include_proto!("talos.resource.definitions.enums");
            }
            /// `package talos.resource.definitions.cluster`: `MemberSpec`.
            pub mod cluster {
                tonic::include_proto!("talos.resource.definitions.cluster");
            }
            /// `package talos.resource.definitions.v1alpha1`: `ServiceSpec`.
            pub mod v1alpha1 {
                tonic::include_proto!("talos.resource.definitions.v1alpha1");
            }
        }
    }
}

/// `package google.rpc`: `Status`.
pub mod google {
    /// `package google.rpc`.
    pub mod rpc {
        tonic::include_proto!("google.rpc");
    }
}
