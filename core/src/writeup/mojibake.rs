//! Repairs UTF-8 text that was once decoded as Windows-1252 or Mac Roman and
//! re-encoded (`âœ…` and `‚úÖ` for ✅, `â†’` for →, `√ó` for ×).
//!
//! Each character is mapped back to the byte it came from; where a run of
//! such bytes forms one valid multi-byte UTF-8 sequence, the run is replaced by
//! that character. Everything else, including real accented text, is kept.

/// Windows-1252's 0x80..=0x9F; other bytes in 0xA0..=0xFF are Latin-1.
const CP1252_HIGH: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}', '\u{90}', '‘', '’',
    '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
];

/// Mac Roman's 0x80..=0xFF.
const MAC_ROMAN_HIGH: [char; 128] = [
    'Ä', 'Å', 'Ç', 'É', 'Ñ', 'Ö', 'Ü', 'á', 'à', 'â', 'ä', 'ã', 'å', 'ç', 'é', 'è', 'ê', 'ë', 'í', 'ì', 'î', 'ï', 'ñ',
    'ó', 'ò', 'ô', 'ö', 'õ', 'ú', 'ù', 'û', 'ü', '†', '°', '¢', '£', '§', '•', '¶', 'ß', '®', '©', '™', '´', '¨', '≠',
    'Æ', 'Ø', '∞', '±', '≤', '≥', '¥', 'µ', '∂', '∑', '∏', 'π', '∫', 'ª', 'º', 'Ω', 'æ', 'ø', '¿', '¡', '¬', '√', 'ƒ',
    '≈', '∆', '«', '»', '…', '\u{A0}', 'À', 'Ã', 'Õ', 'Œ', 'œ', '–', '—', '“', '”', '‘', '’', '÷', '◊', 'ÿ', 'Ÿ', '⁄',
    '€', '‹', '›', 'ﬁ', 'ﬂ', '‡', '·', '‚', '„', '‰', 'Â', 'Ê', 'Á', 'Ë', 'È', 'Í', 'Î', 'Ï', 'Ì', 'Ó', 'Ô',
    '\u{F8FF}', 'Ò', 'Ú', 'Û', 'Ù', 'ı', 'ˆ', '˜', '¯', '˘', '˙', '˚', '¸', '˝', '˛', 'ˇ',
];

#[derive(Clone, Copy)]
enum Codepage {
    Windows1252,
    MacRoman,
}

impl Codepage {
    fn byte_of(self, c: char) -> Option<u8> {
        match self {
            Codepage::Windows1252 => {
                let code = c as u32;
                if (0xA0..=0xFF).contains(&code) {
                    Some(code as u8)
                } else {
                    CP1252_HIGH.iter().position(|&h| h == c).map(|i| 0x80 + i as u8)
                }
            }
            Codepage::MacRoman => MAC_ROMAN_HIGH.iter().position(|&h| h == c).map(|i| 0x80 + i as u8),
        }
    }
}

/// How many bytes a UTF-8 sequence starting with `lead` has (None if `lead` cannot start one).
fn sequence_len(lead: u8) -> Option<usize> {
    match lead {
        0xC2..=0xDF => Some(2),
        0xE0..=0xEF => Some(3),
        0xF0..=0xF4 => Some(4),
        _ => None,
    }
}

/// Tries to read one mis-decoded UTF-8 sequence at the start of `chars`.
fn decode_at(chars: &[char], page: Codepage) -> Option<char> {
    let lead = page.byte_of(*chars.first()?)?;
    let len = sequence_len(lead)?;
    let mut bytes = vec![lead];
    for &c in chars.get(1..len)? {
        let b = page.byte_of(c)?;
        if !(0x80..=0xBF).contains(&b) {
            return None;
        }
        bytes.push(b);
    }
    std::str::from_utf8(&bytes).ok()?.chars().next()
}

/// Returns the text with every recognisable mojibake sequence repaired.
pub fn repair(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii() {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let repaired = [Codepage::Windows1252, Codepage::MacRoman]
            .into_iter()
            .find_map(|page| decode_at(&chars[i..], page).map(|c| (c, page)));
        match repaired {
            Some((c, _)) => {
                out.push(c);
                i += c.len_utf8();
            }
            None => {
                out.push(chars[i]);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::repair;

    #[test]
    fn repairs_windows_1252_round_trips() {
        assert_eq!(repair("~100GB+ per GPU â†’ **OOM**"), "~100GB+ per GPU → **OOM**");
        assert_eq!(repair("âœ… Network errors: FIXED"), "✅ Network errors: FIXED");
        assert_eq!(repair("ðŸ”§ Memory optimization"), "🔧 Memory optimization");
        assert_eq!(repair("CPUâ†”GPU transfer"), "CPU↔GPU transfer");
    }

    #[test]
    fn repairs_mac_roman_round_trips() {
        assert_eq!(repair("4 nodes √ó 4 L40S"), "4 nodes × 4 L40S");
        assert_eq!(repair("‚úÖ Environment setup"), "✅ Environment setup");
        assert_eq!(repair("## \u{F8FF}üéØ Current Status"), "## 🎯 Current Status");
        assert_eq!(repair("80h ‚Üí 6h"), "80h → 6h");
    }

    #[test]
    fn keeps_real_text() {
        for text in ["naïve café — “quoted” → ✅ 21.3 → 5.19", "Ünïcödé ok", "plain ascii"] {
            assert_eq!(repair(text), text);
        }
    }
}
