//! `machine.registries` of the legacy document.

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use super::types::{Base64Bytes, PEMEncodedCertificateAndKey};

/// `v1alpha1.RegistriesConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistriesConfig")]
pub struct RegistriesConfig {
    /// Mirrors per registry host (`docker.io`, or `*` for all).
    #[talos(key = "mirrors", omitempty, go_name = "RegistryMirrors")]
    pub mirrors: BTreeMap<String, Option<RegistryMirrorConfig>>,
    /// Authentication and TLS per registry host (`host:port`).
    #[talos(key = "config", omitempty, go_name = "RegistryConfig")]
    pub config: BTreeMap<String, Option<RegistryConfig>>,
}

/// `v1alpha1.RegistryMirrorConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryMirrorConfig")]
pub struct RegistryMirrorConfig {
    /// The mirror URLs, tried in order.
    #[talos(key = "endpoints", go_name = "MirrorEndpoints")]
    pub endpoints: Vec<String>,
    /// Uses each endpoint's path as given instead of adding `/v2`.
    #[talos(key = "overridePath", omitempty, go_name = "MirrorOverridePath")]
    pub override_path: Option<bool>,
    /// Does not fall back to the upstream registry when every mirror fails.
    #[talos(key = "skipFallback", omitempty, go_name = "MirrorSkipFallback")]
    pub skip_fallback: Option<bool>,
}

/// `v1alpha1.RegistryConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryConfig")]
pub struct RegistryConfig {
    /// TLS settings for the registry.
    #[talos(key = "tls", omitempty, go_name = "RegistryTLS")]
    pub tls: Option<RegistryTLSConfig>,
    /// Credentials for the registry.
    #[talos(key = "auth", omitempty, go_name = "RegistryAuth")]
    pub auth: Option<RegistryAuthConfig>,
}

/// `v1alpha1.RegistryAuthConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryAuthConfig")]
pub struct RegistryAuthConfig {
    /// The user name; a secret.
    #[talos(key = "username", omitempty, go_name = "RegistryUsername")]
    pub username: String,
    /// The password; a secret.
    #[talos(key = "password", omitempty, go_name = "RegistryPassword")]
    pub password: String,
    /// `user:password` in base64, as in Docker's config; a secret.
    #[talos(key = "auth", omitempty, go_name = "RegistryAuth")]
    pub auth: String,
    /// An identity token used instead of a password; a secret.
    #[talos(key = "identityToken", omitempty, go_name = "RegistryIdentityToken")]
    pub identity_token: String,
}

/// `v1alpha1.RegistryTLSConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryTLSConfig")]
pub struct RegistryTLSConfig {
    /// A client certificate and key presented to the registry; the key is a secret.
    #[talos(key = "clientIdentity", omitempty, go_name = "TLSClientIdentity")]
    pub client_identity: Option<PEMEncodedCertificateAndKey>,
    /// Certificate authorities (PEM) trusted for the registry.
    #[talos(key = "ca", omitempty, go_name = "TLSCA")]
    pub ca: Base64Bytes,
    /// Does not verify the registry's certificate.
    #[talos(key = "insecureSkipVerify", omitempty, go_name = "TLSInsecureSkipVerify")]
    pub insecure_skip_verify: Option<bool>,
}
