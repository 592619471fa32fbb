//! A log's bytes to text, chunk by chunk, so a file of any size is read
//! without holding it: UTF-8 characters cut by a chunk edge are carried to
//! the next chunk, invalid bytes become U+FFFD, and UTF-16 logs (what
//! Windows PowerShell's `>` writes) are recognised by their byte-order mark.

#[derive(Debug, Default)]
pub struct Decoder {
    /// Bytes of a character cut by the last chunk's edge.
    carry: Vec<u8>,
    encoding: Option<Encoding>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Encoding {
    Utf8,
    Utf16Le,
    Utf16Be,
}

impl Decoder {
    pub fn new() -> Decoder {
        Decoder::default()
    }

    /// The text of `bytes`, except a character cut at the end (kept for the next call).
    pub fn decode(&mut self, bytes: &[u8]) -> String {
        let mut input = std::mem::take(&mut self.carry);
        input.extend_from_slice(bytes);
        let encoding = match self.encoding {
            Some(e) => e,
            None if [&[0xEF, 0xBB, 0xBF][..], &[0xFF, 0xFE], &[0xFE, 0xFF]]
                .iter()
                .any(|bom| bom.len() > input.len() && bom.starts_with(&input)) =>
            {
                // Too short to tell a byte-order mark from text yet.
                self.carry = input;
                return String::new();
            }
            None => {
                let (encoding, bom) = match input.as_slice() {
                    [0xEF, 0xBB, 0xBF, ..] => (Encoding::Utf8, 3),
                    [0xFF, 0xFE, ..] => (Encoding::Utf16Le, 2),
                    [0xFE, 0xFF, ..] => (Encoding::Utf16Be, 2),
                    _ => (Encoding::Utf8, 0),
                };
                input.drain(..bom);
                self.encoding = Some(encoding);
                encoding
            }
        };
        match encoding {
            Encoding::Utf8 => {
                let keep = incomplete_utf8_tail(&input);
                self.carry = input.split_off(input.len() - keep);
                String::from_utf8_lossy(&input).into_owned()
            }
            Encoding::Utf16Le | Encoding::Utf16Be => {
                let mut units: Vec<u16> = input
                    .chunks_exact(2)
                    .map(|p| {
                        if encoding == Encoding::Utf16Le {
                            u16::from_le_bytes([p[0], p[1]])
                        } else {
                            u16::from_be_bytes([p[0], p[1]])
                        }
                    })
                    .collect();
                let mut keep = input.len() % 2;
                // A high surrogate at the end waits for its pair.
                if units.last().is_some_and(|u| (0xD800..0xDC00).contains(u)) {
                    units.pop();
                    keep += 2;
                }
                self.carry = input.split_off(input.len() - keep);
                char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect()
            }
        }
    }

    /// What is left at the end of the input: a cut character becomes U+FFFD.
    pub fn finish(self) -> String {
        if self.carry.is_empty() {
            String::new()
        } else {
            String::from_utf8_lossy(&self.carry).into_owned()
        }
    }
}

/// How many bytes at the end of `bytes` start a UTF-8 character that is not complete.
fn incomplete_utf8_tail(bytes: &[u8]) -> usize {
    for back in 1..=bytes.len().min(3) {
        let byte = bytes[bytes.len() - back];
        if byte & 0b1100_0000 != 0b1000_0000 {
            // A lead byte: complete if its sequence fits in what follows it.
            let needed = match byte {
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                0xF0..=0xF7 => 4,
                _ => 1,
            };
            return if needed > back { back } else { 0 };
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn in_chunks(bytes: &[u8], size: usize) -> String {
        let mut d = Decoder::new();
        let mut out: String = bytes.chunks(size).map(|c| d.decode(c)).collect();
        out.push_str(&d.finish());
        out
    }

    #[test]
    fn characters_cut_by_a_chunk_edge_are_whole() {
        let text = "Killed\n已杀死\nGetötet 🙂\n";
        for size in 1..8 {
            assert_eq!(in_chunks(text.as_bytes(), size), text, "chunks of {size}");
        }
    }

    #[test]
    fn invalid_bytes_become_replacement_characters() {
        assert_eq!(in_chunks(b"ok \xFF\xFE\xFD\n", 2), "ok \u{FFFD}\u{FFFD}\u{FFFD}\n");
        assert_eq!(in_chunks(b"cut \xE4\xB8", 3), "cut \u{FFFD}");
    }

    #[test]
    fn utf16_logs_from_powershell() {
        let text = "RuntimeError: CUDA out of memory. 🙂\r\n";
        let mut le = vec![0xFF, 0xFE];
        le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        let mut be = vec![0xFE, 0xFF];
        be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
        for size in [1, 3, 7, 4096] {
            assert_eq!(in_chunks(&le, size), text, "LE in chunks of {size}");
            assert_eq!(in_chunks(&be, size), text, "BE in chunks of {size}");
        }
        let mut bom8 = vec![0xEF, 0xBB, 0xBF];
        bom8.extend_from_slice(b"plain");
        assert_eq!(in_chunks(&bom8, 1), "plain");
    }
}
