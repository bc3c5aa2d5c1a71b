//! The secrets bundle (`secrets.Bundle` of Talos's `generate/secrets` package) and its YAML form.

use talos_config_derive::Talos;

use crate::model::v1alpha1::types::Redacted;
use crate::model::v1alpha1::{self as v1, PEMEncodedCertificateAndKey, PEMEncodedKey};
use crate::value::{DecodeCx, Value};
use std::time::SystemTime;

use super::VersionContract;
use super::keys;
use crate::model::cluster::DiscoveryIdentityConfig;
use crate::model::cri::CertificateAndKey;
use crate::model::k8s::{
    KubeAggregatorCaConfig, KubeApiServerCaConfig, KubeEtcdEncryptionConfig, KubeServiceAccountConfig,
};
use crate::value::{Any, Unstructured};
use crate::{Config, Error, ErrorKind, Release};

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

/// `secrets.Cluster`: the cluster id and secret. `Debug` hides the secret.
#[derive(Talos, Clone, Default, PartialEq)]
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
/// secrets at rest with (secretbox since Talos v1.3, AES-CBC before). `Debug` hides them.
#[derive(Talos, Clone, Default, PartialEq)]
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

/// `secrets.TrustdInfo`: `machine.token` of the configs. `Debug` hides it.
#[derive(Talos, Clone, Default, PartialEq)]
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
        SecretsBundle::from_yaml_for(bytes, Release::DEFAULT)
    }

    /// [`SecretsBundle::from_yaml`] as `release` reads `secrets.yaml` (its go-yaml's error
    /// texts).
    ///
    /// ```
    /// use talos_config::Release;
    /// use talos_config::generate::SecretsBundle;
    /// let err = SecretsBundle::from_yaml_for(b"cluster: [1]\n", Release::V1_12_11).unwrap_err();
    /// assert_eq!(err.to_string(), "yaml: unmarshal errors:\n  line 1: cannot unmarshal !!seq into secrets.Cluster");
    /// ```
    pub fn from_yaml_for(bytes: &[u8], release: Release) -> Result<SecretsBundle, Error> {
        let root = crate::yaml::parse::parse_first_document_in(bytes, release.yaml())
            .map_err(|e| Error::decode(e.to_string(), e.line, e.column))?
            .ok_or_else(|| Error::decode("EOF", None, None))?;
        let mut cx = DecodeCx::for_release(release);
        let bundle = SecretsBundle::decode(&root.root, &mut cx);
        match cx.into_error() {
            Some(text) => Err(Error::new(ErrorKind::Decode, text)),
            None => Ok(bundle),
        }
    }

    /// `secrets.yaml` as `talosctl gen secrets` writes it (go-yaml v4, four-space indent).
    pub fn to_yaml(&self) -> String {
        self.to_yaml_for(Release::DEFAULT)
    }

    /// [`SecretsBundle::to_yaml`] as `release`'s `talosctl gen secrets` writes it (its
    /// go-yaml's emitter).
    pub fn to_yaml_for(&self, release: Release) -> String {
        crate::yaml::emit_v4::emit_v4_in(&self.encode(), release.yaml())
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
    /// [`SecretsBundle::from_config`] as `release`'s `talosctl gen secrets
    /// --from-controlplane-config` reads a config. From v1.14 the Kubernetes CAs and the
    /// service-account key come from their documents (`KubeAPIServerCAConfig`,
    /// `KubeAggregatorCAConfig`, `KubeServiceAccountConfig`) or else the v1alpha1 fields, the
    /// cluster's id and secret from `.cluster.id`/`.cluster.secret` or else the
    /// `DiscoveryIdentityConfig` document, and the secretbox secret from a
    /// `KubeEtcdEncryptionConfig` document when there is one (the first key of the first
    /// provider of a resource list naming `secrets`, when that provider is secretbox).
    ///
    /// The error says what is missing: the v1alpha1 document, or (from v1.14) the API server
    /// CA, the aggregator CA or the service-account key, on which talosctl v1.14 crashes, as it
    /// does on every worker config.
    ///
    /// ```
    /// use talos_config::{Config, Release};
    /// use talos_config::generate::SecretsBundle;
    /// let text = "version: v1alpha1\nmachine:\n  type: worker\n  token: abcdef.0123456789abcdef\ncluster:\n  token: ghijkl.0123456789abcdef\n";
    /// let worker = Config::from_bytes_for(text.as_bytes(), Release::V1_14_0_RC1)?;
    /// let err = SecretsBundle::from_config_for(&worker, Release::V1_14_0_RC1).unwrap_err();
    /// assert!(err.to_string().starts_with("the config has no Kubernetes API server CA"));
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn from_config_for(config: &Config, release: Release) -> Result<SecretsBundle, Error> {
        let mut bundle = SecretsBundle::from_config(config).ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidValue,
                "the config has no v1alpha1 document (machine, cluster): no secrets to take",
            )
        })?;
        if release.rules().gen_contract < (1, 14) {
            return Ok(bundle);
        }
        let v1 = config.v1alpha1();
        let cluster = v1.and_then(|v1| v1.cluster.as_ref());
        let missing = |what: &str, where_: &str| {
            Error::new(
                ErrorKind::InvalidValue,
                format!("the config has no {what} (neither a {where_}): it is not a control-plane config"),
            )
        };
        let k8s = match config.get::<KubeApiServerCaConfig>() {
            Some(doc) => doc.issuing_ca.as_ref().map(pem_pair),
            None => match cluster.filter(|c| c.ca.is_some() || !c.accepted_cas.is_empty()) {
                Some(c) => c.ca.clone().filter(|ca| ca.key.as_ref().is_some_and(|k| !k.is_empty())),
                None => {
                    return Err(missing("Kubernetes API server CA", "KubeAPIServerCAConfig document nor .cluster.ca"));
                }
            },
        };
        let aggregator = match config.get::<KubeAggregatorCaConfig>() {
            Some(doc) => doc.issuing_ca.as_ref().map(pem_pair),
            None => match cluster.and_then(|c| c.aggregator_ca.clone()) {
                Some(ca) => Some(ca),
                None => {
                    return Err(missing(
                        "Kubernetes aggregator CA",
                        "KubeAggregatorCAConfig document nor .cluster.aggregatorCA",
                    ));
                }
            },
        };
        let service_account = match config.get::<KubeServiceAccountConfig>() {
            Some(doc) => PEMEncodedKey { key: Some(doc.issuer.private_key.clone().into_bytes()) },
            None => match cluster.and_then(|c| c.service_account.clone()) {
                Some(key) => key,
                None => {
                    return Err(missing(
                        "service-account key",
                        "KubeServiceAccountConfig document nor .cluster.serviceAccount",
                    ));
                }
            },
        };
        if let Some(certs) = bundle.certs.as_mut() {
            certs.k8s = k8s;
            certs.k8s_aggregator = aggregator;
            certs.k8s_service_account = Some(service_account);
        }
        let legacy_identity = cluster.filter(|c| !c.id.is_empty() || !c.secret.is_empty());
        let identity = match (legacy_identity, config.get::<DiscoveryIdentityConfig>()) {
            (Some(c), _) => ClusterSecrets { id: c.id.clone(), secret: c.secret.clone() },
            (None, Some(doc)) => ClusterSecrets { id: doc.cluster_id.clone(), secret: doc.cluster_secret.clone() },
            (None, None) => ClusterSecrets::default(),
        };
        bundle.cluster = Some(identity);
        if let (Some(doc), Some(secrets)) = (config.get::<KubeEtcdEncryptionConfig>(), bundle.secrets.as_mut())
            && let Some(secret) = secretbox_secret(&doc.config)
        {
            secrets.secretbox_encryption_secret = secret;
        }
        Ok(bundle)
    }
}

/// A document's CA as the bundle holds it.
fn pem_pair(ca: &CertificateAndKey) -> PEMEncodedCertificateAndKey {
    PEMEncodedCertificateAndKey { crt: Some(ca.cert.clone().into_bytes()), key: Some(ca.key.clone().into_bytes()) }
}

/// The secretbox secret of an `EncryptionConfiguration`: for each resource list naming
/// `secrets`, its first provider only; the first key of the first such provider that is
/// secretbox and has one.
fn secretbox_secret(config: &Unstructured) -> Option<String> {
    let object = config.object.as_ref()?;
    let Some(Any::List(resources)) = object.get("resources") else { return None };
    for resource in resources {
        let Any::Map(resource) = resource else { continue };
        let names_secrets = matches!(resource.get("resources"),
            Some(Any::List(names)) if names.iter().any(|n| matches!(n, Any::String(s) if s == "secrets")));
        if !names_secrets {
            continue;
        }
        let Some(Any::List(providers)) = resource.get("providers") else { continue };
        let Some(Any::Map(first)) = providers.first() else { continue };
        let Some(Any::Map(secretbox)) = first.get("secretbox") else { continue };
        let Some(Any::List(keys)) = secretbox.get("keys") else { continue };
        if let Some(Any::Map(key)) = keys.first() {
            return Some(match key.get("secret") {
                Some(Any::String(secret)) => secret.clone(),
                _ => String::new(),
            });
        }
    }
    None
}

impl SecretsBundle {
    /// The sections a config is made from, or the first one missing, named as Talos's bundle
    /// check names it (`certs.os is required`).
    /// A contract without Kubernetes needs neither `secrets` nor `certs.k8s`.
    pub(crate) fn parts(&self, contract: VersionContract) -> Result<Parts<'_>, String> {
        let missing = |what: &str| format!("secrets bundle: {what} is required");
        let optional = contract.kubernetes_disabled();
        let cluster = self.cluster.as_ref().ok_or_else(|| missing("cluster"))?;
        let secrets = self.secrets.as_ref();
        if secrets.is_none() && !optional {
            return Err(missing("secrets"));
        }
        let trustd = self.trustd_info.as_ref().ok_or_else(|| missing("trustdinfo"))?;
        let certs = self.certs.as_ref().ok_or_else(|| missing("certs"))?;
        let os = certs.os.as_ref().ok_or_else(|| missing("certs.os"))?;
        let k8s = certs.k8s.as_ref();
        if k8s.is_none() && !optional {
            return Err(missing("certs.k8s"));
        }
        Ok(Parts { cluster, secrets, trustd, certs, os, k8s })
    }
}

/// How long Talos's CAs are valid: 87600 hours (ten years of 365 days).
const CA_VALIDITY_SECONDS: i64 = 87_600 * 3600;

impl SecretsBundle {
    /// A fresh bundle for `contract`, as `talosctl gen secrets` makes one: ECDSA P-256 etcd,
    /// Kubernetes and aggregator CAs, an Ed25519 Talos API CA (all valid ten years from
    /// `now`), an RSA-4096 service-account key (ECDSA P-256 up to contract v1.6), a secretbox
    /// secret (AES-CBC up to v1.2), bootstrap and trustd tokens, a cluster id and secret.
    /// Randomness comes from the operating system; fails only when it does.
    ///
    /// Built with the `keygen` feature (the RSA key's generator is a C library that takes
    /// about 45 s to build): `talos-machineconfig = { version = "0.1", features = ["keygen"] }`.
    ///
    /// ```
    /// use talos_config::generate::{SecretsBundle, VersionContract};
    /// let bundle = SecretsBundle::generate(VersionContract::new(1, 6), std::time::SystemTime::now())?;
    /// let token = &bundle.secrets.as_ref().unwrap().bootstrap_token;
    /// assert_eq!(token.len(), 23);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    #[cfg(feature = "keygen")]
    pub fn generate(contract: VersionContract, now: SystemTime) -> Result<SecretsBundle, Error> {
        SecretsBundle::generate_for(contract, now, crate::Release::DEFAULT)
    }

    /// [`SecretsBundle::generate`] as `release`'s talosctl makes a bundle: from v1.14 the
    /// cluster id is standard base64 (`+`, `/`), before it was URL-safe (`-`, `_`). Built with
    /// the `keygen` feature.
    ///
    /// ```
    /// use talos_config::Release;
    /// use talos_config::generate::{SecretsBundle, VersionContract};
    /// let bundle = SecretsBundle::generate_for(VersionContract::new(1, 14), std::time::SystemTime::now(), Release::V1_14_0_RC1)?;
    /// assert_eq!(bundle.cluster.as_ref().unwrap().id.len(), 44);
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    #[cfg(feature = "keygen")]
    pub fn generate_for(
        contract: VersionContract,
        now: SystemTime,
        release: crate::Release,
    ) -> Result<SecretsBundle, Error> {
        let mut bundle = SecretsBundle::default();
        bundle.populate(contract.for_release(release), now, release)?;
        Ok(bundle)
    }

    /// Fills in what the bundle lacks, as Talos's `populate` does (used for a bundle made from
    /// a Kubernetes PKI directory).
    pub(crate) fn populate(
        &mut self,
        contract: VersionContract,
        now: SystemTime,
        release: crate::Release,
    ) -> Result<(), Error> {
        self.populate_certs(contract, now).map_err(crypto_error)?;
        let secrets = self.secrets.get_or_insert_with(Default::default);
        if !contract.kubernetes_disabled() {
            if secrets.bootstrap_token.is_empty() {
                secrets.bootstrap_token = token().map_err(crypto_error)?;
            }
            let secret = if contract.secretbox_encryption() {
                &mut secrets.secretbox_encryption_secret
            } else {
                &mut secrets.aescbc_encryption_secret
            };
            if secret.is_empty() {
                *secret = talos_go::base64_encode(&keys::random_bytes(32).map_err(crypto_error)?);
            }
        }
        let trustd = self.trustd_info.get_or_insert_with(Default::default);
        if trustd.token.is_empty() {
            trustd.token = token().map_err(crypto_error)?;
        }
        let cluster = self.cluster.get_or_insert_with(Default::default);
        if cluster.id.is_empty() {
            let id = keys::random_bytes(32).map_err(crypto_error)?;
            cluster.id = talos_go::base64_encode(&id);
            if release < crate::Release::V1_14_0_RC1 {
                cluster.id = cluster.id.replace('+', "-").replace('/', "_");
            }
        }
        if cluster.secret.is_empty() {
            cluster.secret = talos_go::base64_encode(&keys::random_bytes(32).map_err(crypto_error)?);
        }
        Ok(())
    }

    fn populate_certs(&mut self, contract: VersionContract, now: SystemTime) -> Result<(), keys::CryptoError> {
        let not_before = unix_seconds(now);
        let validity = keys::Validity { not_before, not_after: not_before + CA_VALIDITY_SECONDS };
        let certs = self.certs.get_or_insert_with(Default::default);
        let ecdsa_ca = |org| keys::self_signed_ca(org, keys::CaKey::EcdsaP256, validity);
        if certs.etcd.is_none() && !contract.etcd_disabled() {
            certs.etcd = Some(ecdsa_ca(Some("etcd"))?);
        }
        let kubernetes = !contract.kubernetes_disabled();
        if certs.k8s.is_none() && kubernetes {
            certs.k8s = Some(ecdsa_ca(Some("kubernetes"))?);
        }
        if certs.k8s_aggregator.is_none() && kubernetes {
            // Talos asks for the common name `front-proxy`, which its CA maker drops: the
            // aggregator CA's subject is empty.
            certs.k8s_aggregator = Some(ecdsa_ca(None)?);
        }
        if certs.k8s_service_account.is_none() && kubernetes {
            let key = if contract.rsa_service_account_key() { keys::rsa_key()? } else { keys::ecdsa_key()? };
            certs.k8s_service_account = Some(PEMEncodedKey { key: Some(key) });
        }
        if certs.os.is_none() {
            certs.os = Some(keys::self_signed_ca(Some("talos"), keys::CaKey::Ed25519, validity)?);
        }
        Ok(())
    }
}

/// Seconds since the Unix epoch (negative before it).
pub(crate) fn unix_seconds(time: SystemTime) -> i64 {
    match time.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_secs()).unwrap_or(i64::MAX),
    }
}

fn crypto_error(e: keys::CryptoError) -> Error {
    Error::new(ErrorKind::InvalidValue, format!("{}: try again", e.0))
}

/// A token in Kubernetes' bootstrap-token form, `[a-z0-9]{6}.[a-z0-9]{16}`: random bytes below
/// 252 taken modulo 36, so every character is equally likely.
fn token() -> Result<String, keys::CryptoError> {
    Ok(format!("{}.{}", token_part(6)?, token_part(16)?))
}

fn token_part(len: usize) -> Result<String, keys::CryptoError> {
    const CHARS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = String::with_capacity(len);
    while out.len() < len {
        for b in keys::random_bytes(len * 2)?.into_iter().filter(|&b| b < 252).take(len - out.len()) {
            out.push(char::from(CHARS[usize::from(b) % CHARS.len()]));
        }
    }
    Ok(out)
}

impl SecretsBundle {
    /// Checks that the bundle has every section and that its keys and certificates parse, as
    /// `talosctl gen config --with-secrets` does (Talos's `Validate`); the error lists every
    /// problem in Talos's words (`2 errors occurred:` then one `* certs.os is required` line
    /// each).
    ///
    /// ```
    /// use talos_config::generate::SecretsBundle;
    /// let bundle = SecretsBundle::from_yaml(b"cluster:\n  id: x\n")?;
    /// assert_eq!(
    ///     bundle.validate().unwrap_err().to_string(),
    ///     "4 errors occurred:\n\t* cluster.secret is required\n\t* secrets is required\n\t* trustdinfo is required\n\t* certs is required\n\n"
    /// );
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn validate(&self) -> Result<(), Error> {
        self.validate_for(VersionContract::CURRENT, Release::DEFAULT)
    }

    /// [`SecretsBundle::validate`] as `release`'s talosctl checks a bundle for `contract`: from
    /// v1.14 a contract without Kubernetes needs no `secrets` and no Kubernetes CAs or key, one
    /// without etcd no etcd CA, and the service-account key is checked before `certs.os`.
    ///
    /// ```
    /// use talos_config::Release;
    /// use talos_config::generate::{SecretsBundle, VersionContract};
    /// let bundle = SecretsBundle::from_yaml(b"cluster:\n  id: x\n  secret: y\ntrustdinfo:\n  token: t\ncerts: {}\n")?;
    /// let bare = VersionContract::CURRENT.without_kubernetes().without_etcd();
    /// assert_eq!(
    ///     bundle.validate_for(bare, Release::V1_14_0_RC1).unwrap_err().to_string(),
    ///     "1 error occurred:\n\t* certs.os is required\n\n"
    /// );
    /// # Ok::<(), talos_config::Error>(())
    /// ```
    pub fn validate_for(&self, contract: VersionContract, release: Release) -> Result<(), Error> {
        let contract = contract.for_release(release);
        let mut problems: Vec<String> = Vec::new();
        let mut require = |missing: bool, what: &str| {
            if missing {
                problems.push(format!("{what} is required"));
            }
        };
        match &self.cluster {
            None => require(true, "cluster"),
            Some(c) => {
                require(c.id.is_empty(), "cluster.id");
                require(c.secret.is_empty(), "cluster.secret");
            }
        }
        match &self.secrets {
            _ if contract.kubernetes_disabled() => {}
            None => require(true, "secrets"),
            Some(s) => {
                require(s.bootstrap_token.is_empty(), "secrets.bootstraptoken");
                let (aescbc, secretbox) =
                    (s.aescbc_encryption_secret.is_empty(), s.secretbox_encryption_secret.is_empty());
                if aescbc && secretbox {
                    problems.push(
                        "one of [secrets.secretboxencryptionsecret, secrets.aescbcencryptionsecret] is required".into(),
                    );
                }
                if !aescbc && !secretbox {
                    problems.push(
                        "only one of [secrets.secretboxencryptionsecret, secrets.aescbcencryptionsecret] is allowed"
                            .into(),
                    );
                }
            }
        }
        match &self.trustd_info {
            None => problems.push("trustdinfo is required".into()),
            Some(t) if t.token.is_empty() => problems.push("trustdinfo.token is required".into()),
            Some(_) => {}
        }
        match &self.certs {
            None => problems.push("certs is required".into()),
            Some(certs) => problems.extend(certs.problems(contract, release)),
        }
        if problems.is_empty() {
            return Ok(());
        }
        Err(Error::new(ErrorKind::InvalidValue, go_multierror(&problems)))
    }
}

impl Certs {
    /// The certificate problems in Talos's order: etcd, k8s, aggregator, then `os` and the
    /// service-account key (the key first from v1.14); what the contract leaves out is skipped.
    fn problems(&self, contract: VersionContract, release: Release) -> Vec<String> {
        let mut problems = Vec::new();
        let kubernetes = !contract.kubernetes_disabled();
        if !contract.etcd_disabled() {
            pair_problem(&mut problems, "etcd", &self.etcd);
        }
        if kubernetes {
            pair_problem(&mut problems, "k8s", &self.k8s);
            pair_problem(&mut problems, "k8saggregator", &self.k8s_aggregator);
        }
        let key_first = release.rules().gen_contract >= (1, 14);
        if !key_first {
            pair_problem(&mut problems, "os", &self.os);
        }
        if kubernetes {
            match &self.k8s_service_account {
                None => problems.push("certs.k8sserviceaccount is required".into()),
                Some(key) => {
                    if let Err(e) = keys::check_key(key.key.as_deref().unwrap_or_default(), false) {
                        problems.push(format!("certs.k8sserviceaccount.key is invalid: {e}"));
                    }
                }
            }
        }
        if key_first {
            pair_problem(&mut problems, "os", &self.os);
        }
        problems
    }
}

/// A CA's problem, if any, named as Talos names it (`certs.NAME is required`/`is invalid`).
fn pair_problem(problems: &mut Vec<String>, name: &str, pair: &Option<PEMEncodedCertificateAndKey>) {
    match pair {
        None => problems.push(format!("certs.{name} is required")),
        Some(pair) => {
            if let Err(e) = check_pair(pair) {
                problems.push(format!("certs.{name} is invalid: {e}"));
            }
        }
    }
}

/// Talos's check of a CA: its key parses, then its certificate.
fn check_pair(pair: &PEMEncodedCertificateAndKey) -> Result<(), String> {
    keys::check_key(pair.key.as_deref().unwrap_or_default(), true)
        .and_then(|()| keys::check_certificate(pair.crt.as_deref().unwrap_or_default()))
}

impl SecretsBundle {
    /// A bundle made from a Kubernetes PKI directory (kubeadm's `/etc/kubernetes/pki`), as
    /// `talosctl gen secrets --from-kubernetes-pki` makes it: `read` gives a file's bytes by its
    /// path in the directory (`ca.crt`, `ca.key`, `etcd/ca.crt`, `etcd/ca.key`,
    /// `front-proxy-ca.crt`, `front-proxy-ca.key`, `sa.key`, asked in that order, each CA checked
    /// before the next is read, with Talos's texts); its error text is the error's. The bootstrap
    /// token is the one given (a fresh one when empty); everything else is fresh, as
    /// `SecretsBundle::generate` makes it (the RSA key aside: `sa.key` is read, so this needs
    /// no `keygen` feature).
    ///
    /// ```
    /// use talos_config::generate::{SecretsBundle, VersionContract};
    /// let missing = |name: &str| Err(format!("open pki/{name}: no such file or directory"));
    /// let err = SecretsBundle::from_kubernetes_pki(missing, "", VersionContract::CURRENT, std::time::SystemTime::now()).unwrap_err();
    /// assert_eq!(err.to_string(), "open pki/ca.crt: no such file or directory");
    /// ```
    pub fn from_kubernetes_pki<F>(
        read: F,
        bootstrap_token: &str,
        contract: VersionContract,
        now: SystemTime,
    ) -> Result<SecretsBundle, Error>
    where
        F: FnMut(&str) -> Result<Vec<u8>, String>,
    {
        SecretsBundle::from_kubernetes_pki_for(read, bootstrap_token, contract, now, crate::Release::DEFAULT)
    }

    /// [`SecretsBundle::from_kubernetes_pki`] as `release`'s talosctl makes the fresh parts (from
    /// v1.14 the cluster id in standard base64).
    pub fn from_kubernetes_pki_for<F>(
        mut read: F,
        bootstrap_token: &str,
        contract: VersionContract,
        now: SystemTime,
        release: crate::Release,
    ) -> Result<SecretsBundle, Error>
    where
        F: FnMut(&str) -> Result<Vec<u8>, String>,
    {
        let mut read = |name: &str| read(name).map_err(|e| Error::new(ErrorKind::InvalidValue, e));
        let mut pair = |crt: &str, key: &str| -> Result<PEMEncodedCertificateAndKey, Error> {
            let pair = PEMEncodedCertificateAndKey { crt: Some(read(crt)?), key: Some(read(key)?) };
            check_pair(&pair).map_err(|e| Error::new(ErrorKind::InvalidValue, e))?;
            Ok(pair)
        };
        let k8s = pair("ca.crt", "ca.key")?;
        let etcd = pair("etcd/ca.crt", "etcd/ca.key")?;
        let aggregator = pair("front-proxy-ca.crt", "front-proxy-ca.key")?;
        let sa = read("sa.key")?;
        keys::check_key(&sa, false).map_err(|e| Error::new(ErrorKind::InvalidValue, e))?;
        let mut bundle = SecretsBundle {
            secrets: Some(Secrets { bootstrap_token: bootstrap_token.to_string(), ..Default::default() }),
            certs: Some(Certs {
                etcd: Some(etcd),
                k8s: Some(k8s),
                k8s_aggregator: Some(aggregator),
                k8s_service_account: Some(PEMEncodedKey { key: Some(sa) }),
                os: None,
            }),
            ..Default::default()
        };
        bundle.populate(contract.for_release(release), now, release)?;
        Ok(bundle)
    }
}

/// hashicorp/go-multierror's text for a list of errors.
fn go_multierror(problems: &[String]) -> String {
    let points: Vec<String> = problems.iter().map(|p| format!("* {p}")).collect();
    match problems.len() {
        1 => format!("1 error occurred:\n\t{}\n\n", points.join("\n\t")),
        n => format!("{n} errors occurred:\n\t{}\n\n", points.join("\n\t")),
    }
}

/// The bundle's sections a config needs, all present.
pub(crate) struct Parts<'a> {
    pub cluster: &'a ClusterSecrets,
    /// `None` only under a contract without Kubernetes.
    pub secrets: Option<&'a Secrets>,
    pub trustd: &'a TrustdInfo,
    pub certs: &'a Certs,
    pub os: &'a v1::PEMEncodedCertificateAndKey,
    /// `None` only under a contract without Kubernetes.
    pub k8s: Option<&'a v1::PEMEncodedCertificateAndKey>,
}

/// `Debug` of a secret string: its size, never its text.
fn hidden(secret: &str) -> Redacted {
    Redacted::of(Some(secret.as_bytes()))
}

impl std::fmt::Debug for ClusterSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClusterSecrets").field("id", &self.id).field("secret", &hidden(&self.secret)).finish()
    }
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secrets")
            .field("bootstrap_token", &hidden(&self.bootstrap_token))
            .field("aescbc_encryption_secret", &hidden(&self.aescbc_encryption_secret))
            .field("secretbox_encryption_secret", &hidden(&self.secretbox_encryption_secret))
            .finish()
    }
}

impl std::fmt::Debug for TrustdInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrustdInfo").field("token", &hidden(&self.token)).finish()
    }
}
