//! The few words of a runbook that best show why it matched: the window with
//! the most distinct matched terms, with those words marked. Works on the
//! token positions recorded when the index was built, so a snippet costs one
//! pass over one document. Segments are plain text: the page renders them as
//! text, never as HTML.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    pub text: String,
    pub highlight: bool,
}

/// A term occurrence: byte range of its word in the text, and the term id.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
pub struct Token {
    pub start: u32,
    pub end: u32,
    pub term: u32,
}

/// `matched` must be sorted (term ids).
pub fn best_window(text: &str, tokens: &[Token], matched: &[u32], width: usize) -> Vec<Segment> {
    if tokens.is_empty() {
        return Vec::new();
    }
    let is_match = |t: &Token| matched.binary_search(&t.term).is_ok();
    let width = width.min(tokens.len());
    // Sliding window: distinct matched terms inside [start, start + width).
    let mut counts: std::collections::HashMap<u32, u32> = std::collections::HashMap::new();
    let mut distinct = 0;
    let mut best = (0, 0);
    for (i, token) in tokens.iter().enumerate() {
        if is_match(token) {
            let c = counts.entry(token.term).or_insert(0);
            *c += 1;
            if *c == 1 {
                distinct += 1;
            }
        }
        if i >= width {
            let leaving = &tokens[i - width];
            if is_match(leaving) {
                let c = counts.entry(leaving.term).or_insert(1);
                *c -= 1;
                if *c == 0 {
                    distinct -= 1;
                }
            }
        }
        let start = (i + 1).saturating_sub(width);
        if i + 1 >= width && distinct > best.0 {
            best = (distinct, start);
        }
    }
    let (first, last) = (best.1, best.1 + width - 1);
    let mut segments: Vec<Segment> = Vec::new();
    let mut push = |text: &str, highlight: bool| match segments.last_mut() {
        Some(last) if last.highlight == highlight && !highlight => last.text.push_str(text),
        _ => segments.push(Segment { text: text.to_string(), highlight }),
    };
    if first > 0 {
        push("… ", false);
    }
    let mut cursor = tokens[first].start as usize;
    let mut i = first;
    while i <= last {
        let (start, end) = (tokens[i].start as usize, tokens[i].end as usize);
        // Sub-terms (`num_workers` -> `num`, `workers`) share their word's range.
        let mut marked = false;
        while i <= last && tokens[i].start as usize == start {
            marked |= is_match(&tokens[i]);
            i += 1;
        }
        if start > cursor {
            push(&text[cursor..start], false);
        }
        push(&text[start..end], marked);
        cursor = end;
    }
    if last + 1 < tokens.len() {
        push(" …", false);
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tokenize::for_each_term;

    #[test]
    fn marks_matched_words_in_the_densest_window() {
        let text = "alpha beta gamma delta validation epsilon num_workers zeta eta theta";
        let mut vocab: Vec<String> = Vec::new();
        let mut tokens = Vec::new();
        for_each_term(text, |term, range| {
            let id = vocab.iter().position(|t| *t == term).unwrap_or_else(|| {
                vocab.push(term);
                vocab.len() - 1
            });
            tokens.push(Token { start: range.start as u32, end: range.end as u32, term: id as u32 });
        });
        let mut matched: Vec<u32> =
            ["validation", "worker"].iter().map(|w| vocab.iter().position(|t| t == w).unwrap() as u32).collect();
        matched.sort();
        let segs = best_window(text, &tokens, &matched, 5);
        let marked: Vec<&str> = segs.iter().filter(|s| s.highlight).map(|s| s.text.as_str()).collect();
        assert_eq!(marked, vec!["validation", "num_workers"]);
        let joined: String = segs.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(joined, "… validation epsilon num_workers …", "five tokens: num_workers counts as three");
    }
}
