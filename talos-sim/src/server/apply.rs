//! `ApplyConfiguration` on the route's nodes, each call logged by machined's gRPC access line
//! (with the caller's metadata, credentials left out).

use std::sync::Arc;
use std::time::{Instant, SystemTime};

use talos_client::error::code_name;
use talos_client::proto::machine;
use tonic::Status;

use super::auth::authorize;
use super::routing::{Route, error_metadata, wrap};
use crate::node::{ApplyMode, ApplyRequest, Node};

pub(super) const METHOD: &str = "/machine.MachineService/ApplyConfiguration";

/// The reply items of `ApplyConfiguration` for `req`: the local node's (an error is the call's),
/// or one per target (an error in-band).
pub(super) async fn apply_configuration(
    route: Route,
    roles: &[String],
    access_md: &str,
    req: machine::ApplyConfigurationRequest,
) -> Result<Vec<machine::ApplyConfiguration>, Status> {
    let mode = ApplyMode::from_proto(req.mode)
        .ok_or_else(|| Status::invalid_argument(format!("unknown apply mode {}", req.mode)))?;
    let try_timeout = req.try_mode_timeout.and_then(|d| std::time::Duration::try_from(d).ok());
    let apply_req = ApplyRequest { data: req.data, mode, dry_run: req.dry_run, try_timeout };
    match route {
        Route::Local(n) => Ok(vec![apply_on(n, apply_req, roles, access_md).await?]),
        Route::Fanout(targets) => {
            let mut out = Vec::new();
            for (t, n) in targets {
                let r = match n {
                    Ok(n) => apply_on(n, apply_req.clone(), roles, access_md).await,
                    Err(s) => Err(s),
                };
                out.push(match r {
                    Ok(mut m) => {
                        m.metadata = wrap(&t);
                        m
                    }
                    Err(s) => machine::ApplyConfiguration { metadata: error_metadata(&t, &s), ..Default::default() },
                });
            }
            Ok(out)
        }
    }
}

/// One node's apply, by an admin only, with its access line in machined's log.
async fn apply_on(
    n: Arc<Node>,
    apply_req: ApplyRequest,
    roles: &[String],
    access_md: &str,
) -> Result<machine::ApplyConfiguration, Status> {
    let allowed = authorize(roles, true);
    let started = Instant::now();
    let r = match allowed {
        Ok(()) => n.apply(apply_req).await.map_err(Status::from),
        Err(s) => Err(s),
    };
    log_access(&n, r.as_ref().err(), started, access_md);
    r.map(|o| machine::ApplyConfiguration {
        metadata: None,
        warnings: o.warnings,
        mode: o.mode.to_proto() as i32,
        mode_details: o.details,
    })
}

/// machined's gRPC access line for a call that started at `started` and failed with `error`
/// (or succeeded).
fn log_access(n: &Node, error: Option<&Status>, started: Instant, access_md: &str) {
    let (code, outcome) = match error {
        None => ("OK".to_string(), "Success".to_string()),
        // Only the first line of the error: a refusal may quote config lines.
        Some(s) => (
            code_name(s.code()).to_string(),
            format!(
                "rpc error: code = {} desc = {}",
                code_name(s.code()),
                s.message().lines().next().unwrap_or_default()
            ),
        ),
    };
    n.log_machined_raw(&format!(
        "machined {} {code} [{METHOD}] {:.2}ms unary {outcome} ({access_md})",
        crate::util::go_log_time(SystemTime::now()),
        started.elapsed().as_secs_f64() * 1000.0
    ));
}

/// Metadata keys that may carry credentials: never written to a log.
fn credential_key(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key == "authorization" || key == "proxy-authorization" || key.contains("cookie") || key.ends_with("token")
}

/// The sorted `key=value` metadata of the gRPC access line (ASCII entries only, no routing keys, no
/// credential-looking keys: the log is readable by any reader).
pub(super) fn access_metadata(md: &tonic::metadata::MetadataMap) -> String {
    let mut pairs: Vec<String> = md
        .iter()
        .filter_map(|kv| match kv {
            tonic::metadata::KeyAndValueRef::Ascii(k, v) => {
                let k = k.as_str();
                (k != "nodes" && k != "node" && !credential_key(k))
                    .then(|| format!("{k}={}", v.to_str().unwrap_or_default()))
            }
            tonic::metadata::KeyAndValueRef::Binary(..) => None,
        })
        .collect();
    pairs.sort();
    pairs.join(";")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_metadata_drops_credentials_and_routing() {
        let mut md = tonic::metadata::MetadataMap::new();
        for (k, v) in [
            ("authorization", "Bearer s3cr3t"),
            ("cookie", "session=s3cr3t"),
            ("set-cookie", "a=s3cr3t"),
            ("x-auth-token", "s3cr3t"),
            ("token", "s3cr3t"),
            ("nodes", "10.5.0.3"),
            ("node", "10.5.0.3"),
            ("user-agent", "talos-client"),
            ("content-type", "application/grpc"),
        ] {
            md.insert(tonic::metadata::MetadataKey::from_static(k), v.parse().unwrap());
        }
        assert_eq!(access_metadata(&md), "content-type=application/grpc;user-agent=talos-client");
    }
}
