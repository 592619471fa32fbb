//! The size an OOM line asked for, where no reader of its signature found one.

use super::{keep_first, Collector};
use crate::scan::{leading_integer, leading_size};
use crate::units::{Bytes, UnitConvention::Binary, KIB};

impl Collector {
    /// The size an OOM line says was asked for, in any runtime's words, where
    /// no reader of its signature found one: "Attempting to allocate 15.65G",
    /// "NRT allocation failed for size 233658313344", "Failed to alloc DEVICE
    /// memory: 180355072", "(requested 2097152 bytes)". After the asking word
    /// only a few connecting words may stand before the number, so a PID, a
    /// device index or another figure further on is not taken for it.
    pub fn read_requested(&mut self, line: &str) {
        const ASKING: [&str; 3] = ["alloc", "request", "needed"];
        const CONNECTING: [&str; 16] = [
            "a", "an", "the", "of", "for", "to", "size", "failed", "buffer", "memory", "device", "host", "pinned",
            "new", "block", "chunk",
        ];
        if self.numbers.requested.is_some() {
            return;
        }
        let lower = line.to_ascii_lowercase();
        let mut starts: Vec<usize> = ASKING.iter().flat_map(|w| lower.match_indices(w).map(|(at, _)| at)).collect();
        starts.sort_unstable();
        for start in starts {
            let mut rest = lower[start..].trim_start_matches(|c: char| c.is_ascii_alphabetic());
            for _ in 0..6 {
                rest = rest.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, ':' | '=' | '(' | '*' | '`'));
                let word_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                if word_len == 0 {
                    break;
                }
                if rest.starts_with(|c: char| c.is_ascii_digit()) {
                    // The original spelling: units are case-sensitive ("528.00M", "4 GB").
                    let at = line.len() - rest.len();
                    // A bare count is bytes only where no other word counts it ("1444 tokens").
                    let size = leading_size(&line[at..], Binary).filter(|b| b.0 > 0).or_else(|| {
                        let bytes = leading_integer(&line[at..])?;
                        let after = line[at..].trim_start_matches(|c: char| c.is_ascii_digit());
                        let counted = after.trim_start().starts_with(|c: char| c.is_alphabetic());
                        (bytes >= KIB && !counted && !after.starts_with(['.', ','])).then_some(Bytes(bytes))
                    });
                    keep_first(&mut self.numbers.requested, size);
                    break;
                }
                if !CONNECTING.contains(&&rest[..word_len]) {
                    break;
                }
                rest = &rest[word_len..];
            }
            if self.numbers.requested.is_some() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnose::figures::Collector;

    /// OOM lines of runtimes no reader names (corpus dev logs: JAX, Neuron, Gaudi,
    /// IHaskell); a count of something else or a word between is not a request.
    #[test]
    fn a_request_in_any_runtimes_words() {
        let requested = |line: &str| {
            let mut c = Collector::default();
            c.read_requested(line);
            c.finish().requested
        };
        assert_eq!(requested("RESOURCE_EXHAUSTED: Error allocating device buffer: Attempting to allocate 196.00M. That was not possible."), Some(205_520_896));
        assert_eq!(requested("RuntimeError: NRT allocation failed for size 233658313344 (OOM)"), Some(233_658_313_344));
        assert_eq!(
            requested("ERROR  TDRV:dmem_alloc_internal   Failed to alloc DEVICE memory: 180355072"),
            Some(180_355_072)
        );
        assert_eq!(requested("RuntimeError: [Rank:7] FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed for size::2123366400 (2025)MB"), Some(2_123_366_400));
        assert_eq!(requested("ihaskell: out of memory (requested 2097152 bytes)"), Some(2_097_152));
        assert_eq!(requested("RuntimeError: Prefill out of memory. Try to allocate 1444 tokens."), None);
        assert_eq!(requested("Memory allocation error on worker 0: std::bad_alloc"), None);
        assert_eq!(requested("Allocation on device 0 would exceed allowed memory. (out of memory)"), None);
    }
}
