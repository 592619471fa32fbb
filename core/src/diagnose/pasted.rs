//! What copying a log through a web page, a chat or a word processor does to
//! it: typographic quotes, non-breaking and zero-width spaces, HTML entities.
//! Undone before the log is read, so "context’s memory pool" and
//! `&quot;OOMKilled&quot;: true` read as what the program printed.
//!
//! Every replacement is a character that cannot start or complete another
//! one, so undoing twice is undoing once: a chunked read, which undoes the
//! unread rest again with the next chunk, reads what a whole read does.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use std::borrow::Cow;
use std::sync::OnceLock;

const REPLACEMENTS: [(&str, &str); 18] = [
    ("\u{2018}", "'"),
    ("\u{2019}", "'"),
    ("\u{201B}", "'"),
    ("\u{201C}", "\""),
    ("\u{201D}", "\""),
    ("\u{201F}", "\""),
    ("\u{00A0}", " "),
    ("\u{202F}", " "),
    ("\u{200B}", ""),
    ("&quot;", "\""),
    ("&#34;", "\""),
    ("&#39;", "'"),
    ("&#x27;", "'"),
    ("&apos;", "'"),
    ("&lt;", "<"),
    ("&gt;", ">"),
    ("&nbsp;", " "),
    ("&#160;", " "),
];

fn automaton() -> &'static AhoCorasick {
    static AUTOMATON: OnceLock<AhoCorasick> = OnceLock::new();
    AUTOMATON.get_or_init(|| {
        AhoCorasickBuilder::new()
            .match_kind(MatchKind::LeftmostFirst)
            .build(REPLACEMENTS.map(|(from, _)| from))
            .expect("the replacements build")
    })
}

/// `text` as the program printed it; borrowed when nothing was changed (the usual case).
pub(super) fn undo(text: &str) -> Cow<'_, str> {
    let ac = automaton();
    if ac.find(text).is_none() {
        return Cow::Borrowed(text);
    }
    Cow::Owned(ac.replace_all(text, &REPLACEMENTS.map(|(_, to)| to)))
}

#[cfg(test)]
mod tests {
    use super::undo;

    #[test]
    fn typography_and_entities_read_as_printed() {
        assert_eq!(
            undo("ggml: not enough space in the context\u{2019}s memory pool"),
            "ggml: not enough space in the context's memory pool"
        );
        assert_eq!(undo("&quot;OOMKilled&quot;:\u{00A0}true, &lt;/torch_1&gt;"), "\"OOMKilled\": true, </torch_1>");
        assert!(matches!(undo("45%|████▌     | 450/1000 && done"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn undoing_twice_is_undoing_once() {
        for text in ["&amp;quot;", "&&lt;quot;", "&#3&#39;9;", "\u{2019}&gt;&lt;;", "&lt;&#x27;&#x27;&gt;"] {
            assert_eq!(undo(&undo(text)), undo(text), "{text}");
        }
    }
}
