//! The request's query string (`%XX` and `+` decoded) and the equality-based label and field
//! selectors of a list.

/// Decodes `%XX` escapes and `+` (form encoding) in a query component. Invalid escapes are kept.
pub(super) fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(v) => {
                        out.push(v);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub(super) fn query_params(query: Option<&str>) -> Vec<(String, String)> {
    query
        .unwrap_or_default()
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (percent_decode(k), percent_decode(v)),
            None => (percent_decode(p), String::new()),
        })
        .collect()
}

/// One equality-based selector requirement.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Req {
    Exists(String),
    NotExists(String),
    Eq(String, String),
    Ne(String, String),
}

impl Req {
    pub(super) fn matches(&self, get: impl Fn(&str) -> Option<String>) -> bool {
        match self {
            Req::Exists(k) => get(k).is_some(),
            Req::NotExists(k) => get(k).is_none(),
            Req::Eq(k, v) => get(k).as_deref() == Some(v.as_str()),
            Req::Ne(k, v) => get(k).as_deref() != Some(v.as_str()),
        }
    }
}

/// Parses an equality-based selector (`k`, `!k`, `k=v`, `k==v`, `k!=v`, comma-separated).
/// Set-based terms (`k in (a,b)`) are refused.
pub(super) fn parse_selector(s: &str) -> Result<Vec<Req>, String> {
    let mut out = Vec::new();
    for term in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        if term.contains('(') || term.contains(')') || term.contains(' ') {
            return Err(format!("unable to parse requirement: {term:?}: set-based selectors are not simulated"));
        }
        let req = if let Some((k, v)) = term.split_once("!=") {
            Req::Ne(k.to_string(), v.to_string())
        } else if let Some((k, v)) = term.split_once("==") {
            Req::Eq(k.to_string(), v.to_string())
        } else if let Some((k, v)) = term.split_once('=') {
            Req::Eq(k.to_string(), v.to_string())
        } else if let Some(k) = term.strip_prefix('!') {
            Req::NotExists(k.to_string())
        } else {
            Req::Exists(term.to_string())
        };
        let key = match &req {
            Req::Exists(k) | Req::NotExists(k) | Req::Eq(k, _) | Req::Ne(k, _) => k,
        };
        if key.is_empty() {
            return Err(format!("unable to parse requirement: {term:?}: empty key"));
        }
        out.push(req);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors() {
        assert_eq!(
            parse_selector("a,!b,c=d,e==f,g!=h").unwrap(),
            vec![
                Req::Exists("a".into()),
                Req::NotExists("b".into()),
                Req::Eq("c".into(), "d".into()),
                Req::Eq("e".into(), "f".into()),
                Req::Ne("g".into(), "h".into()),
            ]
        );
        assert!(parse_selector("a in (b,c)").is_err());
        assert!(parse_selector("=x").is_err());
        assert_eq!(parse_selector("").unwrap(), vec![]);
    }

    #[test]
    fn decoding() {
        assert_eq!(percent_decode("lab.talos.dev%2Fpool%3Dblue"), "lab.talos.dev/pool=blue");
        assert_eq!(percent_decode("a+b%zz%4"), "a b%zz%4");
        assert_eq!(percent_decode("%"), "%");
    }
}
