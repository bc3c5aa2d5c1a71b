//! Why the simulator could not start, or could not read or write its files.

use std::path::PathBuf;

use crate::pki;

/// Why the simulator could not start or write its files. Never carries key material.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// Certificate generation failed.
    #[error(transparent)]
    Pki(#[from] pki::PkiError),
    /// A socket or file operation failed.
    #[error("i/o: {0}")]
    Io(#[from] std::io::Error),
    /// Writing a file through `talos_client` failed.
    #[error(transparent)]
    Write(#[from] talos_client::Error),
    /// The TLS server could not be set up.
    #[error("tls setup: {0}")]
    Tls(String),
    /// No simulator environment file in a directory.
    #[error(
        "no simulated cluster at {}: {}: {source} (start one with `labctl sim up --dir {}`)",
        dir.display(),
        path.display(),
        dir.display()
    )]
    NoSim {
        /// The directory.
        dir: PathBuf,
        /// The missing file (`dir/sim.json`).
        path: PathBuf,
        /// Why it could not be read.
        source: std::io::Error,
    },
    /// The simulator environment file could not be read or parsed.
    #[error("invalid simulated cluster file {}: {reason}", path.display())]
    BadEnv {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Writing a file of the simulator's directory failed.
    #[error("cannot write {}: {reason}", path.display())]
    WriteFile {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}
