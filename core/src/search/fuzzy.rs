//! Typo tolerance by the symmetric-delete method: every vocabulary term is
//! stored under itself and under each one-character deletion, so a query word
//! finds terms within one edit (insert, delete, substitute) by a few lookups.
//! A word of n characters has n deletions of n-1 characters each, so only
//! words of sane length are fuzzed: the cost stays bounded whatever is typed.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Words shorter than this get no typo tolerance: too many neighbours.
const MIN_CHARS: usize = 4;
/// Words longer than this get none either: no real word is that long, and the
/// variants of a 70,000-letter word would take gigabytes.
pub const MAX_CHARS: usize = 32;

fn fuzzable(word: &str) -> bool {
    (MIN_CHARS..=MAX_CHARS).contains(&word.chars().count())
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Deletes {
    map: HashMap<String, Vec<u32>>,
}

fn variants(term: &str) -> Vec<String> {
    let chars: Vec<char> = term.chars().collect();
    let mut out = vec![term.to_string()];
    for skip in 0..chars.len() {
        out.push(chars.iter().enumerate().filter(|(i, _)| *i != skip).map(|(_, c)| c).collect());
    }
    out
}

impl Deletes {
    pub fn build<'a>(vocabulary: impl Iterator<Item = &'a str>) -> Deletes {
        let mut map: HashMap<String, Vec<u32>> = HashMap::new();
        for (id, term) in vocabulary.enumerate() {
            if fuzzable(term) {
                for v in variants(term) {
                    map.entry(v).or_default().push(id as u32);
                }
            }
        }
        Deletes { map }
    }

    /// Ids of terms one edit away from `word` (candidates; callers confirm).
    pub fn candidates(&self, word: &str) -> Vec<u32> {
        if !fuzzable(word) {
            return Vec::new();
        }
        let mut ids: Vec<u32> = variants(word).iter().filter_map(|v| self.map.get(v)).flatten().copied().collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

/// Damerau-Levenshtein distance is at most one (a swap of neighbours counts as one).
pub fn within_one_edit(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > 1 {
        return false;
    }
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let (ra, rb) = (&a[prefix..], &b[prefix..]);
    let suffix = ra.iter().rev().zip(rb.iter().rev()).take_while(|(x, y)| x == y).count();
    let (ma, mb) = (&ra[..ra.len() - suffix.min(ra.len())], &rb[..rb.len() - suffix.min(rb.len())]);
    match (ma.len(), mb.len()) {
        (0, 0) | (1, 0) | (0, 1) | (1, 1) => true,
        (2, 2) => ma[0] == mb[1] && ma[1] == mb[0],
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_one_edit_neighbours() {
        let vocab = ["validation", "worker", "optimizer", "gpu"];
        let d = Deletes::build(vocab.iter().copied());
        let found = |w: &str| {
            d.candidates(w).into_iter().map(|i| vocab[i as usize]).filter(|t| within_one_edit(w, t)).collect::<Vec<_>>()
        };
        assert_eq!(found("valdation"), vec!["validation"]);
        assert_eq!(found("wroker"), vec!["worker"]);
        assert_eq!(found("optimiser"), vec!["optimizer"]);
        assert!(found("gpx").is_empty(), "short words are not fuzzed");
        assert!(found("zzzzzz").is_empty());
        assert!(found(&"validation".repeat(4)).is_empty(), "overlong words are not fuzzed");
    }

    #[test]
    fn edit_distance_one() {
        assert!(within_one_edit("worker", "wroker"));
        assert!(within_one_edit("worker", "workers"));
        assert!(!within_one_edit("worker", "walker"));
    }
}
