//! Who is calling and what they may do: the roles of the client certificate (or, for an
//! impersonator, the roles it names) and Talos's role check for the lab's methods.

use tonic::{Request, Status};

use super::routing::values;

/// The caller's roles, as apid reads them: the client certificate's subject `O` values (the TLS
/// handshake already checked the certificate, `tls.rs`); a certificate with `os:impersonator`
/// may name other roles in the `talos-role` metadata, which then replace its own.
pub(super) fn caller<T>(request: &Request<T>) -> Result<Vec<String>, Status> {
    let certs = request.peer_certs().ok_or_else(|| Status::unauthenticated("no client certificate"))?;
    let leaf = certs.first().ok_or_else(|| Status::unauthenticated("no client certificate"))?;
    let cert = crate::der::parse(leaf.as_ref())
        .ok_or_else(|| Status::unauthenticated("cannot read the client certificate"))?;
    let roles: Vec<String> =
        cert.organizations.iter().map(|r| r.trim().to_string()).filter(|r| !r.is_empty()).collect();
    if roles.iter().any(|r| r == "os:impersonator") {
        let claimed = values(request.metadata(), "talos-role");
        if !claimed.is_empty() {
            return Ok(claimed);
        }
    }
    Ok(roles)
}

/// Talos's role check for the lab's methods: `admin` methods need `os:admin`; the others accept
/// `os:admin`, `os:operator` or `os:reader`.
pub(super) fn authorize(roles: &[String], admin: bool) -> Result<(), Status> {
    let ok = roles.iter().any(|r| r == "os:admin" || (!admin && (r == "os:operator" || r == "os:reader")));
    if ok { Ok(()) } else { Err(Status::permission_denied("not authorized")) }
}
