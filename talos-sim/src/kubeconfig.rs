//! The admin kubeconfig a control plane hands out, packed as Talos does: a gzip-compressed tar
//! with one regular file `kubeconfig` (mode 0600).

use std::io::Write;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use rcgen::{CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, KeyPair, PKCS_ECDSA_P256_SHA256};

/// Builds the admin kubeconfig text for a cluster.
///
/// The client certificate (CN `admin`, O `system:masters`, one year) is signed by a throwaway
/// ECDSA CA the simulator makes, not by the config's `cluster.ca`: the simulator serves no
/// Kubernetes API. `cluster_ca_pem` (the config's `cluster.ca.crt`) is embedded as the server CA.
pub fn build(cluster_name: &str, server: &str, cluster_ca_pem: &[u8]) -> Result<String, crate::pki::PkiError> {
    let e = |e: rcgen::Error| crate::pki::PkiError::new(e.to_string());
    let ca_key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).map_err(e)?;
    let mut ca = CertificateParams::default();
    ca.distinguished_name = DistinguishedName::new();
    ca.distinguished_name.push(DnType::OrganizationName, "kubernetes");
    ca.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let issuer = rcgen::Issuer::from_params(&ca, &ca_key);
    let key = KeyPair::generate_for(&PKCS_ECDSA_P256_SHA256).map_err(e)?;
    let mut p = CertificateParams::default();
    p.distinguished_name = DistinguishedName::new();
    p.distinguished_name.push(DnType::CommonName, "admin");
    p.distinguished_name.push(DnType::OrganizationName, "system:masters");
    let now = std::time::SystemTime::now();
    p.not_before = now.into();
    p.not_after = (now + std::time::Duration::from_secs(8760 * 3600)).into();
    p.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
    let cert = p.signed_by(&key, &issuer).map_err(e)?;
    let user = format!("admin@{cluster_name}");
    Ok(format!(
        "apiVersion: v1\nkind: Config\nclusters:\n    - name: {cluster_name}\n      cluster:\n        server: {server}\n        certificate-authority-data: {}\nusers:\n    - name: {user}\n      user:\n        client-certificate-data: {}\n        client-key-data: {}\ncontexts:\n    - context:\n        cluster: {cluster_name}\n        namespace: default\n        user: {user}\n      name: {user}\ncurrent-context: {user}\n",
        STANDARD.encode(cluster_ca_pem),
        STANDARD.encode(cert.pem()),
        STANDARD.encode(key.serialize_pem()),
    ))
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
        let text = super::build("talos-default", "https://10.5.0.2:6443", b"-----BEGIN CERTIFICATE-----\n").unwrap();
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
