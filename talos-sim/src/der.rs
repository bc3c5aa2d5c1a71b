//! Just enough DER to read a client certificate's subject Organization values (Talos roles) and
//! its extended key usages. Total on arbitrary input: malformed data yields `None`.

const SEQUENCE: u8 = 0x30;
const SET: u8 = 0x31;
const OID: u8 = 0x06;
const OCTET_STRING: u8 = 0x04;
const BOOLEAN: u8 = 0x01;
const EXPLICIT_0: u8 = 0xa0;
const EXPLICIT_3: u8 = 0xa3;

/// `id-at-organizationName` (2.5.4.10).
const OID_O: &[u8] = &[0x55, 0x04, 0x0a];
/// `id-ce-extKeyUsage` (2.5.29.37).
const OID_EKU: &[u8] = &[0x55, 0x1d, 0x25];
/// `id-kp-clientAuth` (1.3.6.1.5.5.7.3.2).
pub const OID_CLIENT_AUTH: &[u8] = &[0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02];

/// One TLV: (tag, content, rest).
fn tlv(input: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = input.split_first()?;
    let (&first, rest) = rest.split_first()?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n].iter().fold(0usize, |acc, b| (acc << 8) | usize::from(*b));
        (len, &rest[n..])
    };
    if rest.len() < len {
        return None;
    }
    Some((tag, &rest[..len], &rest[len..]))
}

fn expect(input: &[u8], tag: u8) -> Option<(&[u8], &[u8])> {
    let (t, content, rest) = tlv(input)?;
    (t == tag).then_some((content, rest))
}

/// What the simulator reads from a client certificate.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClientCert {
    /// Subject `O` values (Talos roles), in order.
    pub organizations: Vec<String>,
    /// Extended key usage OIDs (DER content bytes); `None` when the extension is absent.
    pub ext_key_usages: Option<Vec<Vec<u8>>>,
}

impl ClientCert {
    /// Whether the EKU list is exactly `[clientAuth]`, as apid requires.
    pub fn client_auth_only(&self) -> bool {
        matches!(&self.ext_key_usages, Some(v) if v.len() == 1 && v[0] == OID_CLIENT_AUTH)
    }
}

/// Parses a certificate's subject organizations and extended key usages.
pub fn parse(cert: &[u8]) -> Option<ClientCert> {
    let (certificate, _) = expect(cert, SEQUENCE)?;
    let (mut tbs, _) = expect(certificate, SEQUENCE)?;
    if let Some((EXPLICIT_0, _, rest)) = tlv(tbs) {
        tbs = rest;
    }
    let (_, _serial, rest) = tlv(tbs)?;
    let (_, _sig_alg, rest) = tlv(rest)?;
    let (_, _issuer, rest) = tlv(rest)?;
    let (_, _validity, rest) = tlv(rest)?;
    let (subject, rest) = expect(rest, SEQUENCE)?;
    let (_, _spki, mut rest) = tlv(rest)?;
    let mut out = ClientCert::default();
    let mut rdns = subject;
    while !rdns.is_empty() {
        let (set, next) = expect(rdns, SET)?;
        rdns = next;
        let mut atvs = set;
        while !atvs.is_empty() {
            let (atv, next) = expect(atvs, SEQUENCE)?;
            atvs = next;
            let (oid, value) = expect(atv, OID)?;
            if oid == OID_O {
                let (_, v, _) = tlv(value)?;
                out.organizations.push(String::from_utf8_lossy(v).into_owned());
            }
        }
    }
    while !rest.is_empty() {
        let (tag, content, next) = tlv(rest)?;
        rest = next;
        if tag != EXPLICIT_3 {
            continue;
        }
        let (mut exts, _) = expect(content, SEQUENCE)?;
        while !exts.is_empty() {
            let (ext, next) = expect(exts, SEQUENCE)?;
            exts = next;
            let (oid, mut body) = expect(ext, OID)?;
            if let Some((BOOLEAN, _, r)) = tlv(body) {
                body = r;
            }
            let (value, _) = expect(body, OCTET_STRING)?;
            if oid == OID_EKU {
                let (mut list, _) = expect(value, SEQUENCE)?;
                let mut usages = Vec::new();
                while !list.is_empty() {
                    let (u, next) = expect(list, OID)?;
                    usages.push(u.to_vec());
                    list = next;
                }
                out.ext_key_usages = Some(usages);
            }
        }
    }
    Some(out)
}

/// `id-Ed25519` (1.3.101.112).
const OID_ED25519: &[u8] = &[0x2b, 0x65, 0x70];

/// An Ed25519 PKCS#8 private key in the form Go's `x509.MarshalPKCS8PrivateKey` writes (and
/// Talos puts into a talosconfig): version 0, the algorithm, the 32-byte seed; 48 bytes. Reads
/// either form (v2 adds the public key, as ring writes it); `None` for anything else.
pub fn ed25519_pkcs8_v1(pkcs8: &[u8]) -> Option<Vec<u8>> {
    let (body, _) = expect(pkcs8, SEQUENCE)?;
    let (_version, rest) = expect(body, 0x02)?;
    let (algorithm, rest) = expect(rest, SEQUENCE)?;
    let (oid, _) = expect(algorithm, OID)?;
    if oid != OID_ED25519 {
        return None;
    }
    let (wrapped, _) = expect(rest, OCTET_STRING)?;
    let (seed, _) = expect(wrapped, OCTET_STRING)?;
    if seed.len() != 32 {
        return None;
    }
    let mut der = vec![SEQUENCE, 46, 0x02, 0x01, 0x00, SEQUENCE, 5, OID, 3];
    der.extend_from_slice(OID_ED25519);
    der.extend_from_slice(&[OCTET_STRING, 34, OCTET_STRING, 32]);
    der.extend_from_slice(seed);
    Some(der)
}

/// PEM text of `der` under `label`, 64 base64 characters a line (as Go's `pem.Encode`).
pub fn pem(label: &str, der: &[u8]) -> String {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for chunk in b64.as_bytes().chunks(64) {
        out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pkcs8_v1_conversion_refuses_what_is_not_an_ed25519_key() {
        assert_eq!(ed25519_pkcs8_v1(b""), None);
        assert_eq!(ed25519_pkcs8_v1(&[0x30, 0x03, 0x02, 0x01, 0x00]), None);
        // An RSA algorithm identifier (1.2.840.113549.1.1.1) with a 32-byte payload.
        let mut rsa = vec![0x30, 0x34, 0x02, 0x01, 0x00, 0x30, 0x0b, 0x06, 0x09];
        rsa.extend_from_slice(&[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]);
        rsa.extend_from_slice(&[0x04, 0x22, 0x04, 0x20]);
        rsa.extend_from_slice(&[7; 32]);
        assert_eq!(ed25519_pkcs8_v1(&rsa), None);
    }

    #[test]
    fn pkcs8_v2_becomes_the_48_byte_v1_form() {
        let mut v2 =
            vec![0x30, 0x53, 0x02, 0x01, 0x01, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
        v2.extend_from_slice(&[9; 32]);
        v2.extend_from_slice(&[0xa1, 0x23, 0x03, 0x21, 0x00]);
        v2.extend_from_slice(&[5; 32]);
        let v1 = ed25519_pkcs8_v1(&v2).unwrap();
        assert_eq!(v1.len(), 48);
        assert_eq!(
            v1[..16],
            [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20]
        );
        assert_eq!(v1[16..], [9; 32]);
    }
}
