//! Server-side TLS for the simulated APIs (rustls with ring): the server configuration, and
//! for the Talos API apid's client-certificate rule, checked in the handshake as apid does
//! (`verifyExtKeyUsage` in Talos's apid: every non-CA certificate of the verified chain must
//! have exactly the clientAuth extended key usage).

use std::sync::Arc;
use std::time::Duration;

use rustls::client::danger::HandshakeSignatureValid;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, UnixTime};
use rustls::server::WebPkiClientVerifier;
use rustls::server::danger::{ClientCertVerified, ClientCertVerifier};
use rustls::{CertificateError, DigitallySignedStruct, DistinguishedName, SignatureScheme};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::SimError;
use crate::pki::CertKey;

/// How long a client may take to complete the handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Which client certificates a server accepts beyond a valid chain to its CA.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClientRule {
    /// Any (the simulated Kubernetes API).
    ChainOnly,
    /// apid's: the client certificate's extended key usage is exactly clientAuth.
    ApidClientAuthOnly,
}

/// A server configuration: `server`'s certificate and key, client certificates required and
/// verified against `ca_pem` under `rule`, ALPN `alpn`.
pub(crate) fn server_config(
    what: &str,
    ca_pem: &str,
    server: &CertKey,
    rule: ClientRule,
    alpn: &[&[u8]],
) -> Result<Arc<rustls::ServerConfig>, SimError> {
    let tls = |part: &str, e: &dyn std::fmt::Display| SimError::Tls(format!("{what} {part}: {e}"));
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem.as_bytes()) {
        let cert = cert.map_err(|e| tls("CA certificate", &e))?;
        roots.add(cert).map_err(|e| tls("CA certificate", &e))?;
    }
    let webpki = WebPkiClientVerifier::builder_with_provider(Arc::new(roots), Arc::clone(&provider))
        .build()
        .map_err(|e| tls("client verifier", &e))?;
    let verifier: Arc<dyn ClientCertVerifier> = match rule {
        ClientRule::ChainOnly => webpki,
        ClientRule::ApidClientAuthOnly => Arc::new(ApidVerifier { webpki }),
    };
    let chain = CertificateDer::pem_slice_iter(server.cert_pem.as_bytes())
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| tls("server certificate", &e))?;
    // Never put the parse error of a key in a message: report only that it failed.
    let key = PrivateKeyDer::from_pem_slice(server.key_pem.as_bytes())
        .map_err(|_| SimError::Tls(format!("{what} server key: not a PEM private key")))?;
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| tls("protocol versions", &e))?
        .with_client_cert_verifier(verifier)
        .with_single_cert(chain, key)
        .map_err(|_| SimError::Tls(format!("{what} server certificate and key do not fit")))?;
    config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
    Ok(Arc::new(config))
}

/// apid's client verification: the chain first (webpki, as Go's `x509.Verify`), then the
/// extended key usage rule. A refusal ends the handshake with the alert Go's TLS server sends
/// for a failed `VerifyPeerCertificate`: `bad_certificate`.
#[derive(Debug)]
struct ApidVerifier {
    webpki: Arc<dyn ClientCertVerifier>,
}

impl ClientCertVerifier for ApidVerifier {
    fn root_hint_subjects(&self) -> &[DistinguishedName] {
        self.webpki.root_hint_subjects()
    }

    fn verify_client_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        now: UnixTime,
    ) -> Result<ClientCertVerified, rustls::Error> {
        let verified = self.webpki.verify_client_cert(end_entity, intermediates, now).map_err(go_alert)?;
        match crate::der::parse(end_entity.as_ref()) {
            Some(cert) if cert.client_auth_only() => Ok(verified),
            // `BadEncoding` is the certificate error rustls answers with `bad_certificate`.
            _ => Err(rustls::Error::InvalidCertificate(CertificateError::BadEncoding)),
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.webpki.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.webpki.supported_verify_schemes()
    }
}

/// Go's TLS server alerts for a chain that does not verify: `unknown_ca` for an unknown
/// issuer (Go's `x509.UnknownAuthorityError`, which is also what a CA of the same name but
/// another key gives; rustls would say `decrypt_error`), `certificate_expired` when expired,
/// `bad_certificate` for anything else (an incompatible key usage included; rustls would say
/// `unsupported_certificate`).
fn go_alert(e: rustls::Error) -> rustls::Error {
    match e {
        rustls::Error::InvalidCertificate(CertificateError::BadSignature) => {
            rustls::Error::InvalidCertificate(CertificateError::UnknownIssuer)
        }
        rustls::Error::InvalidCertificate(
            CertificateError::UnknownIssuer
            | CertificateError::Expired
            | CertificateError::ExpiredContext { .. }
            | CertificateError::NotValidYet
            | CertificateError::NotValidYetContext { .. },
        ) => e,
        rustls::Error::InvalidCertificate(_) => rustls::Error::InvalidCertificate(CertificateError::BadEncoding),
        other => other,
    }
}

/// Accepts TCP connections on `listener` (with `TCP_NODELAY`) and completes each TLS handshake
/// in its own task; the established streams come out of the receiver, for tonic's
/// `serve_with_incoming`. The accept loop stops when the returned guard is dropped.
pub(crate) fn accept(
    listener: TcpListener,
    config: Arc<rustls::ServerConfig>,
) -> (mpsc::Receiver<std::io::Result<tokio_rustls::server::TlsStream<TcpStream>>>, AbortOnDrop) {
    let (tx, rx) = mpsc::channel(16);
    let acceptor = tokio_rustls::TlsAcceptor::from(config);
    let handle = tokio::spawn(async move {
        loop {
            let Ok((tcp, _)) = listener.accept().await else {
                // Out of descriptors or similar: back off instead of spinning.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            };
            // Replies go out at once (no Nagle delay against the client's delayed ACK).
            let _ = tcp.set_nodelay(true);
            if tx.is_closed() {
                break;
            }
            let acceptor = acceptor.clone();
            let tx = tx.clone();
            tokio::spawn(async move {
                // A refused or stalled handshake only ends that connection.
                if let Ok(Ok(stream)) = tokio::time::timeout(HANDSHAKE_TIMEOUT, acceptor.accept(tcp)).await {
                    let _ = tx.send(Ok(stream)).await;
                }
            });
        }
    });
    (rx, AbortOnDrop(handle))
}

/// Aborts a task when dropped (so that aborting the server task also ends its accept loop).
pub(crate) struct AbortOnDrop(JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}
