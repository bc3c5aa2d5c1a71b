//! Keys and certificates in the forms Talos writes them (`siderolabs/crypto`'s x509 package as
//! Talos v1.13.9 uses it): ECDSA P-256 keys as `EC PRIVATE KEY` (SEC 1), Ed25519 keys as
//! `ED25519 PRIVATE KEY` (PKCS #8), RSA keys as `RSA PRIVATE KEY` (PKCS #1); self-signed CAs
//! and client certificates with Go's extension layout. Ed25519 and ECDSA keys and random bytes
//! //! come from ring (the operating system's generator), which also reads every key; RSA keys are
//! made by AWS-LC (feature `keygen`), whose generator costs some 20 ms to start (it gathers CPU
//! jitter), paid only when an RSA key is made.

#[cfg(feature = "keygen")]
use aws_lc_rs::encoding::AsDer;
use ring::rand::{SecureRandom, SystemRandom};
use ring::signature::{self, EcdsaKeyPair, Ed25519KeyPair, KeyPair};

use super::der::{self, sequence, tlv};
use crate::model::v1alpha1::PEMEncodedCertificateAndKey;

/// Object identifiers, DER-encoded (tag and length included).
const OID_ED25519: &[u8] = &[0x06, 0x03, 0x2b, 0x65, 0x70];
const OID_EC_PUBLIC_KEY: &[u8] = &[0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
const OID_P256: &[u8] = &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07];
const OID_ECDSA_SHA256: &[u8] = &[0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02];
const OID_ORGANIZATION: &[u8] = &[0x06, 0x03, 0x55, 0x04, 0x0a];
const OID_KEY_USAGE: &[u8] = &[0x06, 0x03, 0x55, 0x1d, 0x0f];
const OID_EXT_KEY_USAGE: &[u8] = &[0x06, 0x03, 0x55, 0x1d, 0x25];
const OID_BASIC_CONSTRAINTS: &[u8] = &[0x06, 0x03, 0x55, 0x1d, 0x13];
const OID_SUBJECT_KEY_ID: &[u8] = &[0x06, 0x03, 0x55, 0x1d, 0x0e];
const OID_AUTHORITY_KEY_ID: &[u8] = &[0x06, 0x03, 0x55, 0x1d, 0x23];
const OID_SERVER_AUTH: &[u8] = &[0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01];
const OID_CLIENT_AUTH: &[u8] = &[0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02];

/// A failure of the system's random source or of key generation.
#[derive(Debug)]
pub(crate) struct CryptoError(pub &'static str);

#[cfg(feature = "keygen")]
impl From<aws_lc_rs::error::Unspecified> for CryptoError {
    fn from(_: aws_lc_rs::error::Unspecified) -> CryptoError {
        CryptoError("the system's random source or key generation failed")
    }
}

impl From<ring::error::Unspecified> for CryptoError {
    fn from(_: ring::error::Unspecified) -> CryptoError {
        CryptoError("the system's random source or key generation failed")
    }
}

impl From<ring::error::KeyRejected> for CryptoError {
    fn from(_: ring::error::KeyRejected) -> CryptoError {
        CryptoError("a key just generated was refused")
    }
}

/// Random bytes from the operating system.
pub(crate) fn random_bytes(len: usize) -> Result<Vec<u8>, CryptoError> {
    let mut buf = vec![0; len];
    SystemRandom::new().fill(&mut buf)?;
    Ok(buf)
}

/// The PKCS #8 v1 form Go writes an Ed25519 key in: a fixed header, then the 32-byte seed.
const ED25519_PKCS8_V1_HEADER: [u8; 16] =
    [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];

/// A PEM block of `label`, 64 base64 characters a line, as Go's `pem.Encode` writes it.
pub(crate) fn pem(label: &str, der: &[u8]) -> Vec<u8> {
    let encoded = talos_go::base64_encode(der);
    let mut out = format!("-----BEGIN {label}-----\n");
    for chunk in encoded.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(chunk));
        out.push('\n');
    }
    out.push_str(&format!("-----END {label}-----\n"));
    out.into_bytes()
}

/// The first PEM block of `bytes` (Go's `pem.Decode`, for the well-formed blocks Talos
/// writes): its label and DER bytes.
pub(crate) fn pem_decode(bytes: &[u8]) -> Option<(String, Vec<u8>)> {
    let text = std::str::from_utf8(bytes).ok()?;
    let start = text.find("-----BEGIN ")?;
    let rest = &text[start + 11..];
    let label_end = rest.find("-----")?;
    let label = &rest[..label_end];
    let body = &rest[label_end + 5..];
    let end = body.find(&format!("-----END {label}-----"))?;
    let b64: String = body[..end].chars().filter(|c| !c.is_whitespace()).collect();
    let der = talos_go::base64_decode(&b64).ok()?;
    Some((label.to_string(), der))
}

/// A signing key of one of the kinds Talos's CAs use, with what its PEM form needs.
pub(crate) enum SigningKey {
    /// The key and its 32-byte seed.
    Ed25519(Ed25519KeyPair, Vec<u8>),
    /// The key and its 32-byte private scalar.
    EcdsaP256(EcdsaKeyPair, Vec<u8>),
}

impl SigningKey {
    fn new_ed25519() -> Result<SigningKey, CryptoError> {
        let seed = random_bytes(32)?;
        Ok(SigningKey::Ed25519(Ed25519KeyPair::from_seed_unchecked(&seed)?, seed))
    }

    fn new_ecdsa() -> Result<SigningKey, CryptoError> {
        let rng = SystemRandom::new();
        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&signature::ECDSA_P256_SHA256_ASN1_SIGNING, &rng)?;
        ecdsa_from_pkcs8(pkcs8.as_ref()).ok_or(CryptoError("a key just generated was refused"))
    }

    /// Reads a CA key as Talos writes them (`ED25519 PRIVATE KEY`, `EC PRIVATE KEY`, or a PKCS #8
    /// `PRIVATE KEY` of either kind).
    pub(crate) fn from_pem(pem_bytes: &[u8]) -> Option<SigningKey> {
        let (label, der) = pem_decode(pem_bytes)?;
        match label.as_str() {
            "ED25519 PRIVATE KEY" => ed25519_from_pkcs8(&der),
            "EC PRIVATE KEY" => ecdsa_from_sec1(&der),
            "PRIVATE KEY" => ed25519_from_pkcs8(&der).or_else(|| ecdsa_from_pkcs8(&der)),
            _ => None,
        }
    }

    /// The key in Talos's PEM form.
    fn to_pem(&self) -> Vec<u8> {
        match self {
            SigningKey::Ed25519(_, seed) => pem("ED25519 PRIVATE KEY", &[&ED25519_PKCS8_V1_HEADER[..], seed].concat()),
            SigningKey::EcdsaP256(key, scalar) => {
                let sec1 = sequence(&[
                    &der::unsigned_integer(&[1]),
                    &tlv(der::OCTET_STRING, scalar),
                    &tlv(0xa0, OID_P256),
                    &tlv(0xa1, &der::bit_string(key.public_key().as_ref())),
                ]);
                pem("EC PRIVATE KEY", &sec1)
            }
        }
    }

    /// The key's `SubjectPublicKeyInfo`.
    fn public_key_info(&self) -> Vec<u8> {
        match self {
            SigningKey::Ed25519(key, _) => {
                sequence(&[&sequence(&[OID_ED25519]), &der::bit_string(key.public_key().as_ref())])
            }
            SigningKey::EcdsaP256(key, _) => {
                sequence(&[&sequence(&[OID_EC_PUBLIC_KEY, OID_P256]), &der::bit_string(key.public_key().as_ref())])
            }
        }
    }

    /// The `AlgorithmIdentifier` of this key's signatures.
    fn signature_algorithm(&self) -> Vec<u8> {
        match self {
            SigningKey::Ed25519(..) => sequence(&[OID_ED25519]),
            SigningKey::EcdsaP256(..) => sequence(&[OID_ECDSA_SHA256]),
        }
    }

    fn sign(&self, message: &[u8]) -> Result<Vec<u8>, CryptoError> {
        match self {
            SigningKey::Ed25519(key, _) => Ok(key.sign(message).as_ref().to_vec()),
            SigningKey::EcdsaP256(key, _) => Ok(key.sign(&SystemRandom::new(), message)?.as_ref().to_vec()),
        }
    }
}

/// An Ed25519 key from PKCS #8 (v1 as Go writes it, or v2).
fn ed25519_from_pkcs8(der: &[u8]) -> Option<SigningKey> {
    let key = Ed25519KeyPair::from_pkcs8_maybe_unchecked(der).ok()?;
    // version, algorithm, then the seed as an OCTET STRING inside an OCTET STRING.
    let fields = der::read(der).and_then(|(_, body, _)| der::elements(body))?;
    let (_, seed, _) = der::read(fields.get(2)?.1)?;
    Some(SigningKey::Ed25519(key, seed.to_vec()))
}

/// An ECDSA P-256 key from PKCS #8, whose private key is a SEC 1 structure.
fn ecdsa_from_pkcs8(der: &[u8]) -> Option<SigningKey> {
    let fields = der::read(der).and_then(|(_, body, _)| der::elements(body))?;
    ecdsa_from_sec1(fields.get(2)?.1)
}

/// An ECDSA P-256 key from SEC 1 (`EC PRIVATE KEY`): its scalar and public key.
fn ecdsa_from_sec1(der: &[u8]) -> Option<SigningKey> {
    let fields = der::read(der).and_then(|(_, body, _)| der::elements(body))?;
    let scalar = fields.get(1).filter(|f| f.0 == der::OCTET_STRING)?.1;
    let public = fields.iter().find(|f| f.0 == 0xa1).and_then(|f| der::read(f.1))?.1;
    // A BIT STRING: the unused-bits byte, then the point.
    let point = public.strip_prefix(&[0])?;
    let key = EcdsaKeyPair::from_private_key_and_public_key(
        &signature::ECDSA_P256_SHA256_ASN1_SIGNING,
        scalar,
        point,
        &SystemRandom::new(),
    )
    .ok()?;
    Some(SigningKey::EcdsaP256(key, scalar.to_vec()))
}

/// A certificate's validity: seconds since the Unix epoch.
#[derive(Clone, Copy)]
pub(crate) struct Validity {
    pub not_before: i64,
    pub not_after: i64,
}

/// The subject or issuer name `O=org...` (empty for no organization).
fn name(organizations: &[&str]) -> Vec<u8> {
    if organizations.is_empty() {
        return sequence(&[]);
    }
    let attributes: Vec<Vec<u8>> =
        organizations.iter().map(|o| sequence(&[OID_ORGANIZATION, &der::directory_string(o)])).collect();
    let refs: Vec<&[u8]> = attributes.iter().map(Vec::as_slice).collect();
    sequence(&[&der::constructed(der::SET, &refs)])
}

fn extension(oid: &[u8], critical: bool, value: &[u8]) -> Vec<u8> {
    let octets = tlv(der::OCTET_STRING, value);
    if critical { sequence(&[oid, &tlv(der::BOOLEAN, &[0xff]), &octets]) } else { sequence(&[oid, &octets]) }
}

/// Builds, signs and encodes a certificate.
struct CertificateSpec<'a> {
    subject: Vec<u8>,
    issuer: Vec<u8>,
    public_key_info: Vec<u8>,
    validity: Validity,
    extensions: Vec<Vec<u8>>,
    signer: &'a SigningKey,
}

impl CertificateSpec<'_> {
    fn sign(self) -> Result<Vec<u8>, CryptoError> {
        // A random serial below 2^128, as Talos draws it.
        let serial = random_bytes(16)?;
        let algorithm = self.signer.signature_algorithm();
        let refs: Vec<&[u8]> = self.extensions.iter().map(Vec::as_slice).collect();
        let tbs = sequence(&[
            &tlv(0xa0, &der::unsigned_integer(&[2])),
            &der::unsigned_integer(&serial),
            &algorithm,
            &self.issuer,
            &sequence(&[&der::time(self.validity.not_before), &der::time(self.validity.not_after)]),
            &self.subject,
            &self.public_key_info,
            &tlv(0xa3, &sequence(&refs)),
        ]);
        let signature = self.signer.sign(&tbs)?;
        Ok(pem("CERTIFICATE", &sequence(&[&tbs, &algorithm, &der::bit_string(&signature)])))
    }
}

/// Key usage `digitalSignature` (bit 0) and, for a CA, `keyCertSign` (bit 5), as the minimal
/// BIT STRING Go writes.
fn key_usage(ca: bool) -> Vec<u8> {
    if ca { tlv(der::BIT_STRING, &[0x02, 0x84]) } else { tlv(der::BIT_STRING, &[0x07, 0x80]) }
}

/// The kinds of key a Talos CA is made with.
#[derive(Clone, Copy)]
pub(crate) enum CaKey {
    Ed25519,
    EcdsaP256,
}

/// A self-signed CA as Talos makes it: subject `O=<organization>` (or empty), digital
/// signature and certificate signing, server and client authentication, a random subject key
/// id.
pub(crate) fn self_signed_ca(
    organization: Option<&str>,
    key: CaKey,
    validity: Validity,
) -> Result<PEMEncodedCertificateAndKey, CryptoError> {
    let signer = match key {
        CaKey::Ed25519 => SigningKey::new_ed25519()?,
        CaKey::EcdsaP256 => SigningKey::new_ecdsa()?,
    };
    let subject = name(organization.as_slice());
    let key_id = random_bytes(20)?;
    let extensions = vec![
        extension(OID_KEY_USAGE, true, &key_usage(true)),
        extension(OID_EXT_KEY_USAGE, false, &sequence(&[OID_SERVER_AUTH, OID_CLIENT_AUTH])),
        extension(OID_BASIC_CONSTRAINTS, true, &sequence(&[&tlv(der::BOOLEAN, &[0xff])])),
        extension(OID_SUBJECT_KEY_ID, false, &tlv(der::OCTET_STRING, &key_id)),
    ];
    let crt = CertificateSpec {
        issuer: subject.clone(),
        subject,
        public_key_info: signer.public_key_info(),
        validity,
        extensions,
        signer: &signer,
    }
    .sign()?;
    Ok(PEMEncodedCertificateAndKey { crt: Some(crt), key: Some(signer.to_pem()) })
}

/// A client certificate for the Talos API: a fresh key of the CA's kind, subject
/// `O=<role>...`, digital signature, client authentication, signed by the CA (its subject as
/// issuer, its subject key id as authority key id).
pub(crate) fn client_certificate(
    ca_crt: &[u8],
    ca_key: &SigningKey,
    organizations: &[&str],
    validity: Validity,
) -> Result<PEMEncodedCertificateAndKey, CryptoError> {
    let ca = CaCertificate::parse(ca_crt).ok_or(CryptoError("the Talos API CA certificate is not valid"))?;
    let key = match ca_key {
        SigningKey::Ed25519(..) => SigningKey::new_ed25519()?,
        SigningKey::EcdsaP256(..) => SigningKey::new_ecdsa()?,
    };
    let mut extensions = vec![
        extension(OID_KEY_USAGE, true, &key_usage(false)),
        extension(OID_EXT_KEY_USAGE, false, &sequence(&[OID_CLIENT_AUTH])),
    ];
    if let Some(id) = &ca.subject_key_id {
        extensions.push(extension(OID_AUTHORITY_KEY_ID, false, &sequence(&[&tlv(0x80, id)])));
    }
    let crt = CertificateSpec {
        subject: name(organizations),
        issuer: ca.subject,
        public_key_info: key.public_key_info(),
        validity,
        extensions,
        signer: ca_key,
    }
    .sign()?;
    Ok(PEMEncodedCertificateAndKey { crt: Some(crt), key: Some(key.to_pem()) })
}

/// What signing needs from a CA certificate: its subject and subject key id.
struct CaCertificate {
    subject: Vec<u8>,
    subject_key_id: Option<Vec<u8>>,
}

impl CaCertificate {
    fn parse(pem_bytes: &[u8]) -> Option<CaCertificate> {
        let (label, cert) = pem_decode(pem_bytes)?;
        if label != "CERTIFICATE" {
            return None;
        }
        let (_, cert_body, _) = der::read(&cert)?;
        let (_, tbs, _) = der::read(cert_body)?;
        let fields = der::elements(tbs)?;
        // version, serial, signature, issuer, validity, subject, key info, [extensions]
        let subject = fields.get(5)?.2.to_vec();
        let subject_key_id = fields.iter().find(|f| f.0 == 0xa3).and_then(|ext| subject_key_id(ext.1));
        Some(CaCertificate { subject, subject_key_id })
    }
}

fn subject_key_id(extensions: &[u8]) -> Option<Vec<u8>> {
    let (_, list, _) = der::read(extensions)?;
    der::elements(list)?.into_iter().find_map(|(_, ext, _)| {
        let parts = der::elements(ext)?;
        if parts.first()?.2 != OID_SUBJECT_KEY_ID {
            return None;
        }
        let (_, value, _) = der::read(parts.last()?.1)?;
        Some(value.to_vec())
    })
}

/// An RSA-4096 key as `RSA PRIVATE KEY` (PKCS #1), the service-account key of contracts after
/// v1.6.
///
/// Finding two 2048-bit primes takes a random time (a tenth of a second to over a second). With
/// several cores, as many searches as cores (up to four) race and the first key found is taken:
/// the median wait drops below talosctl's, for more CPU time. The other searches end on their
/// own, their keys dropped unseen.
#[cfg(feature = "keygen")]
pub(crate) fn rsa_key() -> Result<Vec<u8>, CryptoError> {
    let searches = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get).min(4);
    let (found, first) = std::sync::mpsc::channel();
    let mut started = 0;
    for _ in 1..searches {
        let found = found.clone();
        if std::thread::Builder::new().spawn(move || found.send(one_rsa_key())).is_ok() {
            started += 1;
        }
    }
    if started == 0 {
        return one_rsa_key();
    }
    drop(found);
    // The first answer wins; a failed search gives way to the next one.
    let mut last = Err(CryptoError("the RSA key could not be generated"));
    for _ in 0..started {
        match first.recv() {
            Ok(Ok(key)) => return Ok(key),
            Ok(Err(e)) => last = Err(e),
            Err(_) => break,
        }
    }
    last
}

/// Without `keygen` no public call asks for an RSA key: only `SecretsBundle::generate` lacks one,
/// and it is not built; a bundle from a Kubernetes PKI directory brings its own.
#[cfg(not(feature = "keygen"))]
pub(crate) fn rsa_key() -> Result<Vec<u8>, CryptoError> {
    Err(CryptoError("RSA keys are made only with talos-machineconfig's `keygen` feature"))
}

#[cfg(feature = "keygen")]
fn one_rsa_key() -> Result<Vec<u8>, CryptoError> {
    let pair = aws_lc_rs::rsa::KeyPair::generate(aws_lc_rs::rsa::KeySize::Rsa4096)?;
    let pkcs8 = pair.as_der()?;
    // PKCS #8: version, algorithm, then the PKCS #1 key as an OCTET STRING.
    let pkcs1 = der::read(pkcs8.as_ref())
        .and_then(|(_, body, _)| der::elements(body))
        .and_then(|fields| fields.get(2).map(|f| f.1.to_vec()))
        .ok_or(CryptoError("the RSA key could not be encoded"))?;
    Ok(pem("RSA PRIVATE KEY", &pkcs1))
}

/// An ECDSA P-256 key as `EC PRIVATE KEY`, the service-account key up to contract v1.6.
pub(crate) fn ecdsa_key() -> Result<Vec<u8>, CryptoError> {
    Ok(SigningKey::new_ecdsa()?.to_pem())
}

/// Whether a PEM private key parses as one of the kinds Talos reads; the error is Talos's
/// text where it has one (a CA's key and a lone key word the unknown-type error differently).
pub(crate) fn check_key(pem_bytes: &[u8], of_pair: bool) -> Result<(), String> {
    let (label, der) = pem_decode(pem_bytes).ok_or("failed to parse PEM block")?;
    let parsed = match label.as_str() {
        "RSA PRIVATE KEY" => ring::rsa::KeyPair::from_der(&der).is_ok(),
        "EC PRIVATE KEY" | "ED25519 PRIVATE KEY" | "PRIVATE KEY" => {
            SigningKey::from_pem(pem_bytes).is_some() || ring::rsa::KeyPair::from_pkcs8(&der).is_ok()
        }
        other => {
            let colon = if of_pair { ":" } else { "" };
            return Err(format!("unsupported key type{colon} {}", crate::gofmt::quote(other)));
        }
    };
    if parsed { Ok(()) } else { Err(format!("failed to parse {} key", label.trim_end_matches(" PRIVATE KEY"))) }
}

/// Whether a PEM certificate is a well-formed X.509 structure.
pub(crate) fn check_certificate(pem_bytes: &[u8]) -> Result<(), String> {
    let (_, der) = pem_decode(pem_bytes).ok_or("failed to parse PEM block")?;
    let well_formed = der::read(&der)
        .filter(|(tag, _, len)| *tag == der::SEQUENCE && *len == der.len())
        .and_then(|(_, body, _)| der::elements(body))
        .is_some_and(|parts| parts.len() == 3 && CaCertificate::parse(pem_bytes).is_some());
    if well_formed { Ok(()) } else { Err("failed to parse certificate: x509: malformed certificate".into()) }
}
