//! The simulator's integration tests as one test binary: every client call end to end over real
//! mutual TLS (`e2e`: the lab's patches, `e2e_reads`, `e2e_tls`: certificates and roles), the
//! simulated Kubernetes API and containers (`kube`), and the wire format of the gRPC API (`wire`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod cosi;
mod e2e;
mod e2e_reads;
mod e2e_tls;
mod faults;
mod generated;
mod interop;
mod kube;
mod load;
mod proxy;
mod wire;
