//! The API server's documents: its pod, its CAs, service-account keys, etcd encryption,
//! admission, audit, authentication and authorization.

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use super::ResourcesConfig;
use crate::model::cri::CertificateAndKey;
use crate::model::meta::Meta;
use crate::model::siderolink::MetaUrl;
use crate::model::v1alpha1::Args;
use crate::value::{Replaced, Unstructured};

/// `KubeAPIServerConfig` (unnamed, control planes only): the kube-apiserver pod.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeAPIServerConfigV1Alpha1")]
pub struct KubeApiServerConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The kube-apiserver image.
    #[talos(key = "image", go_name = "PodImage")]
    pub image: String,
    /// Extra command-line flags.
    #[talos(key = "extraArgs", omitempty, go_name = "PodArgs")]
    pub extra_args: Args,
    /// Extra environment variables of the pod.
    #[talos(key = "env", omitempty, go_name = "PodEnv")]
    pub env: BTreeMap<String, String>,
    /// CPU and memory requests and limits.
    #[talos(key = "resources", omitempty, go_name = "PodResources")]
    pub resources: ResourcesConfig,
    /// The port the API server listens on (6443 when unset).
    #[talos(key = "apiPort", omitempty, go_name = "PodAPIPort")]
    pub api_port: Option<i64>,
    /// Extra subject alternative names of the serving certificate.
    #[talos(key = "certExtraSANs", omitempty, go_name = "PodCertExtraSANs")]
    pub cert_extra_sans: Vec<String>,
    /// Whether startup probes are used (true when unset).
    #[talos(key = "startupProbes", omitempty, go_name = "PodStartupProbes")]
    pub startup_probes: Option<bool>,
}

crate::document::unnamed_kind!(KubeApiServerConfig => "KubeAPIServerConfig" since V1_14_0_RC1 only control_planes);

/// `KubeAggregatorCAConfig` (unnamed, control planes only, secret): the front-proxy CA.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeAggregatorCAConfigV1Alpha1")]
pub struct KubeAggregatorCaConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The CA that issues certificates; its key is a secret.
    #[talos(key = "issuingCA", omitempty, go_name = "AggregatorIssuingCA")]
    pub issuing_ca: Option<CertificateAndKey>,
    /// Further CA certificates (PEM) that are trusted.
    #[talos(key = "acceptedCAs", omitempty, go_name = "AggregatorAcceptedCAs")]
    pub accepted_cas: Vec<String>,
}

crate::document::unnamed_kind!(KubeAggregatorCaConfig => "KubeAggregatorCAConfig" since V1_14_0_RC1 only control_planes);

/// `KubeAPIServerCAConfig` (unnamed, secret): the Kubernetes CA. Workers carry only
/// `acceptedCAs`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeAPIServerCAConfigV1Alpha1")]
pub struct KubeApiServerCaConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The CA that issues certificates; its key is a secret.
    #[talos(key = "issuingCA", omitempty, go_name = "APIIssuingCA")]
    pub issuing_ca: Option<CertificateAndKey>,
    /// Further CA certificates (PEM) that are trusted.
    #[talos(key = "acceptedCAs", omitempty, go_name = "APIAcceptedCAs")]
    pub accepted_cas: Vec<String>,
}

crate::document::unnamed_kind!(KubeApiServerCaConfig => "KubeAPIServerCAConfig" since V1_14_0_RC1);

/// `KubeServiceAccountConfig` (unnamed, control planes only, secret): the key that signs
/// service-account tokens, and what else is accepted.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeServiceAccountConfigV1Alpha1")]
pub struct KubeServiceAccountConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The issuer: signing key and URL.
    #[talos(key = "issuer", go_name = "ServiceIssuer")]
    pub issuer: ServiceAccountIssuer,
    /// Keys, issuers and audiences accepted besides the issuer's own.
    #[talos(key = "accepted", omitempty, go_name = "ServiceAccepted")]
    pub accepted: ServiceAccountAccepted,
}

crate::document::unnamed_kind!(KubeServiceAccountConfig => "KubeServiceAccountConfig" since V1_14_0_RC1 only control_planes);

/// `k8s.IssuerServiceAccountConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.IssuerServiceAccountConfig")]
pub struct ServiceAccountIssuer {
    /// The PEM private key that signs tokens; a secret.
    #[talos(key = "privateKey", go_name = "PrivateKey")]
    pub private_key: String,
    /// The issuer URL written into tokens.
    #[talos(key = "issuerURL", go_name = "IssuerURL")]
    pub issuer_url: MetaUrl,
}

/// `k8s.AcceptedServiceAccountConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.AcceptedServiceAccountConfig")]
pub struct ServiceAccountAccepted {
    /// Further PEM public keys whose tokens are accepted.
    #[talos(key = "publicKeys", omitempty, go_name = "PublicKeys")]
    pub public_keys: Vec<String>,
    /// Further issuers whose tokens are accepted.
    #[talos(key = "issuers", omitempty, go_name = "Issuers")]
    pub issuers: Vec<MetaUrl>,
    /// The audiences accepted (the issuer URL when empty).
    #[talos(key = "audiences", omitempty, go_name = "Audiences")]
    pub audiences: Vec<String>,
}

/// `KubeEtcdEncryptionConfig` (unnamed, control planes only, secret): the API server's
/// `EncryptionConfiguration`; every `secret` in it is redacted.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeEtcdEncryptionConfigV1Alpha1")]
pub struct KubeEtcdEncryptionConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The encryption configuration.
    #[talos(key = "config", go_name = "Config")]
    pub config: Unstructured,
}

crate::document::unnamed_kind!(KubeEtcdEncryptionConfig => "KubeEtcdEncryptionConfig" since V1_14_0_RC1 only control_planes);

/// `KubeAdmissionControlConfig` (named by the plugin, control planes only): one admission
/// plugin's configuration.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeAdmissionControlConfigV1Alpha1")]
pub struct KubeAdmissionControlConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The admission plugin (`PodSecurity`).
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The plugin's configuration.
    #[talos(key = "configuration", go_name = "PluginConfig")]
    pub configuration: Unstructured,
}

crate::document::named_kind!(KubeAdmissionControlConfig => "KubeAdmissionControlConfig" since V1_14_0_RC1 only control_planes);

/// `KubeAuditPolicyConfig` (unnamed, control planes only): the audit policy; a patch replaces it
/// whole.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeAuditPolicyConfigV1Alpha1")]
pub struct KubeAuditPolicyConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The audit `Policy`.
    #[talos(key = "configuration", go_name = "AuditConfig")]
    pub configuration: Replaced<Unstructured>,
}

crate::document::unnamed_kind!(KubeAuditPolicyConfig => "KubeAuditPolicyConfig" since V1_14_0_RC1 only control_planes);

/// `KubeAuthenticationConfig` (unnamed, control planes only): the API server's
/// `AuthenticationConfiguration`; a patch replaces it whole.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeAuthenticationConfigV1Alpha1")]
pub struct KubeAuthenticationConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The authentication configuration.
    #[talos(key = "configuration", go_name = "AuthConfig")]
    pub configuration: Replaced<Unstructured>,
}

crate::document::unnamed_kind!(KubeAuthenticationConfig => "KubeAuthenticationConfig" since V1_14_0_RC1 only control_planes);

/// `KubeAuthorizerConfig` (named, control planes only): one authorizer of the API server's
/// chain.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "k8s.KubeAuthorizerConfigV1Alpha1")]
pub struct KubeAuthorizerConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The authorizer's name.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// `Node`, `RBAC` or `Webhook`.
    #[talos(key = "type", go_name = "AuthorizerType")]
    pub r#type: String,
    /// The webhook settings of a `Webhook` authorizer.
    #[talos(key = "webhook", omitempty, go_name = "AuthorizerWebhook")]
    pub webhook: Unstructured,
}

crate::document::named_kind!(KubeAuthorizerConfig => "KubeAuthorizerConfig" since V1_14_0_RC1 only control_planes);
