//! Words for search: lower-case, split on anything but letters, digits and
//! `_`; `num_workers` is indexed whole and as `num` and `workers`; a plural
//! `s` is dropped so `worker` finds `workers`.

/// Calls `emit` with each term of `text` and the byte range of the word it came from.
pub fn for_each_term(text: &str, mut emit: impl FnMut(String, std::ops::Range<usize>)) {
    let mut start = None;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        let word_char = c.is_alphanumeric() || c == '_';
        match (word_char, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                let word = &text[s..i];
                let trimmed = word.trim_matches('_');
                if !trimmed.is_empty() {
                    emit(normalise(trimmed), s..i);
                    if trimmed.contains('_') {
                        for part in trimmed.split('_').filter(|p| !p.is_empty()) {
                            emit(normalise(part), s..i);
                        }
                    }
                }
                start = None;
            }
            _ => {}
        }
    }
}

pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |t, _| out.push(t));
    out
}

/// Lower case and without a plural `s` (but `loss` and short words stay).
pub fn normalise(word: &str) -> String {
    let lower = word.to_lowercase();
    let n = lower.chars().count();
    if n > 3 && lower.ends_with('s') && !lower.ends_with("ss") {
        lower[..lower.len() - 1].to_string()
    } else {
        lower
    }
}

/// The visible text of sanitised HTML (tags dropped, the five entities decoded).
pub fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_and_normalises() {
        assert_eq!(
            terms("Validation workers: num_workers=8!"),
            vec!["validation", "worker", "num_worker", "num", "worker", "8"]
        );
        assert_eq!(terms("Bus error, loss"), vec!["bus", "error", "loss"]);
        assert_eq!(terms("Ünïcode GPUs"), vec!["ünïcode", "gpu"]);
    }

    #[test]
    fn strips_html() {
        assert_eq!(
            strip_tags("<p>a &lt;b&gt; &amp; <code>c</code></p>").split_whitespace().collect::<Vec<_>>(),
            vec!["a", "<b>", "&", "c"]
        );
    }
}
