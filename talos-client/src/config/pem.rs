//! The PEM forms of keys: Talos's `ED25519 PRIVATE KEY` label and the PKCS#8 one rustls reads, and PEM blocks by
//! label.

/// Rewrites `-----BEGIN/END ED25519 PRIVATE KEY-----` to the PKCS#8 `PRIVATE KEY` label; other input is unchanged.
///
/// ```
/// let fixed = talos_client::config::rewrite_key_label(b"-----BEGIN ED25519 PRIVATE KEY-----\nMC4=\n-----END ED25519 PRIVATE KEY-----\n");
/// assert_eq!(fixed, b"-----BEGIN PRIVATE KEY-----\nMC4=\n-----END PRIVATE KEY-----\n");
/// ```
pub fn rewrite_key_label(pem: &[u8]) -> Vec<u8> {
    let pem = replace_bytes(pem, ED25519_KEY_BEGIN.as_bytes(), PKCS8_KEY_BEGIN.as_bytes());
    replace_bytes(&pem, ED25519_KEY_END.as_bytes(), PKCS8_KEY_END.as_bytes())
}

/// The BEGIN line of a key as Talos writes it into a talosconfig.
pub const ED25519_KEY_BEGIN: &str = "-----BEGIN ED25519 PRIVATE KEY-----";
/// The END line of a key as Talos writes it into a talosconfig.
pub const ED25519_KEY_END: &str = "-----END ED25519 PRIVATE KEY-----";
/// The BEGIN line of a PKCS#8 key (what rustls reads).
pub const PKCS8_KEY_BEGIN: &str = "-----BEGIN PRIVATE KEY-----";
/// The END line of a PKCS#8 key (what rustls reads).
pub const PKCS8_KEY_END: &str = "-----END PRIVATE KEY-----";

fn replace_bytes(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut i = 0;
    while i < haystack.len() {
        if haystack[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(haystack[i]);
            i += 1;
        }
    }
    out
}

/// The PEM blocks with exactly `label`, each re-emitted as its own text (BEGIN line to END line).
pub(super) fn pem_blocks(pem: &[u8], label: &str) -> Vec<Vec<u8>> {
    let text = String::from_utf8_lossy(pem);
    let begin = format!("-----BEGIN {label}-----");
    let end = format!("-----END {label}-----");
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.trim() == begin {
            current = Some(format!("{begin}\n"));
        } else if line.trim() == end {
            if let Some(mut block) = current.take() {
                block.push_str(&end);
                block.push('\n');
                blocks.push(block.into_bytes());
            }
        } else if let Some(block) = current.as_mut() {
            block.push_str(line.trim());
            block.push('\n');
        }
    }
    blocks
}
