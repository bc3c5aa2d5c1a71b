//! A fresh Ed25519 PKI shaped like a Talos cluster's (docs/api.md §1.2): an OS CA with `O=talos`,
//! one apid server certificate per node (IP SANs 127.0.0.1 and the node address, EKU
//! serverAuth) and an admin client certificate (`O=os:admin`, EKU exactly clientAuth).
//!
//! Extra issuing helpers make the certificates the negative tests need: a client certificate
//! without the client-auth usage, an expired one, and a whole second CA.

use std::collections::BTreeMap;
use std::net::IpAddr;

use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose, PKCS_ED25519, SanType,
};

/// A PKI error (certificate generation failed). Carries no key material.
#[derive(Debug, thiserror::Error)]
#[error("certificate generation failed: {0}")]
pub struct PkiError(String);

impl PkiError {
    pub(crate) fn new(msg: String) -> PkiError {
        PkiError(msg)
    }
}

fn err(e: rcgen::Error) -> PkiError {
    PkiError(e.to_string())
}

/// The key as Talos writes keys: PKCS#8 v1 (no public key; OpenSSL 3.0 refuses ring's v2 form
/// with the public key), labelled `PRIVATE KEY`.
fn pkcs8_v1_pem(key: &KeyPair) -> Result<String, PkiError> {
    let der = crate::der::ed25519_pkcs8_v1(&key.serialize_der())
        .ok_or_else(|| PkiError("an Ed25519 key did not encode as PKCS#8".to_string()))?;
    Ok(crate::der::pem("PRIVATE KEY", &der))
}

/// A certificate and its private key, both PEM. The key is PKCS#8 v1, the form Go's
/// `x509.MarshalPKCS8PrivateKey` writes, with the plain `PRIVATE KEY` label;
/// [`CertKey::talos_key_pem`] gives Talos's `ED25519 PRIVATE KEY` label.
#[derive(Clone)]
pub struct CertKey {
    /// The certificate, PEM.
    pub cert_pem: String,
    /// The private key, PEM (`PRIVATE KEY`). Secret: never log it.
    pub key_pem: String,
}

impl std::fmt::Debug for CertKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CertKey").field("cert_pem", &self.cert_pem).field("key_pem", &"<redacted>").finish()
    }
}

impl CertKey {
    /// The key PEM with the label Talos writes into a talosconfig (`ED25519 PRIVATE KEY`).
    pub fn talos_key_pem(&self) -> String {
        use talos_client::config::{ED25519_KEY_BEGIN, ED25519_KEY_END, PKCS8_KEY_BEGIN, PKCS8_KEY_END};
        self.key_pem.replace(PKCS8_KEY_BEGIN, ED25519_KEY_BEGIN).replace(PKCS8_KEY_END, ED25519_KEY_END)
    }
}

/// Which extended key usages a client certificate carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientUsage {
    /// Exactly clientAuth, as Talos issues.
    ClientAuth,
    /// serverAuth only: no client-auth usage (rejected in the TLS handshake).
    ServerAuthOnly,
    /// No extended key usage extension at all (accepted by the handshake, refused by the
    /// simulated apid's "exactly clientAuth" check).
    NoExtendedUsage,
}

/// Validity of an issued certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Validity {
    /// From yesterday for one year (Talos's admin certificate lasts a year).
    Current,
    /// Expired: valid in 2020 only.
    Expired,
}

/// The client identities a simulated cluster hands out, by talosconfig name suffix: `admin`
/// (`os:admin`, the plain `talosconfig`), `operator` and `reader`.
pub const ROLES: [(&str, &str); 3] = [("admin", "os:admin"), ("operator", "os:operator"), ("reader", "os:reader")];

/// A simulated cluster's PKI kept between runs (`labctl sim up --dir DIR` keeps it in
/// `DIR/pki.json`, mode 0600): the CA's certificate and key and each role's client identity,
/// PEM. Secret: never log it (`Debug` shows only the roles).
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub struct SavedPki {
    /// The CA certificate.
    pub ca_cert: String,
    /// The CA key (PKCS#8).
    pub ca_key: String,
    /// Client identities by role name (`admin`, `operator`, `reader`).
    pub clients: BTreeMap<String, SavedIdentity>,
}

/// One saved client identity.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
pub struct SavedIdentity {
    /// The certificate.
    pub cert: String,
    /// The key (PKCS#8).
    pub key: String,
}

impl std::fmt::Debug for SavedPki {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SavedPki").field("roles", &self.clients.keys().collect::<Vec<_>>()).finish_non_exhaustive()
    }
}

/// The simulator's certificate authority.
pub struct Pki {
    ca_key: KeyPair,
    ca_pem: String,
}

impl std::fmt::Debug for Pki {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pki").field("ca_pem", &self.ca_pem).finish_non_exhaustive()
    }
}

fn now_params(validity: Validity) -> CertificateParams {
    let mut p = CertificateParams::default();
    p.distinguished_name = DistinguishedName::new();
    match validity {
        Validity::Current => {
            let now = std::time::SystemTime::now();
            let day = std::time::Duration::from_secs(86_400);
            p.not_before = (now - day).into();
            p.not_after = (now + 365 * day).into();
        }
        Validity::Expired => {
            p.not_before = rcgen::date_time_ymd(2020, 1, 1);
            p.not_after = rcgen::date_time_ymd(2020, 12, 31);
        }
    }
    p
}

/// The OS CA's parameters: `O=talos`, ten years, key usages CertSign+DigitalSignature, EKU
/// serverAuth+clientAuth.
fn ca_params() -> CertificateParams {
    let mut p = now_params(Validity::Current);
    p.not_after = (std::time::SystemTime::now() + std::time::Duration::from_secs(10 * 365 * 86_400)).into();
    p.distinguished_name.push(DnType::OrganizationName, "talos");
    p.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    p.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::DigitalSignature];
    p.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth, ExtendedKeyUsagePurpose::ClientAuth];
    p
}

impl Pki {
    /// A fresh Ed25519 CA, subject `O=talos`, key usages CertSign+DigitalSignature, EKU
    /// serverAuth+clientAuth (as Talos's OS CA).
    pub fn new() -> Result<Pki, PkiError> {
        let ca_key = KeyPair::generate_for(&PKCS_ED25519).map_err(err)?;
        let p = ca_params();
        let cert = p.self_signed(&ca_key).map_err(err)?;
        Ok(Pki { ca_pem: cert.pem(), ca_key })
    }

    /// The CA of a saved PKI: its certificate as saved, its key; what it issues verifies against
    /// the saved certificate (same name, same key).
    pub fn from_saved(saved: &SavedPki) -> Result<Pki, PkiError> {
        // Never put a key's parse error in a message: report only that it failed.
        let ca_key = KeyPair::from_pem(&saved.ca_key)
            .map_err(|_| PkiError("the saved CA key is not a PEM Ed25519 key".to_string()))?;
        if !saved.ca_cert.starts_with("-----BEGIN CERTIFICATE-----") {
            return Err(PkiError("the saved CA certificate is not a PEM certificate".to_string()));
        }
        Issuer::from_ca_cert_pem(&saved.ca_cert, &ca_key)
            .map_err(|_| PkiError("the saved CA certificate does not parse".to_string()))?;
        Ok(Pki { ca_pem: saved.ca_cert.clone(), ca_key })
    }

    /// This CA and the given client identities, to save.
    pub fn save(&self, clients: &BTreeMap<String, CertKey>) -> Result<SavedPki, PkiError> {
        Ok(SavedPki {
            ca_cert: self.ca_pem.clone(),
            ca_key: pkcs8_v1_pem(&self.ca_key)?,
            clients: clients
                .iter()
                .map(|(role, c)| (role.clone(), SavedIdentity { cert: c.cert_pem.clone(), key: c.key_pem.clone() }))
                .collect(),
        })
    }

    /// The CA certificate, PEM.
    pub fn ca_pem(&self) -> &str {
        &self.ca_pem
    }

    fn issue(&self, params: CertificateParams) -> Result<CertKey, PkiError> {
        let key = KeyPair::generate_for(&PKCS_ED25519).map_err(err)?;
        // The issuer name and key id are the CA certificate's own, byte for byte (a Go-made CA
        // writes its name as PrintableString, rcgen as UTF8String): verifiers compare the bytes.
        let issuer = Issuer::from_ca_cert_pem(&self.ca_pem, &self.ca_key).map_err(err)?;
        let cert = params.signed_by(&key, &issuer).map_err(err)?;
        Ok(CertKey { cert_pem: cert.pem(), key_pem: pkcs8_v1_pem(&key)? })
    }

    /// An apid server certificate: CN = hostname, IP SANs 127.0.0.1 and `addresses`, DNS SAN
    /// hostname, EKU serverAuth.
    pub fn server_cert(&self, hostname: &str, addresses: &[IpAddr]) -> Result<CertKey, PkiError> {
        let mut p = now_params(Validity::Current);
        p.distinguished_name.push(DnType::CommonName, hostname);
        p.subject_alt_names.push(SanType::IpAddress(IpAddr::from([127, 0, 0, 1])));
        for a in addresses {
            p.subject_alt_names.push(SanType::IpAddress(*a));
        }
        p.subject_alt_names.push(SanType::DnsName(hostname.try_into().map_err(err)?));
        p.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        p.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        self.issue(p)
    }

    /// A client certificate with `O = roles` and no CN (as Talos's admin certificate).
    pub fn client_cert(&self, roles: &[&str], usage: ClientUsage, validity: Validity) -> Result<CertKey, PkiError> {
        let mut p = now_params(validity);
        for r in roles {
            p.distinguished_name.push(DnType::OrganizationName, *r);
        }
        p.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        p.extended_key_usages = match usage {
            ClientUsage::ClientAuth => vec![ExtendedKeyUsagePurpose::ClientAuth],
            ClientUsage::ServerAuthOnly => vec![ExtendedKeyUsagePurpose::ServerAuth],
            ClientUsage::NoExtendedUsage => Vec::new(),
        };
        self.issue(p)
    }

    /// The admin client certificate (`O=os:admin`, EKU clientAuth, one year).
    pub fn admin_cert(&self) -> Result<CertKey, PkiError> {
        self.client_cert(&["os:admin"], ClientUsage::ClientAuth, Validity::Current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn der(pem: &str) -> Vec<u8> {
        use base64::Engine;
        let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        base64::engine::general_purpose::STANDARD.decode(body).unwrap()
    }

    #[test]
    fn reads_roles_and_usages() {
        let pki = Pki::new().unwrap();
        let admin = crate::der::parse(&der(&pki.admin_cert().unwrap().cert_pem)).unwrap();
        assert_eq!(admin.organizations, ["os:admin"]);
        assert!(admin.client_auth_only());
        let c = pki.client_cert(&["os:reader"], ClientUsage::NoExtendedUsage, Validity::Current).unwrap();
        let c = crate::der::parse(&der(&c.cert_pem)).unwrap();
        assert_eq!(c.ext_key_usages, None);
        assert!(!c.client_auth_only());
        let s = pki.client_cert(&[], ClientUsage::ServerAuthOnly, Validity::Current).unwrap();
        assert!(!crate::der::parse(&der(&s.cert_pem)).unwrap().client_auth_only());
    }

    #[test]
    fn total_on_garbage() {
        let pki = Pki::new().unwrap();
        let good = der(&pki.admin_cert().unwrap().cert_pem);
        for n in 0..good.len() {
            let _ = crate::der::parse(&good[..n]);
            let mut bad = good.clone();
            bad[n] ^= 0xff;
            let _ = crate::der::parse(&bad);
        }
        assert_eq!(crate::der::parse(&[]), None);
        assert_eq!(crate::der::parse(&[0x30, 0x84, 0xff, 0xff, 0xff, 0xff]), None);
    }
}
