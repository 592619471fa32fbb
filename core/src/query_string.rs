//! `key=value&key=value` with percent-encoding: how a search query or a whole
//! calculator state travels in a link that a wiki can bookmark.

/// Percent-encodes everything but RFC 3986's unreserved characters.
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Decodes `%XX` escapes and `+` as space. Malformed escapes are kept as they
/// are, so a hand-edited link still opens.
pub fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        // Exactly two hex digits: `from_str_radix` alone would also take "+1" (a sign).
        let escaped = (bytes[i] == b'%')
            .then(|| text.get(i + 1..i + 3))
            .flatten()
            .filter(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (escaped, bytes[i]) {
            (Some(byte), _) => {
                out.push(byte);
                i += 3;
            }
            (None, b'+') => {
                out.push(b' ');
                i += 1;
            }
            (None, byte) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The decoded pairs of a query string, in order; a key without `=` has an empty value.
pub fn parse(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}

/// Joins pairs into a query string, encoding both sides.
pub fn build<'a>(pairs: impl IntoIterator<Item = (&'a str, String)>) -> String {
    pairs.into_iter().map(|(k, v)| format!("{}={}", encode(k), encode(&v))).collect::<Vec<_>>().join("&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_any_text() {
        for text in ["validation workers", "a&b=c", "100%", "ünïcode → ok", ""] {
            assert_eq!(decode(&encode(text)), text);
        }
    }

    #[test]
    fn parses_pairs_and_plus_as_space() {
        let pairs = parse("q=validation+workers&kind=host&flag");
        assert_eq!(
            pairs,
            vec![
                ("q".into(), "validation workers".into()),
                ("kind".into(), "host".into()),
                ("flag".into(), String::new())
            ]
        );
    }

    #[test]
    fn keeps_malformed_escapes() {
        assert_eq!(decode("100%zz%4"), "100%zz%4");
        assert_eq!(decode("%+1%-1"), "% 1%-1", "a sign is not a hex digit");
    }
}
