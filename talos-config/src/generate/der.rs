//! The few DER forms Talos's certificates and keys are made of: writing TLVs, and reading the
//! elements of a sequence.

/// Tags used here.
pub(crate) const INTEGER: u8 = 0x02;
pub(crate) const BIT_STRING: u8 = 0x03;
pub(crate) const OCTET_STRING: u8 = 0x04;
pub(crate) const PRINTABLE_STRING: u8 = 0x13;
pub(crate) const UTF8_STRING: u8 = 0x0c;
pub(crate) const UTC_TIME: u8 = 0x17;
pub(crate) const GENERALIZED_TIME: u8 = 0x18;
pub(crate) const SEQUENCE: u8 = 0x30;
pub(crate) const SET: u8 = 0x31;
pub(crate) const BOOLEAN: u8 = 0x01;

/// One element: tag, length, content.
pub(crate) fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes: Vec<u8> = len.to_be_bytes().into_iter().skip_while(|&b| b == 0).collect();
        out.push(0x80 | bytes.len() as u8);
        out.extend(bytes);
    }
    out.extend_from_slice(content);
    out
}

/// A constructed element of the given parts.
pub(crate) fn constructed(tag: u8, parts: &[&[u8]]) -> Vec<u8> {
    tlv(tag, &parts.concat())
}

/// A SEQUENCE of the given parts.
pub(crate) fn sequence(parts: &[&[u8]]) -> Vec<u8> {
    constructed(SEQUENCE, parts)
}

/// A non-negative INTEGER from big-endian bytes (leading zeros dropped, a zero byte added
/// when the top bit is set).
pub(crate) fn unsigned_integer(bytes: &[u8]) -> Vec<u8> {
    let trimmed: &[u8] = match bytes.iter().position(|&b| b != 0) {
        Some(i) => &bytes[i..],
        None => &[0],
    };
    let mut content = Vec::with_capacity(trimmed.len() + 1);
    if trimmed[0] & 0x80 != 0 {
        content.push(0);
    }
    content.extend_from_slice(trimmed);
    tlv(INTEGER, &content)
}

/// A BIT STRING with no unused bits.
pub(crate) fn bit_string(bytes: &[u8]) -> Vec<u8> {
    let mut content = vec![0];
    content.extend_from_slice(bytes);
    tlv(BIT_STRING, &content)
}

/// An X.509 time as Go writes it: UTCTime for 1950 to 2049, GeneralizedTime otherwise.
pub(crate) fn time(unix_seconds: i64) -> Vec<u8> {
    let days = unix_seconds.div_euclid(86_400);
    let secs = unix_seconds.rem_euclid(86_400);
    let (year, month, day) = talos_go::time::civil_from_days(days);
    let clock = format!("{month:02}{day:02}{:02}{:02}{:02}Z", secs / 3600, secs % 3600 / 60, secs % 60);
    if (1950..2050).contains(&year) {
        tlv(UTC_TIME, format!("{:02}{clock}", year % 100).as_bytes())
    } else {
        tlv(GENERALIZED_TIME, format!("{year:04}{clock}").as_bytes())
    }
}

/// A string as Go's `asn1` writes a name's value: PrintableString when every character is
/// allowed there, UTF8String otherwise.
pub(crate) fn directory_string(text: &str) -> Vec<u8> {
    let printable = text.bytes().all(|b| b.is_ascii_alphanumeric() || b" '()+,-./:=?*".contains(&b));
    tlv(if printable { PRINTABLE_STRING } else { UTF8_STRING }, text.as_bytes())
}

/// One element read back: its tag, its content, and the whole element.
pub(crate) type Element<'a> = (u8, &'a [u8], &'a [u8]);

/// The elements of a DER element's content; `None` when the bytes are not well-formed DER.
pub(crate) fn elements(mut input: &[u8]) -> Option<Vec<Element<'_>>> {
    let mut out = Vec::new();
    while !input.is_empty() {
        let (tag, content, len) = read(input)?;
        out.push((tag, content, &input[..len]));
        input = &input[len..];
    }
    Some(out)
}

/// The first element of `input`: tag, content, and its whole length.
pub(crate) fn read(input: &[u8]) -> Option<(u8, &[u8], usize)> {
    let tag = *input.first()?;
    let first = *input.get(1)?;
    let (len, header) = if first < 0x80 {
        (usize::from(first), 2)
    } else {
        let count = usize::from(first & 0x7f);
        if count == 0 || count > 4 {
            return None;
        }
        let bytes = input.get(2..2 + count)?;
        (bytes.iter().fold(0usize, |acc, &b| (acc << 8) | usize::from(b)), 2 + count)
    };
    let end = header.checked_add(len)?;
    let content = input.get(header..end)?;
    Some((tag, content, end))
}
