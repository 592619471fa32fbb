//! Small, allocation-free text scanners shared by the write-up compiler and
//! the log diagnoser: find a marker (ASCII case-insensitively), then read the
//! number or size written next to it.

use crate::units::{parse_size, Bytes, UnitConvention};

/// Byte offset of the first ASCII-case-insensitive occurrence of `needle`.
/// Jumps between candidates for the first byte with memchr.
pub fn find_ci(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    let (&first, rest) = n.split_first()?;
    if n.len() > h.len() {
        return None;
    }
    let last_start = h.len() - n.len();
    memchr::memchr2_iter(first.to_ascii_lowercase(), first.to_ascii_uppercase(), &h[..=last_start])
        .find(|&i| h[i + 1..i + n.len()].eq_ignore_ascii_case(rest))
}

/// Every offset of `needle` (ASCII case-insensitive), non-overlapping.
pub fn find_all_ci<'a>(haystack: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    let mut from = 0;
    std::iter::from_fn(move || {
        let at = from + find_ci(haystack.get(from..)?, needle)?;
        from = at + needle.len().max(1);
        Some(at)
    })
}

/// The text right after the first `marker`, if present.
pub fn after<'a>(text: &'a str, marker: &str) -> Option<&'a str> {
    find_ci(text, marker).map(|i| &text[i + marker.len()..])
}

/// Skips spaces and markdown emphasis/code marks (`**`, `` ` ``) and `:` `=`.
fn skip_filler(text: &str) -> &str {
    text.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '`' | ':' | '=' | '~' | '('))
}

/// A size written at the start of `text` (after filler): `17.66 GiB`, `256 GB`,
/// `50344988kB`. `convention` says how to read units without `i`.
pub fn leading_size(text: &str, convention: UnitConvention) -> Option<Bytes> {
    let text = skip_filler(text);
    let number_end = text.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ',')).unwrap_or(text.len());
    if number_end == 0 {
        return None;
    }
    let rest = &text[number_end..];
    let unit_start = rest.len() - rest.trim_start_matches(' ').len();
    let unit_len = rest[unit_start..].find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(rest.len() - unit_start);
    let unit = &rest[unit_start..unit_start + unit_len];
    if unit.is_empty() {
        return None;
    }
    parse_size(&format!("{}{}", &text[..number_end], unit), convention)
}

/// The size after the first `marker`.
pub fn size_after(text: &str, marker: &str, convention: UnitConvention) -> Option<Bytes> {
    leading_size(after(text, marker)?, convention)
}

/// An unsigned integer at the start of `text` (after filler).
pub fn leading_integer(text: &str) -> Option<u64> {
    let text = skip_filler(text);
    let end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    text[..end].parse().ok()
}

/// The byte offset just past the last character matching `stop` (0 if none),
/// on a character boundary even when that character is multi-byte.
fn after_last(text: &str, stop: impl Fn(char) -> bool) -> usize {
    text.char_indices().rev().find(|(_, c)| stop(*c)).map_or(0, |(i, c)| i + c.len_utf8())
}

/// The integer written just before `text[..end]` ends, skipping spaces: in
/// `Detected 4 oom_kill events`, the integer before `oom_kill` is 4.
pub fn integer_before(text: &str, end: usize) -> Option<u64> {
    let head = text.get(..end)?.trim_end_matches([' ', '*']);
    let start = after_last(head, |c| !c.is_ascii_digit());
    head[start..].parse().ok()
}

/// The size written just before `text[..end]` ends: in `513 GB available`, the
/// size before `available`.
pub fn size_before(text: &str, end: usize, convention: UnitConvention) -> Option<Bytes> {
    let head = text.get(..end)?.trim_end_matches([' ', '*', '`']);
    let unit_start = after_last(head, |c| !c.is_ascii_alphabetic());
    let before_unit = head[..unit_start].trim_end_matches(' ');
    let number_start = after_last(before_unit, |c| !(c.is_ascii_digit() || c == '.' || c == ','));
    if number_start == before_unit.len() {
        return None;
    }
    parse_size(&format!("{}{}", &before_unit[number_start..], &head[unit_start..]), convention)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::{GIB, KIB};

    #[test]
    fn reads_sizes_next_to_markers() {
        let d = UnitConvention::Decimal;
        let b = UnitConvention::Binary;
        assert_eq!(
            size_after("Tried to allocate 17.66 GiB. GPU 0", "tried to allocate", d),
            Some(Bytes::from_gib(17.66))
        );
        assert_eq!(size_after("total-vm:50344988kB, anon-rss", "total-vm:", b), Some(Bytes(50344988 * KIB)));
        assert_eq!(size_after("Requested memory: **256 GB** per node", "requested memory", b), Some(Bytes(256 * GIB)));
        assert_eq!(size_after("allocate nothing", "allocate", d), None);
        let text = "has **513 GB available**";
        assert_eq!(size_before(text, find_ci(text, "available").unwrap(), b), Some(Bytes(513 * GIB)));
    }

    #[test]
    fn reads_integers_next_to_markers() {
        let text = "slurmstepd: error: Detected 4 oom_kill events in StepId=273202.0";
        assert_eq!(integer_before(text, find_ci(text, "oom_kill").unwrap()), Some(4));
        assert_eq!(leading_integer(after(text, "StepId=").unwrap()), Some(273202));
        assert_eq!(find_all_ci("Job 1 and job 2", "job").count(), 2);
        // Found by cargo fuzz: a multi-byte character right before the number.
        let text = "é4 oom_kill events";
        assert_eq!(integer_before(text, find_ci(text, "oom_kill").unwrap()), Some(4));
        let text = "é5GB available";
        assert_eq!(
            size_before(text, find_ci(text, "available").unwrap(), UnitConvention::Binary),
            Some(Bytes(5 << 30))
        );
    }
}
