//! The admin talosconfig `talosctl gen config` writes: one context named after the cluster,
//! the Talos API CA, and a fresh client certificate signed by it.

use std::time::SystemTime;

use super::config::Input;
use super::keys::{self, SigningKey};
use super::secrets::unix_seconds;
use crate::yaml::Node;
use crate::{Error, ErrorKind};

/// How long the admin client certificate is valid: one year of 365 days.
const CLIENT_VALIDITY_SECONDS: i64 = 365 * 24 * 3600;

impl Input {
    /// The admin talosconfig as `talosctl gen config` writes it (go-yaml v4 layout): context
    /// named after the cluster, the options' endpoints (`[]` when none), the bundle's Talos API
    /// CA, and a fresh client certificate (`O=os:admin`, client authentication, valid one year
    /// from `now`) with a new key of the CA's kind, signed by the bundle's CA.
    ///
    /// ```
    /// use talos_config::generate::{GenOptions, Input, SecretsBundle};
    /// # let bundle = SecretsBundle::from_yaml(include_bytes!("../../tests/engine/data/secrets/generated-v1.13.yaml"))?;
    /// let input = Input::new("demo", "https://10.5.0.2:6443", bundle, GenOptions::default());
    /// let talosconfig = input.talosconfig(std::time::SystemTime::now())?;
    /// assert!(talosconfig.starts_with("context: demo\ncontexts:\n    demo:\n        endpoints: []\n"));
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn talosconfig(&self, now: SystemTime) -> Result<String, Error> {
        let contract = self.options().contract.for_release(self.options().release);
        let parts = self.secrets().parts(contract).map_err(|e| Error::new(ErrorKind::InvalidValue, e))?;
        let ca_crt = parts.os.crt.clone().unwrap_or_default();
        let ca_key = parts.os.key.as_deref().and_then(SigningKey::from_pem).ok_or_else(|| {
            let text = "the secrets bundle's Talos API CA key (certs.os.key) is not an Ed25519 or ECDSA P-256 \
                        key: use a bundle made by `gen secrets`";
            Error::new(ErrorKind::InvalidValue, text)
        })?;
        let not_before = unix_seconds(now);
        let validity = keys::Validity { not_before, not_after: not_before + CLIENT_VALIDITY_SECONDS };
        let client = keys::client_certificate(&ca_crt, &ca_key, &["os:admin"], validity).map_err(|e| {
            Error::new(ErrorKind::InvalidValue, format!("{}: check certs.os of the secrets bundle", e.0))
        })?;
        let b64 = |bytes: Option<Vec<u8>>| talos_go::base64_encode(&bytes.unwrap_or_default());
        let mut context = vec![(
            Node::plain("endpoints"),
            Node::sequence(self.options().endpoints.iter().map(|e| Node::go_string(e.as_str())).collect()),
        )];
        for (key, value) in [("ca", b64(Some(ca_crt))), ("crt", b64(client.crt)), ("key", b64(client.key))] {
            if !value.is_empty() {
                context.push((Node::plain(key), Node::go_string(value)));
            }
        }
        let name = self.cluster_name();
        let root = Node::mapping(vec![
            (Node::plain("context"), Node::go_string(name)),
            (Node::plain("contexts"), Node::mapping(vec![(Node::go_string(name), Node::mapping(context))])),
        ]);
        Ok(crate::yaml::emit_v4::emit_v4_in(&root, self.options().release.yaml()))
    }
}
