//! Certificate refusals in the TLS handshake, told as one sentence: who refused, why, what to do.

use std::fmt;

/// Which side of a TLS handshake refused the other's certificate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RefusedBy {
    /// The server (apid) refused our client certificate: it sent a TLS alert.
    Server,
    /// We refused the server's certificate.
    Client,
}

/// A certificate refusal in the TLS handshake (see [`crate::ErrorKind::TlsRefused`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsRefusal {
    /// The endpoint (`host:port`).
    pub endpoint: String,
    /// Who refused.
    pub refused_by: RefusedBy,
    /// The TLS reason: the alert the server sent (as Go names alerts, e.g. `bad certificate`),
    /// or why we refused the server's certificate.
    pub reason: String,
    /// What to do about it.
    pub hint: &'static str,
}

impl fmt::Display for TlsRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.refused_by {
            RefusedBy::Server => write!(
                f,
                "{} refused our client certificate (TLS alert: {}): {}",
                self.endpoint, self.reason, self.hint
            ),
            RefusedBy::Client => {
                write!(f, "the certificate of {} is not trusted ({}): {}", self.endpoint, self.reason, self.hint)
            }
        }
    }
}

impl TlsRefusal {
    /// The refusal a transport error chain holds, if any: a TLS alert received from the server,
    /// or our verifier's verdict on the server's certificate.
    pub(crate) fn find(endpoint: &str, error: &(dyn std::error::Error + 'static)) -> Option<TlsRefusal> {
        let mut next = Some(error);
        while let Some(e) = next {
            let tls = e.downcast_ref::<rustls::Error>().or_else(|| {
                e.downcast_ref::<std::io::Error>()
                    .and_then(|io| io.get_ref())
                    .and_then(|inner| inner.downcast_ref::<rustls::Error>())
            });
            if let Some(tls) = tls {
                return TlsRefusal::from_rustls(endpoint, tls);
            }
            // h2 passes an I/O error's own source on, not the error: the alert rustls received
            // is then only in the text.
            if let Some(alert) = received_alert(&e.to_string()) {
                return TlsRefusal::from_rustls(endpoint, &rustls::Error::AlertReceived(alert));
            }
            next = e.source();
        }
        None
    }

    fn from_rustls(endpoint: &str, error: &rustls::Error) -> Option<TlsRefusal> {
        use rustls::{AlertDescription as A, CertificateError as C};
        let (refused_by, reason, hint) = match error {
            rustls::Error::AlertReceived(alert) => {
                let hint = match alert {
                    A::UnknownCA => {
                        "the cluster does not know the CA that signed it: this talosconfig is for another cluster or an older CA; use a current talosconfig"
                    }
                    A::CertificateExpired => {
                        "it has expired or is not valid yet: make a new one (`talosctl config new` with a working talosconfig) and check the clock"
                    }
                    A::BadCertificate | A::UnsupportedCertificate => {
                        "Talos accepts only client certificates whose extended key usage is exactly client authentication, as `talosctl config new` makes them"
                    }
                    _ => "the server ended the handshake: check that the talosconfig belongs to this cluster",
                };
                (RefusedBy::Server, go_alert_name(*alert), hint)
            }
            rustls::Error::InvalidCertificate(problem) => {
                let hint = match problem {
                    C::UnknownIssuer | C::BadSignature => {
                        "it is not signed by the talosconfig's CA: the endpoint is another cluster's node, or the talosconfig's `ca` is out of date"
                    }
                    C::NotValidForName | C::NotValidForNameContext { .. } => {
                        "it does not name the endpoint: use the node's address as it appears in its certificate"
                    }
                    C::Expired | C::ExpiredContext { .. } | C::NotValidYet | C::NotValidYetContext { .. } => {
                        "it has expired or is not valid yet: check the node's clock"
                    }
                    _ => "check that the endpoint and the talosconfig's `ca` belong to the same cluster",
                };
                (RefusedBy::Client, certificate_problem(problem), hint)
            }
            _ => return None,
        };
        Some(TlsRefusal { endpoint: endpoint.to_string(), refused_by, reason, hint })
    }
}

/// The alert in rustls's `received fatal alert: <name>` text.
fn received_alert(text: &str) -> Option<rustls::AlertDescription> {
    let (_, name) = text.split_once("received fatal alert: ")?;
    let name = name.split(|c: char| !c.is_ascii_alphanumeric()).next()?;
    (0..=u8::MAX).map(rustls::AlertDescription::from).find(|alert| format!("{alert:?}") == name)
}

/// A TLS alert as Go's `crypto/tls` names it (`bad certificate`, `unknown certificate
/// authority`, ...).
fn go_alert_name(alert: rustls::AlertDescription) -> String {
    use rustls::AlertDescription as A;
    match alert {
        A::BadCertificate => "bad certificate".into(),
        A::UnsupportedCertificate => "unsupported certificate".into(),
        A::CertificateRevoked => "revoked certificate".into(),
        A::CertificateExpired => "expired certificate".into(),
        A::CertificateUnknown => "unknown certificate".into(),
        A::UnknownCA => "unknown certificate authority".into(),
        A::AccessDenied => "access denied".into(),
        A::HandshakeFailure => "handshake failure".into(),
        A::CertificateRequired => "certificate required".into(),
        A::DecryptError => "error decrypting message".into(),
        other => format!("alert {}", u8::from(other)),
    }
}

/// Why our verifier refused the server's certificate, in words.
fn certificate_problem(problem: &rustls::CertificateError) -> String {
    use rustls::CertificateError as C;
    match problem {
        C::UnknownIssuer => "signed by an unknown authority".into(),
        C::BadSignature => "its signature does not verify against the CA".into(),
        C::NotValidForName | C::NotValidForNameContext { .. } => "not valid for this address".into(),
        C::Expired | C::ExpiredContext { .. } => "expired".into(),
        C::NotValidYet | C::NotValidYetContext { .. } => "not valid yet".into(),
        C::InvalidPurpose | C::InvalidPurposeContext { .. } => "not issued for servers".into(),
        C::Revoked => "revoked".into(),
        _ => "unacceptable".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;

    #[test]
    fn alerts_are_read_from_rustls_text_and_named_as_go_names_them() {
        let alert = received_alert("transport error: connection error: received fatal alert: BadCertificate");
        assert_eq!(alert, Some(rustls::AlertDescription::BadCertificate));
        assert_eq!(received_alert("received fatal alert: NoSuchAlert"), None);
        assert_eq!(received_alert("connection reset"), None);
        assert_eq!(go_alert_name(rustls::AlertDescription::UnknownCA), "unknown certificate authority");
        assert_eq!(go_alert_name(rustls::AlertDescription::from(200)), "alert 200");
    }

    #[test]
    fn a_refusal_reads_as_one_sentence() {
        let refusal = TlsRefusal::from_rustls(
            "10.5.0.2:50000",
            &rustls::Error::AlertReceived(rustls::AlertDescription::CertificateExpired),
        );
        assert_eq!(
            refusal.map(|r| Error::tls_refused(r).to_string()).as_deref(),
            Some(
                "10.5.0.2:50000 refused our client certificate (TLS alert: expired certificate): it has expired or is not valid yet: make a new one (`talosctl config new` with a working talosconfig) and check the clock"
            )
        );
        assert_eq!(TlsRefusal::from_rustls("x:1", &rustls::Error::HandshakeNotComplete), None);
    }
}
