//! go-containerregistry's `name.ParseReference` (v0.21.7, default options): whether an image
//! reference parses, and whether it is pinned by digest. Only success matters: upstream wraps
//! every failure in the same `could not parse reference` text.

/// Characters of a tag.
const TAG_CHARS: &str = "abcdefghijklmnopqrstuvwxyz0123456789_-.ABCDEFGHIJKLMNOPQRSTUVWXYZ";
/// Characters of a repository path.
const REPOSITORY_CHARS: &str = "abcdefghijklmnopqrstuvwxyz0123456789_-./";

/// What `ParseReference` makes of a reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reference {
    /// A tag (explicit or the default `latest`).
    Tag,
    /// A `@sha256:` digest.
    Digest,
}

/// `name.ParseReference`: a tag first, else a digest; `None` when neither parses.
pub(crate) fn parse_reference(s: &str) -> Option<Reference> {
    if is_tag(s) {
        Some(Reference::Tag)
    } else if is_digest(s) {
        Some(Reference::Digest)
    } else {
        None
    }
}

/// `checkElement`: a rune count in `[min, max]` and only `allowed` characters.
fn element_ok(element: &str, allowed: &str, min: usize, max: usize) -> bool {
    let runes = element.chars().count();
    (min..=max).contains(&runes) && element.chars().all(|c| allowed.contains(c))
}

/// `NewTag`: an optional `:tag` after the last colon not followed by a `/`.
fn is_tag(name: &str) -> bool {
    match name.rsplit_once(':') {
        Some((base, tag)) if !tag.contains('/') => {
            !tag.is_empty() && element_ok(tag, TAG_CHARS, 1, 128) && is_repository(base)
        }
        _ => is_repository(name),
    }
}

/// `NewRepository`: an optional registry (the first path part, when it is `localhost` or has a
/// `.` or `:`) and a repository path.
fn is_repository(name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let (registry, repo) = match name.split_once('/') {
        Some((first, rest)) if first == "localhost" || first.contains(['.', ':']) => (first, rest),
        _ => ("", name),
    };
    element_ok(repo, REPOSITORY_CHARS, 2, 255) && is_registry(registry)
}

/// `checkRegistry`: `//<name>` parses as a URL whose host is exactly the name.
fn is_registry(name: &str) -> bool {
    crate::value::url::GoUrl::parse(&format!("//{name}")).is_ok_and(|u| u.host.as_slice() == name.as_bytes())
}

/// `NewDigest`: `<reference>@sha256:<64 lower-case hex digits>`.
fn is_digest(name: &str) -> bool {
    let mut parts = name.split('@');
    let (Some(base), Some(digest), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    let Some(hex) = digest.strip_prefix("sha256:") else {
        return false;
    };
    if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        return false;
    }
    // A base with a tag is reduced to its repository, which then parses.
    is_tag(base) || is_repository(base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_parse_like_go_containerregistry() {
        let digest = "sha256:0000000000000000000000000000000000000000000000000000000000000000";
        assert_eq!(parse_reference("nginx"), Some(Reference::Tag));
        assert_eq!(parse_reference("docker.io/library/nginx:1.27"), Some(Reference::Tag));
        assert_eq!(parse_reference("localhost:5000/app"), Some(Reference::Tag));
        assert_eq!(parse_reference(&format!("nginx@{digest}")), Some(Reference::Digest));
        assert_eq!(parse_reference(&format!("nginx:1.2@{digest}")), Some(Reference::Digest));
        assert_eq!(parse_reference("a"), None);
        assert_eq!(parse_reference("Nginx"), None);
        assert_eq!(parse_reference("nginx:"), None);
        assert_eq!(parse_reference("nginx@sha256:abc"), None);
    }
}
