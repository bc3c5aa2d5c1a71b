//! Document kinds of upstream `pkg/machinery/config/types/cri`.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::meta::Meta;
use crate::model::siderolink::MetaUrl;

mod v1_14;

pub use v1_14::{CriBaseRuntimeSpecConfig, CriCustomizationConfig, ImageCacheConfig, LocalImageCacheConfig};

/// `RegistryMirrorConfig` (named by the registry name): mirror endpoints of an image registry.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.RegistryMirrorConfigV1Alpha1")]
pub struct RegistryMirrorConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The registry host mirrored (`docker.io`, or `*` for all).
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The mirror endpoints, tried in order.
    #[talos(key = "endpoints", omitempty, go_name = "RegistryEndpoints")]
    pub endpoints: Vec<RegistryEndpoint>,
    /// Does not fall back to the upstream registry when every mirror fails.
    #[talos(key = "skipFallback", omitempty, go_name = "RegistrySkipFallback")]
    pub skip_fallback: Option<bool>,
}

crate::document::named_kind!(RegistryMirrorConfig => "RegistryMirrorConfig");

/// One mirror endpoint.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.RegistryEndpoint")]
pub struct RegistryEndpoint {
    /// The mirror's URL.
    #[talos(key = "url", go_name = "EndpointURL")]
    pub url: MetaUrl,
    /// Uses the URL's path as given instead of adding `/v2`.
    #[talos(key = "overridePath", omitempty, go_name = "EndpointOverridePath")]
    pub override_path: Option<bool>,
}

/// `RegistryAuthConfig` (named by the registry endpoint): pull credentials.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.RegistryAuthConfigV1Alpha1")]
pub struct RegistryAuthConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The registry host (`host:port`) the credentials are for.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// The user name; a secret.
    #[talos(key = "username", omitempty, go_name = "RegistryUsername")]
    pub username: String,
    /// The password; a secret.
    #[talos(key = "password", omitempty, go_name = "RegistryPassword")]
    pub password: String,
    /// `user:password` in base64; a secret.
    #[talos(key = "auth", omitempty, go_name = "RegistryAuth")]
    pub auth: String,
    /// An identity token used instead of a password; a secret.
    #[talos(key = "identityToken", omitempty, go_name = "RegistryIdentityToken")]
    pub identity_token: String,
}

crate::document::named_kind!(RegistryAuthConfig => "RegistryAuthConfig");

/// `RegistryTLSConfig` (named by the registry endpoint): TLS settings.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.RegistryTLSConfigV1Alpha1")]
pub struct RegistryTlsConfig {
    /// `apiVersion` and `kind`.
    #[talos(inline)]
    pub meta: Meta,
    /// The registry host (`host:port`) the TLS settings are for.
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    /// A client certificate and key presented to the registry.
    #[talos(key = "clientIdentity", omitempty, go_name = "TLSClientIdentity")]
    pub client_identity: Option<CertificateAndKey>,
    /// Certificate authorities (PEM) trusted for the registry.
    #[talos(key = "ca", omitempty, go_name = "TLSCA")]
    pub ca: String,
    /// Does not verify the registry's certificate.
    #[talos(key = "insecureSkipVerify", omitempty, go_name = "TLSInsecureSkipVerify")]
    pub insecure_skip_verify: Option<bool>,
}

crate::document::named_kind!(RegistryTlsConfig => "RegistryTLSConfig");

/// `meta.CertificateAndKey`: PEM certificate and key text.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "meta.CertificateAndKey")]
pub struct CertificateAndKey {
    /// The PEM certificate.
    #[talos(key = "cert", omitempty, go_name = "Cert")]
    pub cert: String,
    /// The PEM private key; a secret.
    #[talos(key = "key", omitempty, go_name = "Key")]
    pub key: String,
}

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] = &[
    entry::<RegistryAuthConfig>(),
    entry::<RegistryMirrorConfig>(),
    entry::<RegistryTlsConfig>(),
    entry::<CriBaseRuntimeSpecConfig>(),
    entry::<CriCustomizationConfig>(),
    entry::<ImageCacheConfig>(),
];
