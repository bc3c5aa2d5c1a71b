//! Input decoding as go-yaml's reader does it: UTF-8 with an optional BOM or UTF-16 with its BOM, go-yaml's error texts
//! and offsets, and the 512-byte chunking that decides when a decoding error surfaces.

use std::borrow::Cow;

use crate::Dialect;

/// Size of go-yaml's raw input buffer: the reader decodes the input in chunks of this size.
const RAW_CHUNK: usize = 512;

/// A decoding problem: go-yaml's `yaml: offset N: <problem>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ReaderProblem {
    pub offset: usize,
    pub problem: &'static str,
    /// The bad octet, code point or UTF-16 unit, for the problems go-yaml rc.6 words with
    /// `(value: N)`.
    pub value: Option<u32>,
    /// Where, in bytes of [`Decoded::text`], the chunk holding the problem starts: go-yaml
    /// reports the problem once the scanner asks for a character at or after this point.
    pub surfaces_at: usize,
}

/// The input, checked once: the text go-yaml decodes before any problem (without the BOM), and
/// the problem that stops it. The scanner reads the text as bytes; nothing is copied.
pub(super) struct Decoded<'a> {
    /// Borrowed from UTF-8 input; UTF-16 input is transcoded.
    pub text: Cow<'a, str>,
    /// Byte offset of the first character (3 after a BOM).
    pub start_offset: usize,
    pub problem: Option<ReaderProblem>,
}

fn allowed(value: u32, dialect: Dialect) -> bool {
    value == 0x09
        || value == 0x0A
        || value == 0x0D
        || (0x20..=0x7E).contains(&value)
        // go-yaml v4 rc.4 allows DEL and the C1 controls (YAML 1.2); rc.3 only NEL.
        || match dialect {
            Dialect::V4Rc3 => value == 0x85,
            _ => (0x7F..=0x9F).contains(&value),
        }
        || (0xA0..=0xD7FF).contains(&value)
        || (0xE000..=0xFFFD).contains(&value)
        || (0x10000..=0x10FFFF).contains(&value)
}

/// Whether every character is one YAML allows (bytes first: most configs are ASCII).
fn all_allowed(text: &str, dialect: Dialect) -> bool {
    let ascii_allowed_or_wide = |b: u8| match b {
        b'\t' | b'\n' | b'\r' | 0x20..=0x7E | 0x80..=0xFF => true,
        0x7F => dialect != Dialect::V4Rc3,
        _ => false,
    };
    text.bytes().all(ascii_allowed_or_wide) && (text.is_ascii() || text.chars().all(|c| allowed(u32::from(c), dialect)))
}

/// A problem found at a byte offset: the offset, the text and the bad value (if go-yaml names
/// one).
type Found = (usize, &'static str, Option<u32>);

/// Checks one character at `pos` (which is `< input.len()`); `end` is the end of the bytes
/// available in the current chunk. Returns its width, or `Ok(None)` when the character is cut
/// by the chunk end (and more input follows).
fn check_one(input: &[u8], pos: usize, end: usize, dialect: Dialect) -> Result<Option<usize>, Found> {
    let Some(&first) = input.get(pos) else {
        return Ok(None);
    };
    if first.is_ascii() {
        return if allowed(u32::from(first), dialect) {
            Ok(Some(1))
        } else {
            Err((pos, "control characters are not allowed", Some(u32::from(first))))
        };
    }
    let width = if first & 0x80 == 0 {
        1
    } else if first & 0xE0 == 0xC0 {
        2
    } else if first & 0xF0 == 0xE0 {
        3
    } else if first & 0xF8 == 0xF0 {
        4
    } else {
        0
    };
    if width == 0 {
        return Err((pos, "invalid leading UTF-8 octet", Some(u32::from(first))));
    }
    if pos + width > end {
        if end >= input.len() {
            return Err((pos, "incomplete UTF-8 octet sequence", None));
        }
        return Ok(None);
    }
    let mut value: u32 = match width {
        1 => u32::from(first & 0x7F),
        2 => u32::from(first & 0x1F),
        3 => u32::from(first & 0x0F),
        _ => u32::from(first & 0x07),
    };
    for k in 1..width {
        let octet = input.get(pos + k).copied().unwrap_or(0);
        if octet & 0xC0 != 0x80 {
            return Err((pos + k, "invalid trailing UTF-8 octet", Some(u32::from(octet))));
        }
        value = (value << 6) + u32::from(octet & 0x3F);
    }
    let length_ok = width == 1
        || (width == 2 && value >= 0x80)
        || (width == 3 && value >= 0x800)
        || (width == 4 && value >= 0x10000);
    if !length_ok {
        return Err((pos, "invalid length of a UTF-8 sequence", None));
    }
    if (0xD800..=0xDFFF).contains(&value) || value > 0x10FFFF {
        return Err((pos, "invalid Unicode character", Some(value)));
    }
    if !allowed(value, dialect) {
        return Err((pos, "control characters are not allowed", Some(value)));
    }
    Ok(Some(width))
}

/// Checks the whole input with `dialect`'s set of allowed characters; stops at the first
/// problem.
pub(super) fn decode(input: &[u8], dialect: Dialect) -> Decoded<'_> {
    if let Some(little_endian) = utf16_bom(input) {
        return decode_utf16(input, little_endian, dialect);
    }
    let start_offset = if input.starts_with(&[0xEF, 0xBB, 0xBF]) { 3 } else { 0 };
    // The common case, checked fast: valid UTF-8 with only characters YAML allows.
    if let Some(text) = input.get(start_offset..).and_then(|b| std::str::from_utf8(b).ok())
        && all_allowed(text, dialect)
    {
        return Decoded { text: Cow::Borrowed(text), start_offset, problem: None };
    }
    let mut pos = start_offset;
    // go-yaml reads the first raw chunk (512 bytes) from the start of the input, BOM included.
    let mut chunk_end = RAW_CHUNK.min(input.len());
    let mut chunk_start = start_offset;
    let mut problem = None;
    while pos < input.len() {
        if pos >= chunk_end {
            // The next chunk: the raw buffer is refilled to 512 bytes from here.
            chunk_start = pos;
            chunk_end = (pos + RAW_CHUNK).min(input.len());
        }
        match check_one(input, pos, chunk_end, dialect) {
            Ok(Some(width)) => pos += width,
            Ok(None) => {
                // A character cut by the chunk end: the leftover bytes start the next chunk.
                chunk_start = pos;
                chunk_end = (pos + RAW_CHUNK).min(input.len());
            }
            Err((offset, what, value)) => {
                problem = Some(ReaderProblem { offset, problem: what, value, surfaces_at: chunk_start - start_offset });
                break;
            }
        }
    }
    // Every character up to `pos` was checked as UTF-8 above, so this cannot fail; an empty text
    // would only hide input, never invent any.
    let text = input.get(start_offset..pos).and_then(|b| std::str::from_utf8(b).ok()).unwrap_or("");
    Decoded { text: Cow::Borrowed(text), start_offset, problem }
}

/// `Some(true)` for a UTF-16LE byte order mark (`FF FE`), `Some(false)` for UTF-16BE (`FE FF`).
fn utf16_bom(input: &[u8]) -> Option<bool> {
    match input {
        [0xFF, 0xFE, ..] => Some(true),
        [0xFE, 0xFF, ..] => Some(false),
        _ => None,
    }
}

/// UTF-16 input, as go-yaml reads it after its byte order mark: transcoded to UTF-8 up to the
/// first problem, with go-yaml's texts and byte offsets. The problem surfaces at once (go-yaml
/// would report it when the scanner reaches its 512-byte chunk; see KNOWN_GAPS.md).
fn decode_utf16(input: &[u8], little_endian: bool, dialect: Dialect) -> Decoded<'static> {
    let unit = |at: usize| -> Option<u32> {
        let pair = [*input.get(at)?, *input.get(at + 1)?];
        Some(u32::from(if little_endian { u16::from_le_bytes(pair) } else { u16::from_be_bytes(pair) }))
    };
    let mut text = String::with_capacity(input.len() / 2);
    let mut pos = 2;
    let mut problem = None;
    while pos < input.len() {
        let Some(first) = unit(pos) else {
            problem = Some((pos, "incomplete UTF-16 character", None));
            break;
        };
        let (value, width) = match first {
            0xDC00..=0xDFFF => {
                problem = Some((pos, "unexpected low surrogate area", Some(first)));
                break;
            }
            0xD800..=0xDBFF => match unit(pos + 2) {
                None => {
                    problem = Some((pos, "incomplete UTF-16 surrogate pair", None));
                    break;
                }
                Some(second @ 0xDC00..=0xDFFF) => (0x10000 + ((first & 0x3FF) << 10) + (second & 0x3FF), 4),
                Some(second) => {
                    problem = Some((pos + 2, "expected low surrogate area", Some(second)));
                    break;
                }
            },
            _ => (first, 2),
        };
        match char::from_u32(value).filter(|_| allowed(value, dialect)) {
            Some(c) => text.push(c),
            None => {
                problem = Some((pos, "control characters are not allowed", Some(value)));
                break;
            }
        }
        pos += width;
    }
    let problem = problem.map(|(offset, problem, value)| ReaderProblem { offset, problem, value, surfaces_at: 0 });
    Decoded { text: Cow::Owned(text), start_offset: 2, problem }
}
