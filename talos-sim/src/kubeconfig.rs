//! The admin kubeconfig a control plane hands out, packed as Talos does: a gzip-compressed tar
//! with one regular file `kubeconfig` (mode 0600).

use std::io::Write;

use std::net::IpAddr;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rcgen::{
    CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, Issuer, KeyPair, KeyUsagePurpose,
    PKCS_ECDSA_P256_SHA256, SanType,
};

use crate::pki::{CertKey, PkiError};

fn err(e: rcgen::Error) -> PkiError {
    PkiError::new(e.to_string())
}

/// The simulated Kubernetes API's PKI: a throwaway ECDSA P-256 CA (`O=kubernetes`, not the
/// config's `cluster.ca`), the API server's certificate and the admin client certificate.
pub struct KubePki {
    /// The CA certificate, PEM.
    pub ca_pem: String,
    /// The API server certificate (CN `kube-apiserver`, EKU serverAuth).
    pub server: CertKey,
    /// The admin client certificate (CN `admin`, O `system:masters`, EKU clientAuth, one year).
    pub admin: CertKey,
}

impl KubePki {
    /// A fresh CA and the two certificates; the server certificate carries IP SANs `ips` and DNS
    /// SANs `dns`.
    pub fn new(ips: &[IpAddr], dns: &[&str]) -> Result<KubePki, PkiError> {
        let ca_key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).map_err(err)?;
        let mut ca = CertificateParams::default();
        ca.distinguished_name = DistinguishedName::new();
        ca.distinguished_name.push(DnType::OrganizationName, "kubernetes");
        ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign, KeyUsagePurpose::DigitalSignature];
        let ca_cert = ca.self_signed(&ca_key).map_err(err)?;
        let issuer = Issuer::from_params(&ca, &ca_key);
        let now = std::time::SystemTime::now();
        let year = now + std::time::Duration::from_secs(8760 * 3600);

        let key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).map_err(err)?;
        let mut p = CertificateParams::default();
        p.distinguished_name = DistinguishedName::new();
        p.distinguished_name.push(DnType::CommonName, "kube-apiserver");
        p.not_before = (now - std::time::Duration::from_secs(3600)).into();
        p.not_after = year.into();
        for ip in ips {
            p.subject_alt_names.push(SanType::IpAddress(*ip));
        }
        for name in dns {
            p.subject_alt_names.push(SanType::DnsName((*name).try_into().map_err(err)?));
        }
        p.key_usages = vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::KeyEncipherment];
        p.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let cert = p.signed_by(&key, &issuer).map_err(err)?;
        let server = CertKey { cert_pem: cert.pem(), key_pem: key.serialize_pem() };

        let key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).map_err(err)?;
        let mut p = CertificateParams::default();
        p.distinguished_name = DistinguishedName::new();
        p.distinguished_name.push(DnType::CommonName, "admin");
        p.distinguished_name.push(DnType::OrganizationName, "system:masters");
        p.not_before = now.into();
        p.not_after = year.into();
        p.key_usages = vec![KeyUsagePurpose::DigitalSignature, KeyUsagePurpose::KeyEncipherment];
        p.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        let cert = p.signed_by(&key, &issuer).map_err(err)?;
        let admin = CertKey { cert_pem: cert.pem(), key_pem: key.serialize_pem() };
        Ok(KubePki { ca_pem: ca_cert.pem(), server, admin })
    }
}

/// Builds the admin kubeconfig text for a cluster: `server`, the CA `ca_pem` as
/// `certificate-authority-data` and `admin` as the client identity.
pub fn build(cluster_name: &str, server: &str, ca_pem: &str, admin: &CertKey) -> String {
    let user = format!("admin@{cluster_name}");
    format!(
        "apiVersion: v1\nkind: Config\nclusters:\n    - name: {cluster_name}\n      cluster:\n        server: {server}\n        certificate-authority-data: {}\nusers:\n    - name: {user}\n      user:\n        client-certificate-data: {}\n        client-key-data: {}\ncontexts:\n    - context:\n        cluster: {cluster_name}\n        namespace: default\n        user: {user}\n      name: {user}\ncurrent-context: {user}\n",
        STANDARD.encode(ca_pem),
        STANDARD.encode(&admin.cert_pem),
        STANDARD.encode(&admin.key_pem),
    )
}

/// Packs `kubeconfig` as a gzip tar with one entry `kubeconfig`, mode 0600.
pub fn pack(kubeconfig: &[u8]) -> std::io::Result<Vec<u8>> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    let mut header = tar::Header::new_gnu();
    header.set_size(kubeconfig.len() as u64);
    header.set_mode(0o600);
    header.set_entry_type(tar::EntryType::Regular);
    header.set_mtime(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_secs());
    tar.append_data(&mut header, "kubeconfig", kubeconfig)?;
    let mut gz = tar.into_inner()?;
    gz.flush()?;
    gz.finish()
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    #[test]
    fn round_trip() {
        let pki = super::KubePki::new(&[std::net::IpAddr::from([127, 0, 0, 1])], &["localhost"]).unwrap();
        let text = super::build("talos-default", "https://127.0.0.1:6443", &pki.ca_pem, &pki.admin);
        assert!(text.contains("current-context: admin@talos-default\n"));
        let packed = super::pack(text.as_bytes()).unwrap();
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(&packed[..]));
        let mut entries = archive.entries().unwrap();
        let mut entry = entries.next().unwrap().unwrap();
        assert_eq!(entry.path().unwrap().to_str(), Some("kubeconfig"));
        assert_eq!(entry.header().mode().unwrap(), 0o600);
        let mut body = String::new();
        entry.read_to_string(&mut body).unwrap();
        assert_eq!(body, text);
    }
}
