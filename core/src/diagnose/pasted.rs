//! What copying a log through a web page, a chat or a word processor does to
//! it: typographic quotes, non-breaking and zero-width spaces, HTML entities,
//! and an input method's full-width punctuation where a message was retyped.
//! Undone before the log is read, so "context’s memory pool" and
//! `&quot;OOMKilled&quot;: true` read as what the program printed.
//!
//! Every replacement is a character that cannot start or complete another
//! one, so undoing twice is undoing once: a chunked read, which undoes the
//! unread rest again with the next chunk, reads what a whole read does.

use std::borrow::Cow;

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

/// Punctuation typed with a Chinese or Japanese input method, where a message is retyped
/// ("worker（pid 27631）is killed by signal：killed"): each holds its own space.
const FULL_WIDTH: [(&str, &str); 4] = [("\u{FF1A}", ": "), ("\u{FF0C}", ", "), ("\u{FF08}", " ("), ("\u{FF09}", ") ")];

/// `text` as the program printed it; borrowed when nothing was changed (the usual case).
pub(super) fn undo(text: &str) -> Cow<'_, str> {
    let typed = typography(text);
    // All four are U+FF0x-U+FF1x (EF BC xx): one scan rules them out.
    if memchr::memmem::find(typed.as_bytes(), b"\xEF\xBC").is_none() {
        return typed;
    }
    let mut out = typed.into_owned();
    for (from, to) in FULL_WIDTH {
        if out.contains(from) {
            out = out.replace(from, to);
        }
    }
    Cow::Owned(out)
}

fn typography(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    // Most logs hold none: two scans that skip a progress bar's blocks (E2 96 xx) whole,
    // rather than stopping at each of them.
    if memchr::memchr2(b'&', 0xC2, bytes).is_none() && memchr::memmem::find(bytes, b"\xE2\x80").is_none() {
        return Cow::Borrowed(text);
    }
    let mut undone: Option<String> = None;
    let mut copied = 0;
    // Every replacement starts with `&` or the lead byte of U+00A0 (0xC2) or of U+2000-U+203F
    // (0xE2); lead bytes are char boundaries. A progress bar's blocks (U+2588, also 0xE2) are
    // rejected by their second byte before any comparison.
    for at in memchr::memchr3_iter(b'&', 0xC2, 0xE2, bytes) {
        // Only U+00A0 (C2 A0) and U+2000-U+203F (E2 80 xx) can start a replacement.
        let second = bytes.get(at + 1).copied();
        if at < copied || (bytes[at] == 0xC2 && second != Some(0xA0)) || (bytes[at] == 0xE2 && second != Some(0x80)) {
            continue;
        }
        let Some((from, to)) = REPLACEMENTS.iter().find(|(from, _)| bytes[at..].starts_with(from.as_bytes())) else {
            continue;
        };
        let out = undone.get_or_insert_with(|| String::with_capacity(text.len()));
        out.push_str(&text[copied..at]);
        out.push_str(to);
        copied = at + from.len();
    }
    match undone {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Cow::Owned(out)
        }
    }
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
        assert_eq!(
            undo("worker（pid 27631）is killed by signal：killed"),
            "worker (pid 27631) is killed by signal: killed"
        );
    }

    #[test]
    fn undoing_twice_is_undoing_once() {
        for text in ["&amp;quot;", "&&lt;quot;", "&#3&#39;9;", "\u{2019}&gt;&lt;;", "&lt;&#x27;&#x27;&gt;", "：&lt;，"]
        {
            assert_eq!(undo(&undo(text)), undo(text), "{text}");
        }
    }
}
