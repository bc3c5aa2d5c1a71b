//! Simulated Talos v1.13 nodes (placeholder).
