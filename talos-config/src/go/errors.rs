//! Go standard-library error texts the new-style documents embed (`encoding/base64` is
//! [`crate::gofmt::base64_decode`]): `net.SplitHostPort`, `strconv.ParseUint`, `encoding/pem`
//! framing.

use crate::gofmt::{base64_decode, quote};

/// Go's `net.SplitHostPort` error for `hostport` (`None` when it splits).
pub(crate) fn split_host_port_error(hostport: &str) -> Option<String> {
    // `net.AddrError.Error()`: the address part only when the address is not empty.
    let addr_err = |why: &str| {
        if hostport.is_empty() { Some(why.to_string()) } else { Some(format!("address {hostport}: {why}")) }
    };
    const MISSING_PORT: &str = "missing port in address";
    const TOO_MANY: &str = "too many colons in address";
    let Some(i) = hostport.rfind(':') else {
        return addr_err(MISSING_PORT);
    };
    let (host, j, k);
    if hostport.starts_with('[') {
        let Some(end) = hostport.find(']') else {
            return addr_err("missing ']' in address");
        };
        if end + 1 == hostport.len() {
            return addr_err(MISSING_PORT);
        }
        if end + 1 != i {
            if hostport.as_bytes().get(end + 1) == Some(&b':') {
                return addr_err(TOO_MANY);
            }
            return addr_err(MISSING_PORT);
        }
        host = &hostport[1..end];
        j = 1;
        k = end + 1;
    } else {
        host = &hostport[..i];
        if host.contains(':') {
            return addr_err(TOO_MANY);
        }
        j = 0;
        k = 0;
    }
    let _ = host;
    if hostport[j..].contains('[') {
        return addr_err("unexpected '[' in address");
    }
    if hostport[k..].contains(']') {
        return addr_err("unexpected ']' in address");
    }
    None
}

/// Go's `strconv.ParseUint(s, 10, bits)`.
pub(crate) fn parse_uint(s: &str, bits: u32) -> Result<u64, String> {
    let syntax = || format!("strconv.ParseUint: parsing {}: invalid syntax", quote(s));
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax());
    }
    let max: u64 = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
    match s.parse::<u64>() {
        Ok(v) if v <= max => Ok(v),
        _ => Err(format!("strconv.ParseUint: parsing {}: value out of range", quote(s))),
    }
}

/// One block of Go's `pem.Decode`: its type and decoded bytes.
pub(crate) struct PemBlock {
    pub(crate) kind: String,
    pub(crate) bytes: Vec<u8>,
}

/// Every PEM block Go's `pem.Decode` would find in order (simplified framing: `-----BEGIN
/// <type>-----` line, optional `Key: value` headers, base64 body, `-----END <type>-----`).
pub(crate) fn pem_blocks(data: &str) -> Vec<PemBlock> {
    let mut out = Vec::new();
    let mut rest = data;
    while let Some(start) = rest.find("-----BEGIN ") {
        let after = &rest[start + 11..];
        let Some(type_end) = after.find("-----") else { break };
        let kind = &after[..type_end];
        let body_start = &after[type_end + 5..];
        // The BEGIN line must end right after the dashes (optional whitespace).
        let (line_rest, body) = match body_start.find('\n') {
            Some(nl) => (&body_start[..nl], &body_start[nl + 1..]),
            None => (body_start, ""),
        };
        if !line_rest.trim().is_empty() || kind.contains('\n') {
            rest = &after[type_end..];
            continue;
        }
        let end_marker = format!("-----END {kind}-----");
        let Some(end) = body.find(&end_marker) else {
            rest = body;
            continue;
        };
        let content = &body[..end];
        let base64_part: String = content
            .lines()
            .filter(|l| !l.contains(':'))
            .flat_map(|l| l.chars().filter(|c| !c.is_whitespace()))
            .collect();
        match base64_decode(&base64_part) {
            Ok(bytes) => out.push(PemBlock { kind: kind.to_string(), bytes }),
            Err(_) => {
                rest = &body[end + end_marker.len()..];
                continue;
            }
        }
        rest = &body[end + end_marker.len()..];
    }
    out
}

/// A DER encoding that starts like an X.509 certificate: an outer SEQUENCE whose length covers
/// the rest exactly, holding a SEQUENCE (the TBS certificate). Full X.509 parsing is not done.
pub(crate) fn looks_like_certificate(der: &[u8]) -> bool {
    fn header(b: &[u8]) -> Option<(u8, usize, usize)> {
        let tag = *b.first()?;
        let first = *b.get(1)?;
        if first < 0x80 {
            return Some((tag, 2, usize::from(first)));
        }
        let n = usize::from(first & 0x7f);
        if n == 0 || n > 4 {
            return None;
        }
        let mut len = 0usize;
        for i in 0..n {
            len = (len << 8) | usize::from(*b.get(2 + i)?);
        }
        Some((tag, 2 + n, len))
    }
    let Some((tag, hl, len)) = header(der) else { return false };
    if tag != 0x30 || hl + len != der.len() {
        return false;
    }
    matches!(der.get(hl..).and_then(header), Some((0x30, _, _)))
}

/// Go's `x509.CertPool.AppendCertsFromPEM`: true when at least one `CERTIFICATE` block parses.
pub(crate) fn append_certs_from_pem(data: &str) -> bool {
    pem_blocks(data).iter().any(|b| b.kind == "CERTIFICATE" && looks_like_certificate(&b.bytes))
}
