//! The secrets bundle (`secrets.Bundle` of Talos's `generate/secrets` package) and its YAML form.

use talos_config_derive::Talos;

use crate::model::v1alpha1::{PEMEncodedCertificateAndKey, PEMEncodedKey};
use crate::value::{DecodeCx, Value};
use crate::{Config, Error, ErrorKind};

/// Every secret a cluster's configs are generated from, as `secrets.yaml` holds them.
///
/// Its YAML keys are the Go field names in lower case (`bootstraptoken`, `k8saggregator`), as
/// go-yaml names fields without a tag; an absent section is `null`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "secrets.Bundle")]
pub struct SecretsBundle {
    /// The cluster's id and secret (discovery, KubeSpan).
    #[talos(key = "cluster", go_name = "Cluster")]
    pub cluster: Option<ClusterSecrets>,
    /// Kubernetes' bootstrap token and encryption secret.
    #[talos(key = "secrets", go_name = "Secrets")]
    pub secrets: Option<Secrets>,
    /// The token machines join the Talos API with.
    #[talos(key = "trustdinfo", go_name = "TrustdInfo")]
    pub trustd_info: Option<TrustdInfo>,
    /// The certificate authorities and the service-account key.
    #[talos(key = "certs", go_name = "Certs")]
    pub certs: Option<Certs>,
}

/// `secrets.Cluster`: the cluster id and secret.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "secrets.Cluster")]
pub struct ClusterSecrets {
    /// `cluster.id` of the configs.
    #[talos(key = "id", go_name = "ID")]
    pub id: String,
    /// `cluster.secret` of the configs.
    #[talos(key = "secret", go_name = "Secret")]
    pub secret: String,
}

/// `secrets.Secrets`: Kubernetes' bootstrap token and the secret its API server encrypts
/// secrets at rest with (secretbox since Talos v1.3, AES-CBC before).
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "secrets.Secrets")]
pub struct Secrets {
    /// `cluster.token` of the configs (`[a-z0-9]{6}.[a-z0-9]{16}`).
    #[talos(key = "bootstraptoken", go_name = "BootstrapToken")]
    pub bootstrap_token: String,
    /// `cluster.aescbcEncryptionSecret` (version contracts up to v1.2).
    #[talos(key = "aescbcencryptionsecret", omitempty, go_name = "AESCBCEncryptionSecret")]
    pub aescbc_encryption_secret: String,
    /// `cluster.secretboxEncryptionSecret`.
    #[talos(key = "secretboxencryptionsecret", omitempty, go_name = "SecretboxEncryptionSecret")]
    pub secretbox_encryption_secret: String,
}

/// `secrets.TrustdInfo`: `machine.token` of the configs.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "secrets.TrustdInfo")]
pub struct TrustdInfo {
    /// The token.
    #[talos(key = "token", go_name = "Token")]
    pub token: String,
}

/// `secrets.Certs`: the certificate authorities and the service-account key.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "secrets.Certs")]
pub struct Certs {
    /// etcd's CA (`cluster.etcd.ca`).
    #[talos(key = "etcd", go_name = "Etcd")]
    pub etcd: Option<PEMEncodedCertificateAndKey>,
    /// Kubernetes' CA (`cluster.ca`).
    #[talos(key = "k8s", go_name = "K8s")]
    pub k8s: Option<PEMEncodedCertificateAndKey>,
    /// The front-proxy (aggregator) CA (`cluster.aggregatorCA`).
    #[talos(key = "k8saggregator", go_name = "K8sAggregator")]
    pub k8s_aggregator: Option<PEMEncodedCertificateAndKey>,
    /// The service-account signing key (`cluster.serviceAccount`).
    #[talos(key = "k8sserviceaccount", go_name = "K8sServiceAccount")]
    pub k8s_service_account: Option<PEMEncodedKey>,
    /// The Talos API CA (`machine.ca`).
    #[talos(key = "os", go_name = "OS")]
    pub os: Option<PEMEncodedCertificateAndKey>,
}

impl SecretsBundle {
    /// Reads `secrets.yaml` as Talos does (`secrets.LoadBundle`): the first YAML document, keys
    /// it does not know ignored; the error is go-yaml's text (`EOF` for an empty file).
    pub fn from_yaml(bytes: &[u8]) -> Result<SecretsBundle, Error> {
        let root = crate::yaml::parse::parse_first_document(bytes)
            .map_err(|e| Error::decode(e.to_string(), e.line, e.column))?
            .ok_or_else(|| Error::decode("EOF", None, None))?;
        let mut cx = DecodeCx::new();
        let bundle = SecretsBundle::decode(&root.root, &mut cx);
        match cx.into_error() {
            Some(text) => Err(Error::new(ErrorKind::Decode, text)),
            None => Ok(bundle),
        }
    }

    /// `secrets.yaml` as `talosctl gen secrets` writes it (go-yaml v4, four-space indent).
    pub fn to_yaml(&self) -> String {
        crate::yaml::emit_v4::emit_v4(&self.encode())
    }

    /// The bundle a control-plane config holds (`talosctl gen secrets --from-controlplane-config`,
    /// Talos's `NewBundleFromConfig`): its CAs, keys and tokens. Sections the config lacks stay
    /// empty (`null` certificates, empty strings), as Talos leaves them; `None` without a
    /// v1alpha1 document.
    ///
    /// ```
    /// use talos_config::Config;
    /// use talos_config::generate::SecretsBundle;
    /// let config = Config::from_bytes(b"version: v1alpha1\nmachine:\n  type: controlplane\n  token: abcdef.0123456789abcdef\ncluster:\n  id: aWQ=\n  token: ghijkl.0123456789abcdef\n")?;
    /// let bundle = SecretsBundle::from_config(&config).unwrap();
    /// assert_eq!(bundle.trustd_info.map(|t| t.token).as_deref(), Some("abcdef.0123456789abcdef"));
    /// assert_eq!(bundle.secrets.map(|s| s.bootstrap_token).as_deref(), Some("ghijkl.0123456789abcdef"));
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn from_config(config: &Config) -> Option<SecretsBundle> {
        let v1 = config.v1alpha1()?;
        let (machine, cluster) = (v1.machine(), v1.cluster());
        // Talos splits the token at `.` and rejoins its two parts; anything else is two empty ones.
        let parts: Vec<&str> = cluster.token.split('.').collect();
        let bootstrap_token = match parts.as_slice() {
            [id, secret] => format!("{id}.{secret}"),
            _ => ".".to_string(),
        };
        Some(SecretsBundle {
            cluster: Some(ClusterSecrets { id: cluster.id.clone(), secret: cluster.secret.clone() }),
            secrets: Some(Secrets {
                bootstrap_token,
                aescbc_encryption_secret: cluster.aescbc_encryption_secret.clone(),
                secretbox_encryption_secret: cluster.secretbox_encryption_secret.clone(),
            }),
            trustd_info: Some(TrustdInfo { token: machine.token.clone() }),
            certs: Some(Certs {
                etcd: cluster.etcd.as_ref().and_then(|e| e.ca.clone()),
                k8s: cluster.ca.clone(),
                k8s_aggregator: cluster.aggregator_ca.clone(),
                k8s_service_account: cluster.service_account.clone(),
                os: machine.ca.clone(),
            }),
        })
    }
}

impl SecretsBundle {
    /// The sections a config is made from, or the first one missing, named as Talos's bundle
    /// check names it (`certs.os is required`).
    pub(crate) fn parts(&self) -> Result<super::config::Parts<'_>, String> {
        let missing = |what: &str| format!("secrets bundle: {what} is required");
        let cluster = self.cluster.as_ref().ok_or_else(|| missing("cluster"))?;
        let secrets = self.secrets.as_ref().ok_or_else(|| missing("secrets"))?;
        let trustd = self.trustd_info.as_ref().ok_or_else(|| missing("trustdinfo"))?;
        let certs = self.certs.as_ref().ok_or_else(|| missing("certs"))?;
        let os = certs.os.as_ref().ok_or_else(|| missing("certs.os"))?;
        let k8s = certs.k8s.as_ref().ok_or_else(|| missing("certs.k8s"))?;
        Ok(super::config::Parts { cluster, secrets, trustd, certs, os, k8s })
    }
}
