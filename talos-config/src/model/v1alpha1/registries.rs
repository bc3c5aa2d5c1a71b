//! `machine.registries` of the legacy document.

use std::collections::BTreeMap;

use talos_config_derive::Talos;

use super::types::{Base64Bytes, PEMEncodedCertificateAndKey};

/// `v1alpha1.RegistriesConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistriesConfig")]
pub struct RegistriesConfig {
    #[talos(key = "mirrors", omitempty, go_name = "RegistryMirrors")]
    pub mirrors: BTreeMap<String, Option<RegistryMirrorConfig>>,
    #[talos(key = "config", omitempty, go_name = "RegistryConfig")]
    pub config: BTreeMap<String, Option<RegistryConfig>>,
}

/// `v1alpha1.RegistryMirrorConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryMirrorConfig")]
pub struct RegistryMirrorConfig {
    #[talos(key = "endpoints", go_name = "MirrorEndpoints")]
    pub endpoints: Vec<String>,
    #[talos(key = "overridePath", omitempty, go_name = "MirrorOverridePath")]
    pub override_path: Option<bool>,
    #[talos(key = "skipFallback", omitempty, go_name = "MirrorSkipFallback")]
    pub skip_fallback: Option<bool>,
}

/// `v1alpha1.RegistryConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryConfig")]
pub struct RegistryConfig {
    #[talos(key = "tls", omitempty, go_name = "RegistryTLS")]
    pub tls: Option<RegistryTLSConfig>,
    #[talos(key = "auth", omitempty, go_name = "RegistryAuth")]
    pub auth: Option<RegistryAuthConfig>,
}

/// `v1alpha1.RegistryAuthConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryAuthConfig")]
pub struct RegistryAuthConfig {
    #[talos(key = "username", omitempty, go_name = "RegistryUsername")]
    pub username: String,
    #[talos(key = "password", omitempty, go_name = "RegistryPassword")]
    pub password: String,
    #[talos(key = "auth", omitempty, go_name = "RegistryAuth")]
    pub auth: String,
    #[talos(key = "identityToken", omitempty, go_name = "RegistryIdentityToken")]
    pub identity_token: String,
}

/// `v1alpha1.RegistryTLSConfig`.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "v1alpha1.RegistryTLSConfig")]
pub struct RegistryTLSConfig {
    #[talos(key = "clientIdentity", omitempty, go_name = "TLSClientIdentity")]
    pub client_identity: Option<PEMEncodedCertificateAndKey>,
    #[talos(key = "ca", omitempty, go_name = "TLSCA")]
    pub ca: Base64Bytes,
    #[talos(key = "insecureSkipVerify", omitempty, go_name = "TLSInsecureSkipVerify")]
    pub insecure_skip_verify: Option<bool>,
}
