//! CRI, runtime, security, SideroLink and hardware kinds.

use super::{err, errors, first};
use crate::go::errors::{append_certs_from_pem, pem_blocks, split_host_port_error};
use crate::gofmt::quote;
use crate::model::cri::{CertificateAndKey, RegistryAuthConfig, RegistryMirrorConfig, RegistryTlsConfig};
use crate::model::hardware::PciDriverRebindConfig;
use crate::model::runtime::{
    EnvironmentConfig, EventSinkConfig, ExtensionServiceConfig, KmsgLogConfig, OomConfig, WatchdogTimerConfig,
};
use crate::model::security::{ImageVerificationConfig, TrustedRootsConfig};
use crate::model::siderolink::SideroLinkConfig;
use crate::validate::{Context, Findings, Issue, Validate};

impl Validate for RegistryMirrorConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.name.is_empty() {
            out.push(err("name must be specified", "name"));
        }
        for (i, ep) in self.endpoints.iter().enumerate() {
            let path = format!("endpoints[{i}].url");
            match &ep.url.0 {
                None => out.push(err(format!("endpoints[{i}].url must be specified"), &path)),
                Some(u) => {
                    let scheme = String::from_utf8_lossy(&u.scheme).into_owned();
                    if scheme != "http" && scheme != "https" {
                        out.push(err(format!("endpoints[{i}].url has unsupported scheme: {}", quote(&scheme)), &path));
                    }
                }
            }
        }
        errors(out)
    }
}

impl Validate for RegistryAuthConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.name.is_empty() {
            out.push(err("name must be specified", "name"));
        }
        // Upstream looks at the username only: a password alone combines with anything.
        let basic = !self.username.is_empty();
        let token = !self.identity_token.is_empty();
        if basic && token {
            out.push(err(
                "only one of username/password or identityToken authentication can be specified",
                "identityToken",
            ));
        }
        if !self.auth.is_empty() && (basic || token) {
            out.push(err(
                "only one of auth, username/password or identityToken authentication can be specified",
                "auth",
            ));
        }
        errors(out)
    }
}

impl Validate for RegistryTlsConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        if self.name.is_empty() {
            out.push(err("name must be specified", "name"));
        }
        if !self.ca.is_empty() && !append_certs_from_pem(&self.ca) {
            out.push(err("ca must be a valid PEM-encoded certificate", "ca"));
        }
        if let Some(id) = &self.client_identity {
            if cx.release >= crate::Release::V1_14_0_RC1 {
                out.extend(certificate_and_key(id).map(|e| err(format!("client identity: {e}"), "clientIdentity")));
            } else {
                client_identity_v1_13(id, &mut out);
            }
        }
        errors(out)
    }
}

/// Up to v1.13: only the PEM framing is checked (`failed to parse PEM block`); X.509 and key
/// parsing errors are not reproduced.
fn client_identity_v1_13(id: &CertificateAndKey, out: &mut Vec<Issue>) {
    if pem_blocks(&id.cert).is_empty() {
        out.push(err("client identity certificate is invalid: failed to parse PEM block", "clientIdentity.cert"));
    }
    if pem_blocks(&id.key).is_empty() {
        out.push(err("client identity key is invalid: failed to parse PEM block", "clientIdentity.key"));
    }
}

/// v1.14's `meta.CertificateAndKey.Validate` without loading: both parts present, the
/// certificate's blocks all `CERTIFICATE`, the key's of any type.
fn certificate_and_key(id: &CertificateAndKey) -> Option<String> {
    if id.cert.is_empty() {
        return Some("certificate is required".into());
    }
    if id.key.is_empty() {
        return Some("key is required".into());
    }
    if let Some(e) = assert_valid_pem(&id.cert, Some("CERTIFICATE")) {
        return Some(format!("certificate: {e}"));
    }
    assert_valid_pem(&id.key, None).map(|e| format!("key: {e}"))
}

/// `meta.AssertValidPEM`: at least one PEM block, each of the expected type when one is given.
fn assert_valid_pem(data: &str, expected: Option<&str>) -> Option<String> {
    let blocks = pem_blocks(data);
    if let Some(want) = expected
        && let Some(block) = blocks.iter().find(|b| b.kind != want)
    {
        return Some(format!("unexpected PEM block type {}, expected one of [{}]", quote(&block.kind), quote(want)));
    }
    blocks.is_empty().then(|| "no PEM blocks found".to_string())
}

/// `^[A-Za-z_][A-Za-z0-9_]*$`.
fn env_name_ok(name: &str) -> bool {
    let mut bytes = name.bytes();
    matches!(bytes.next(), Some(b) if b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

impl Validate for EnvironmentConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        // Upstream iterates a Go map (random order); keys are checked here in byte order.
        let out = self
            .variables
            .keys()
            .filter(|k| !env_name_ok(k))
            .map(|k| err(format!("invalid environment variable name: {}", quote(k)), &format!("variables.{k}")))
            .collect();
        errors(out)
    }
}

impl Validate for EventSinkConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let out = split_host_port_error(&self.endpoint)
            .map(|e| err(format!("event sink endpoint: {e}"), "endpoint"))
            .into_iter()
            .collect();
        errors(out)
    }
}

impl KmsgLogConfig {
    fn check(&self) -> Result<(), Issue> {
        if self.name.is_empty() {
            return Err(err("name is required", "name"));
        }
        let Some(u) = &self.url.0 else {
            return Err(err("url is required", "url"));
        };
        if u.scheme != b"tcp" && u.scheme != b"udp" {
            return Err(err("url scheme must be tcp:// or udp://", "url"));
        }
        // As for SideroLink's `apiUrl`, a bare `/` counts as empty.
        if !u.path.is_empty() && u.path != b"/" {
            return Err(err("url path must be empty", "url"));
        }
        if url_port(&u.host).is_empty() {
            return Err(err("url port is required", "url"));
        }
        Ok(())
    }
}

/// Go's `url.URL.Port()`: the digits after the host's last `:`, if only digits follow it
/// (`tcp://::1:` has an empty port, `[::1]` none).
fn url_port(host: &[u8]) -> &[u8] {
    match host.iter().rposition(|&b| b == b':') {
        Some(colon) if host[colon + 1..].iter().all(u8::is_ascii_digit) => &host[colon + 1..],
        _ => &[],
    }
}

impl Validate for KmsgLogConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        first(self.check())
    }
}

/// Talos's minimum watchdog timeout (10s).
const WATCHDOG_MIN_NANOS: i64 = 10_000_000_000;

impl Validate for WatchdogTimerConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        if self.device.is_empty() {
            return errors(vec![err("watchdog device: empty value", "device")]);
        }
        // A zero timeout means the default.
        if self.timeout.nanos != 0 && self.timeout.nanos < WATCHDOG_MIN_NANOS {
            return errors(vec![err("watchdog timeout: minimum value is 10s", "timeout")]);
        }
        Findings::default()
    }
}

/// Talos's `celenv.OOMTrigger`: memory pressure (PSI) of the root cgroup and per QoS class,
/// their changes since the last sample, the time since the handler last acted, and the QoS
/// classes as constants.
const OOM_TRIGGER: crate::cel::Declarations<'static> = crate::cel::Declarations {
    variables: &[
        "memory_some_avg10",
        "memory_some_avg60",
        "memory_some_avg300",
        "memory_some_total",
        "memory_full_avg10",
        "memory_full_avg60",
        "memory_full_avg300",
        "memory_full_total",
        "d_memory_some_avg10",
        "d_memory_some_avg60",
        "d_memory_some_avg300",
        "d_memory_some_total",
        "d_memory_full_avg10",
        "d_memory_full_avg60",
        "d_memory_full_avg300",
        "d_memory_full_total",
        "qos_memory_some_avg10",
        "qos_memory_some_avg60",
        "qos_memory_some_avg300",
        "qos_memory_some_total",
        "qos_memory_full_avg10",
        "qos_memory_full_avg60",
        "qos_memory_full_avg300",
        "qos_memory_full_total",
        "d_qos_memory_some_avg10",
        "d_qos_memory_some_avg60",
        "d_qos_memory_some_avg300",
        "d_qos_memory_some_total",
        "d_qos_memory_full_avg10",
        "d_qos_memory_full_avg60",
        "d_qos_memory_full_avg300",
        "d_qos_memory_full_total",
        "qos_memory_current",
        "qos_memory_peak",
        "qos_memory_max",
        "d_qos_memory_current",
        "d_qos_memory_peak",
        "d_qos_memory_max",
        "time_since_trigger",
        "Besteffort",
        "Burstable",
        "Guaranteed",
        "Podruntime",
        "System",
    ],
    functions: &["multiply_qos_vectors"],
    size_units: true,
    optional_types: true,
};

/// Talos's `celenv.OOMCgroupScoring`: one cgroup's memory, path and QoS class.
const OOM_CGROUP_SCORING: crate::cel::Declarations<'static> = crate::cel::Declarations {
    variables: &[
        "memory_max",
        "memory_current",
        "memory_peak",
        "path",
        "class",
        "Besteffort",
        "Burstable",
        "Guaranteed",
        "Podruntime",
        "System",
    ],
    functions: &[],
    size_units: true,
    optional_types: true,
};

impl Validate for OomConfig {
    fn validate(&self, cx: &Context<'_>) -> Findings {
        // Of compiling the expressions, parsing and undeclared names (no type checks: KNOWN_GAPS).
        let mut out = Vec::new();
        let expressions = [
            (&self.trigger_expression, &OOM_TRIGGER, "OOM trigger expression", "triggerExpression"),
            (
                &self.cgroup_ranking_expression,
                &OOM_CGROUP_SCORING,
                "OOM cgroup scoring expression",
                "cgroupRankingExpression",
            ),
        ];
        for (expression, env, what, field) in expressions {
            if expression.0.is_empty() {
                continue;
            }
            if let Some(e) = crate::cel::check(&expression.0, env, cx.release) {
                out.push(err(format!("{what} is invalid: {e}"), field));
            }
        }
        if self.sample_interval.nanos < 0 {
            out.push(err("OOM sample interval must be longer than 0", "sampleInterval"));
        }
        errors(out)
    }
}

impl ExtensionServiceConfig {
    fn check(&self) -> Result<(), Issue> {
        if self.name.is_empty() {
            return Err(err("name is required", "name"));
        }
        if self.config_files.0.is_empty() && self.environment.is_empty() {
            return Err(err(format!("no config files found for extension {}", quote(&self.name)), "configFiles"));
        }
        for (i, file) in self.config_files.0.iter().enumerate() {
            if file.content.is_empty() {
                return Err(err(
                    format!("extension content is required for extension {}", quote(&self.name)),
                    &format!("configFiles[{i}].content"),
                ));
            }
            if file.mount_path.is_empty() {
                return Err(err(
                    format!("extension mount path is required for extension {}", quote(&self.name)),
                    &format!("configFiles[{i}].mountPath"),
                ));
            }
        }
        Ok(())
    }
}

impl Validate for ExtensionServiceConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        first(self.check())
    }
}

impl Validate for ImageVerificationConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        let mut out = Vec::new();
        let mut warnings = Vec::new();
        for (i, rule) in self.rules.0.iter().enumerate() {
            let path = format!("rules[{i}]");
            let image = rule.image.as_str();
            if image.is_empty() {
                out.push(err(format!("rule {i}: imagePattern must be specified"), &format!("{path}.image")));
            }
            const TAIL: &str = "but matching only applies to the image registry and repository, not the tag or digest";
            if image.contains('@') {
                warnings.push(crate::validate::Issue::new(
                    format!("rule {i}: imagePattern contains '@' {TAIL}"),
                    Some(&format!("{path}.image")),
                ));
            }
            if let Some((_, without_registry)) = image.split_once('/')
                && without_registry.contains(':')
            {
                warnings.push(crate::validate::Issue::new(
                    format!("rule {i}: imagePattern contains ':' {TAIL}"),
                    Some(&format!("{path}.image")),
                ));
            }
            if !image.contains('/') && image != "*" && !image.is_empty() {
                warnings.push(crate::validate::Issue::new(
                    format!(
                        "rule {i}: imagePattern does not contain a '/', image references like 'nginx' are matched as 'docker.io/nginx' (normalized)"
                    ),
                    Some(&format!("{path}.image")),
                ));
            }
            let skip = rule.skip.unwrap_or(false);
            let deny = rule.deny.unwrap_or(false);
            let has = rule.keyless.is_some() || rule.public_key.is_some();
            if skip && deny {
                out.push(err(format!("rule {i}: skip and deny cannot both be true"), &path));
            }
            if (skip || deny) && has {
                out.push(err(format!("rule {i}: verifiers cannot be configured if skip or deny is true"), &path));
            }
            if !skip && !deny && !has {
                out.push(err(format!("rule {i}: at least one verifier must be configured"), &path));
            }
            if rule.keyless.is_some() && rule.public_key.is_some() {
                out.push(err(format!("rule {i}: only one of keyless or publicKey verifier can be configured"), &path));
            }
            if let Some(k) = &rule.keyless {
                if k.issuer.is_empty() {
                    out.push(err(
                        format!("rule {i}: verifier OIDC issuer must be specified"),
                        &format!("{path}.keyless.issuer"),
                    ));
                }
                if k.subject.is_empty() && k.subject_regex.is_empty() {
                    out.push(err(
                        format!("rule {i}: verifier subject or subjectRegex must be specified"),
                        &format!("{path}.keyless.subject"),
                    ));
                }
            }
            if let Some(p) = &rule.public_key
                && p.certificate.is_empty()
            {
                out.push(err(
                    format!("rule {i}: verifier certificates must be specified"),
                    &format!("{path}.publicKey.certificate"),
                ));
            }
        }
        Findings { errors: out, warnings }
    }
}

impl Validate for TrustedRootsConfig {}

impl SideroLinkConfig {
    fn check(&self) -> Result<(), Issue> {
        let Some(u) = &self.api_url.0 else {
            return Err(err("apiUrl is required", "apiUrl"));
        };
        if u.scheme != b"https" && u.scheme != b"grpc" {
            return Err(err("apiUrl scheme must be https:// or grpc://", "apiUrl"));
        }
        if !u.path.is_empty() && u.path != b"/" {
            return Err(err("apiUrl path must be empty", "apiUrl"));
        }
        Ok(())
    }
}

impl Validate for SideroLinkConfig {
    fn validate(&self, _cx: &Context<'_>) -> Findings {
        first(self.check())
    }
}

/// No `Validate` upstream (RuntimeValidate only).
impl Validate for PciDriverRebindConfig {}

#[cfg(test)]
mod url_port_tests {
    use super::url_port;

    #[test]
    fn port_is_what_go_reads() {
        for (host, port) in [
            (&b"h:514"[..], &b"514"[..]),
            (b"h", b""),
            (b"h:", b""),
            (b"[::1]:80", b"80"),
            (b"[::1]", b""),
            // An unbracketed IPv6 host: what follows the last colon, when it is digits.
            (b"::", b""),
            (b"::1:", b""),
            (b"::1:80", b"80"),
            (b"fe80::1", b"1"),
        ] {
            assert_eq!(url_port(host), port, "{}", String::from_utf8_lossy(host));
        }
    }
}
