//! The few words of a runbook that best show why it matched: the window with
//! the most distinct matched terms, with those words marked. Segments are
//! plain text, so the page renders them as text, never as HTML.

use super::tokenize::normalise;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Segment {
    pub text: String,
    pub highlight: bool,
}

pub fn best_window(text: &str, matched: &[String], width: usize) -> Vec<Segment> {
    let words: Vec<&str> = text.split_whitespace().collect();
    if words.is_empty() {
        return Vec::new();
    }
    let is_match = |w: &str| {
        let bare = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
        !bare.is_empty() && {
            let n = normalise(bare);
            matched
                .iter()
                .any(|m| *m == n || bare.split('_').any(|p| normalise(p) == *m))
        }
    };
    let marks: Vec<bool> = words.iter().map(|w| is_match(w)).collect();
    let width = width.min(words.len());
    let start = (0..=words.len() - width)
        .max_by_key(|&s| {
            let mut distinct: Vec<String> = (s..s + width)
                .filter(|&i| marks[i])
                .map(|i| normalise(words[i]))
                .collect();
            distinct.sort();
            distinct.dedup();
            (distinct.len(), std::cmp::Reverse(s))
        })
        .unwrap_or(0);
    let mut segments: Vec<Segment> = Vec::new();
    if start > 0 {
        segments.push(Segment {
            text: "… ".into(),
            highlight: false,
        });
    }
    for i in start..start + width {
        let word = words[i];
        if marks[i] {
            segments.push(Segment {
                text: word.to_string(),
                highlight: true,
            });
        } else {
            match segments.last_mut() {
                Some(last) if !last.highlight => last.text.push_str(word),
                _ => segments.push(Segment {
                    text: word.to_string(),
                    highlight: false,
                }),
            }
        }
        if i + 1 < start + width {
            match segments.last_mut() {
                Some(last) if !last.highlight => last.text.push(' '),
                _ => segments.push(Segment {
                    text: " ".into(),
                    highlight: false,
                }),
            }
        }
    }
    if start + width < words.len() {
        segments.push(Segment {
            text: " …".into(),
            highlight: false,
        });
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_matched_words_in_the_densest_window() {
        let text = "alpha beta gamma delta validation epsilon workers zeta eta theta";
        let segs = best_window(text, &["validation".into(), "worker".into()], 4);
        let marked: Vec<&str> = segs
            .iter()
            .filter(|s| s.highlight)
            .map(|s| s.text.as_str())
            .collect();
        assert_eq!(marked, vec!["validation", "workers"]);
        let joined: String = segs.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(joined, "… delta validation epsilon workers …");
    }
}
