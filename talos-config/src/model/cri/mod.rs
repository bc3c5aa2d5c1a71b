//! Document kinds of upstream `pkg/machinery/config/types/cri`.

use talos_config_derive::Talos;

use crate::document::{KindEntry, entry};
use crate::model::meta::Meta;
use crate::model::siderolink::MetaUrl;

/// `RegistryMirrorConfig` (named by the registry name): mirror endpoints of an image registry.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.RegistryMirrorConfigV1Alpha1")]
pub struct RegistryMirrorConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "endpoints", omitempty, go_name = "RegistryEndpoints")]
    pub endpoints: Vec<RegistryEndpoint>,
    #[talos(key = "skipFallback", omitempty, go_name = "RegistrySkipFallback")]
    pub skip_fallback: Option<bool>,
}

crate::document::named_kind!(RegistryMirrorConfig => "RegistryMirrorConfig");

/// One mirror endpoint.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.RegistryEndpoint")]
pub struct RegistryEndpoint {
    #[talos(key = "url", go_name = "EndpointURL")]
    pub url: MetaUrl,
    #[talos(key = "overridePath", omitempty, go_name = "EndpointOverridePath")]
    pub override_path: Option<bool>,
}

/// `RegistryAuthConfig` (named by the registry endpoint): pull credentials.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.RegistryAuthConfigV1Alpha1")]
pub struct RegistryAuthConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "username", omitempty, go_name = "RegistryUsername")]
    pub username: String,
    #[talos(key = "password", omitempty, go_name = "RegistryPassword")]
    pub password: String,
    #[talos(key = "auth", omitempty, go_name = "RegistryAuth")]
    pub auth: String,
    #[talos(key = "identityToken", omitempty, go_name = "RegistryIdentityToken")]
    pub identity_token: String,
}

crate::document::named_kind!(RegistryAuthConfig => "RegistryAuthConfig");

/// `RegistryTLSConfig` (named by the registry endpoint): TLS settings.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "cri.RegistryTLSConfigV1Alpha1")]
pub struct RegistryTlsConfig {
    #[talos(inline)]
    pub meta: Meta,
    #[talos(key = "name", go_name = "MetaName")]
    pub name: String,
    #[talos(key = "clientIdentity", omitempty, go_name = "TLSClientIdentity")]
    pub client_identity: Option<CertificateAndKey>,
    #[talos(key = "ca", omitempty, go_name = "TLSCA")]
    pub ca: String,
    #[talos(key = "insecureSkipVerify", omitempty, go_name = "TLSInsecureSkipVerify")]
    pub insecure_skip_verify: Option<bool>,
}

crate::document::named_kind!(RegistryTlsConfig => "RegistryTLSConfig");

/// `meta.CertificateAndKey`: PEM certificate and key text.
#[derive(Talos, Clone, Debug, Default, PartialEq)]
#[talos(go = "meta.CertificateAndKey")]
pub struct CertificateAndKey {
    #[talos(key = "cert", omitempty, go_name = "Cert")]
    pub cert: String,
    #[talos(key = "key", omitempty, go_name = "Key")]
    pub key: String,
}

/// The kinds of this area, as registered upstream.
pub const KINDS: &[KindEntry] =
    &[entry::<RegistryAuthConfig>(), entry::<RegistryMirrorConfig>(), entry::<RegistryTlsConfig>()];
