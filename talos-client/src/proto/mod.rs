//! Code generated from `proto/` (prost messages, tonic clients and servers).
//!
//! The module tree mirrors the protobuf packages, so cross-package references in the generated code resolve:
//! `common`, `machine`, `cosi::resource` (+ `cosi::resource::meta`), `resource::config`,
//! `talos::resource::definitions::{enums, cluster, v1alpha1}` and `google::rpc`.
//! Well-known types map to `prost_types` (`Timestamp`, `Duration`, `Any`); `google.protobuf.Empty` maps to `()`.
//!
//! The generated files in `generated/` are committed, so that building the client needs neither protox nor
//! prost-build (they cost about a minute of a two-core build). With the `proto-codegen` feature (CI turns it on), a
//! unit test regenerates them from `proto/` with protox (no system `protoc`) and fails if they differ;
//! `TALOS_REGENERATE_PROTOS=1 cargo test -p talos-client --features proto-codegen --lib proto` rewrites them after
//! a change to a `.proto` file.

#![allow(missing_docs, clippy::all, clippy::pedantic)]

/// `package common`: the reply envelope (`Metadata`, `Data`, `Empty`) and shared types.
pub mod common {
    include!("generated/common.rs");
}

/// `package machine`: `MachineService` (Version, ServiceList, Logs, Kubeconfig, ApplyConfiguration).
pub mod machine {
    include!("generated/machine.rs");
}

/// COSI packages.
pub mod cosi {
    /// `package cosi.resource`: resources and the `State` service (Get, List, Watch).
    pub mod resource {
        include!("generated/cosi.resource.rs");

        /// `package cosi.resource.meta`: resource definitions.
        pub mod meta {
            include!("generated/cosi.resource.meta.rs");
        }
    }
}

/// Talos resource spec packages outside `talos.resource.definitions`.
pub mod resource {
    /// `package resource.config`: `MachineConfigSpec`.
    pub mod config {
        include!("generated/resource.config.rs");
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
                include!("generated/talos.resource.definitions.enums.rs");
            }
            /// `package talos.resource.definitions.cluster`: `MemberSpec`.
            pub mod cluster {
                include!("generated/talos.resource.definitions.cluster.rs");
            }
            /// `package talos.resource.definitions.v1alpha1`: `ServiceSpec`.
            pub mod v1alpha1 {
                include!("generated/talos.resource.definitions.v1alpha1.rs");
            }
        }
    }
}

/// `package google.rpc`: `Status`.
pub mod google {
    /// `package google.rpc`.
    pub mod rpc {
        include!("generated/google.rpc.rs");
    }
}

#[cfg(all(test, feature = "proto-codegen"))]
#[allow(clippy::expect_used)] // test code: a failure is a failed test
mod tests {
    use std::path::{Path, PathBuf};

    /// The `.proto` files compiled, relative to the repository's `proto/` folder.
    const PROTOS: &[&str] = &[
        "google/rpc/status.proto",
        "common.proto",
        "machine/machine.proto",
        "cosi/resource.proto",
        "cosi/state.proto",
        "cosi/meta.proto",
        "resource/config/config.proto",
        "talos/resource/definitions/enums.proto",
        "talos/resource/definitions/cluster.proto",
        "talos/resource/definitions/v1alpha1.proto",
    ];

    fn generate(into: &Path) {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../proto");
        let files: Vec<PathBuf> = PROTOS.iter().map(|p| root.join(p)).collect();
        let descriptors = protox::compile(&files, [&root]).expect("the protos compile");
        tonic_prost_build::configure()
            .build_server(true)
            .build_client(true)
            .out_dir(into)
            .compile_fds(descriptors)
            .expect("code is generated");
    }

    #[test]
    fn committed_code_matches_the_protos() {
        let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/proto/generated");
        let fresh = tempfile::tempdir().expect("temporary directory");
        generate(fresh.path());
        let mut names: Vec<String> = std::fs::read_dir(fresh.path())
            .expect("generated files")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        if std::env::var_os("TALOS_REGENERATE_PROTOS").is_some() {
            for name in &names {
                std::fs::copy(fresh.path().join(name), committed.join(name)).expect("copied");
            }
        }
        let mut stale = Vec::new();
        for name in &names {
            let new = std::fs::read(fresh.path().join(name)).expect("fresh file");
            if std::fs::read(committed.join(name)).ok() != Some(new) {
                stale.push(name.clone());
            }
        }
        assert!(
            stale.is_empty(),
            "src/proto/generated is stale for {stale:?}: run `TALOS_REGENERATE_PROTOS=1 cargo test -p talos-client --features proto-codegen --lib proto`"
        );
    }
}
