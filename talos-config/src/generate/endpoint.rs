//! The cluster endpoint check of `talosctl gen config`: an `https://` URL with a host and a
//! valid port, and the corrected URL it suggests otherwise.

use crate::value::url::GoUrl;
use crate::{Error, ErrorKind};

/// Checks a cluster endpoint as `talosctl gen config` does before generating anything; the
/// error is talosctl's text, with its suggestion (`try: "https://10.5.0.2:6443"`). The scheme
/// may be in any case (`HTTPS://` is read as `https://`).
///
/// ```
/// use talos_config::generate::check_endpoint;
/// assert!(check_endpoint("https://10.5.0.2:6443").is_ok());
/// assert_eq!(
///     check_endpoint("10.5.0.2").unwrap_err().to_string(),
///     "no scheme and port specified for the cluster endpoint URL\ntry: \"https://10.5.0.2:6443\""
/// );
/// ```
pub fn check_endpoint(endpoint: &str) -> Result<(), Error> {
    let fail = |text: String| Err(Error::new(ErrorKind::InvalidValue, text));
    let url = match GoUrl::parse(endpoint) {
        Ok(url) => url,
        // Not a URL, maybe `host:port`.
        Err(_) if !endpoint.contains('/') => GoUrl { host: endpoint.as_bytes().to_vec(), ..GoUrl::default() },
        Err(e) => return fail(format!("failed to parse the cluster endpoint URL: {e}")),
    };
    let quote = |u: GoUrl| crate::gofmt::quote(&u.to_string());
    if url.scheme.is_empty() {
        let what = if port(&url).is_empty() { "no scheme and port specified" } else { "no scheme specified" };
        return fail(format!("{what} for the cluster endpoint URL\ntry: {}", quote(suggestion(url))));
    }
    if url.scheme != b"https" {
        let text = "the control plane endpoint URL should have scheme https://";
        return fail(format!("{text}\ntry: {}", quote(suggestion(url))));
    }
    validate_endpoint_uri(endpoint).or_else(|e| fail(format!("error validating the cluster endpoint URL: {e}")))
}

/// The URL talosctl suggests: scheme `https`, port 6443 when none is given.
fn suggestion(mut url: GoUrl) -> GoUrl {
    if url.scheme.is_empty() && url.host.is_empty() && !url.path.is_empty() {
        url.host = std::mem::take(&mut url.path);
        url.raw_path.clear();
    }
    url.scheme = b"https".to_vec();
    if port(&url).is_empty() {
        url.host.extend_from_slice(b":6443");
    }
    url
}

/// Go's `URL.Port()`.
fn port(url: &GoUrl) -> String {
    match url.host.iter().rposition(|&b| b == b':') {
        Some(i) if url.host[i + 1..].iter().all(u8::is_ascii_digit) => {
            String::from_utf8_lossy(&url.host[i + 1..]).into_owned()
        }
        _ => String::new(),
    }
}

/// `ValidateEndpointURI` of siderolabs/net.
fn validate_endpoint_uri(endpoint: &str) -> Result<(), String> {
    let url = GoUrl::parse(endpoint)?;
    let host = &url.host;
    let count = |c: u8| host.iter().filter(|&&b| b == c).count();
    if count(b':') > 2 && (count(b'[') < 1 || count(b']') < 1) {
        return Err("IPv6 addresses MUST be enclosed by square brackets".into());
    }
    if url.hostname().is_empty() {
        return Err("hostname must not be blank".into());
    }
    let port = port(&url);
    if port.is_empty() {
        return Ok(());
    }
    match port.parse::<i64>() {
        Ok(p) if (1..=65535).contains(&p) => Ok(()),
        Ok(_) => Err("port number must be between 1 and 65535".into()),
        // Digits only, so only an overflow lands here: Go's Atoi fails and says "numeric".
        Err(_) => Err("port number must be numeric".into()),
    }
}
