//! What a separately running simulator tells its clients: `DIR/sim.json` with the paths of its
//! talosconfig and kubeconfig, its simulated containers and its port mappings.

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::SimError;
use crate::containers::Container;

/// The file name of the environment file in a simulator directory.
pub const SIM_JSON: &str = "sim.json";

/// Where a node's TCP port really is: a probe of `node:port` connects to `endpoint` on loopback.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortMapping {
    /// The node's lab address (`10.5.0.2`, `10.5.0.3`).
    pub node: IpAddr,
    /// The port on the node (`50000`, `6443`, `22`).
    pub port: u16,
    /// Where to connect instead (127.0.0.1). For a closed port, a port that is bound but not
    /// listening, so a connect is refused for real.
    pub endpoint: SocketAddr,
    /// Whether something listens there.
    pub open: bool,
}

/// The environment of a simulator running in another process, as `DIR/sim.json` holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimEnv {
    /// The admin talosconfig (absolute path).
    pub talosconfig: PathBuf,
    /// The admin kubeconfig (absolute path), pointing at the simulated Kubernetes API.
    pub kubeconfig: PathBuf,
    /// The simulated containers, control plane first.
    pub containers: Vec<Container>,
    /// The port mappings.
    pub ports: Vec<PortMapping>,
    /// The process id of the simulator that wrote the file.
    pub pid: u32,
}

impl SimEnv {
    /// Reads `dir/sim.json`. A missing file is [`SimError::NoSim`] (its message says how to start
    /// one); an unreadable or invalid one is [`SimError::BadEnv`].
    pub fn read(dir: &Path) -> Result<SimEnv, SimError> {
        let path = dir.join(SIM_JSON);
        let bytes = std::fs::read(&path).map_err(|source| {
            if source.kind() == std::io::ErrorKind::NotFound {
                SimError::NoSim { dir: dir.to_path_buf(), path: path.clone(), source }
            } else {
                SimError::BadEnv { path: path.clone(), reason: source.to_string() }
            }
        })?;
        serde_json::from_slice(&bytes).map_err(|e| SimError::BadEnv { path, reason: e.to_string() })
    }

    /// The mapping of `node:port`, if the simulator has one.
    pub fn port(&self, node: IpAddr, port: u16) -> Option<&PortMapping> {
        self.ports.iter().find(|p| p.node == node && p.port == port)
    }

    /// The container named `name`.
    pub fn container(&self, name: &str) -> Option<&Container> {
        self.containers.iter().find(|c| c.name == name)
    }
}
