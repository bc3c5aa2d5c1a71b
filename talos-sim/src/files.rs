//! What a client in another process needs from a running [`Sim`]: the talosconfigs (admin and
//! per role), the kubeconfig, the saved PKI and `sim.json`, as bytes for `labctl sim up` to write.

use std::path::Path;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

use crate::{CONTEXT, CertKey, DirFile, PKI_JSON, Sim, SimEnv, SimError, env};

impl Sim {
    /// What a directory describing this cluster holds, for a client in another process: the
    /// files `dir/talosconfig` (admin), `dir/talosconfig-operator`, `dir/talosconfig-reader`,
    /// `dir/kubeconfig`, `dir/pki.json` (the [`SavedPki`](crate::SavedPki) for the next start)
    /// and `dir/sim.json` with their bytes, all of them private (write them mode 0600), and the description
    /// `sim.json` holds (the absolute paths of the admin talosconfig and the kubeconfig, the
    /// containers, the port mappings and this process's id), which [`SimEnv::read`] reads back.
    /// Writes nothing: `labctl sim up` writes the files.
    pub fn dir_files(&self, dir: &Path) -> Result<(SimEnv, Vec<DirFile>), SimError> {
        let failed = |path: &Path, e: &dyn std::fmt::Display| SimError::WriteFile {
            path: path.to_path_buf(),
            reason: e.to_string(),
        };
        let dir = std::path::absolute(dir).map_err(|e| failed(dir, &e))?;
        let env = SimEnv {
            talosconfig: dir.join("talosconfig"),
            kubeconfig: dir.join("kubeconfig"),
            containers: self.containers(),
            ports: self.ports(),
            pid: std::process::id(),
        };
        let path = dir.join(env::SIM_JSON);
        let mut json = serde_json::to_vec_pretty(&env).map_err(|e| failed(&path, &e))?;
        json.push(b'\n');
        let endpoint = self.controlplane.endpoint.to_string();
        let mut files = vec![(env.talosconfig.clone(), self.talosconfig_yaml().into_bytes())];
        for (name, identity) in self.identities.iter().filter(|(name, _)| name.as_str() != "admin") {
            let talosconfig = Sim::talosconfig_for(&endpoint, self.pki.ca_pem(), identity);
            files.push((dir.join(format!("talosconfig-{name}")), talosconfig.into_bytes()));
        }
        let pki_path = dir.join(PKI_JSON);
        let mut pki = serde_json::to_vec_pretty(&self.saved_pki()?).map_err(|e| failed(&pki_path, &e))?;
        pki.push(b'\n');
        files.push((pki_path, pki));
        files.push((env.kubeconfig.clone(), self.kubeconfig.clone()));
        files.push((path, json));
        Ok((env, files))
    }

    /// A talosconfig (YAML) for `endpoint` with the given client identity: context
    /// `talos-default`, no default nodes, base64 PEMs, the key labelled `ED25519 PRIVATE KEY`
    /// as Talos writes it.
    pub fn talosconfig_for(endpoint: &str, ca_pem: &str, client: &CertKey) -> String {
        format!(
            "context: {CONTEXT}\ncontexts:\n    {CONTEXT}:\n        endpoints:\n            - {endpoint}\n        ca: {}\n        crt: {}\n        key: {}\n",
            STANDARD.encode(ca_pem),
            STANDARD.encode(&client.cert_pem),
            STANDARD.encode(client.talos_key_pem()),
        )
    }

    /// A `talos_client` talosconfig (context `talos-default`) for `endpoint` with the given CA
    /// and client identity; the key keeps Talos's `ED25519 PRIVATE KEY` label.
    pub fn talosconfig_with(endpoint: &str, ca_pem: &str, client: &CertKey) -> talos_client::Talosconfig {
        talos_client::Talosconfig::new(
            CONTEXT,
            talos_client::Context::new(
                vec![endpoint.to_string()],
                Vec::new(),
                ca_pem.as_bytes().to_vec(),
                client.cert_pem.as_bytes().to_vec(),
                client.talos_key_pem().into_bytes(),
            ),
        )
    }

    /// The admin talosconfig for `talos_client`; its endpoint is the control plane.
    pub fn talosconfig(&self) -> talos_client::Talosconfig {
        Sim::talosconfig_with(&self.controlplane.endpoint.to_string(), self.pki.ca_pem(), &self.admin)
    }

    /// The admin talosconfig (YAML); its endpoint is the control plane.
    pub fn talosconfig_yaml(&self) -> String {
        Sim::talosconfig_for(&self.controlplane.endpoint.to_string(), self.pki.ca_pem(), &self.admin)
    }
}
