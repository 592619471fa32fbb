//! Making one matched line readable: the `\r`-separated segment a progress
//! bar left (tqdm redraws with carriage returns), without ANSI colour codes,
//! cut to a length a page can show.

const MAX_CHARS: usize = 400;

/// The `\r`-delimited part of `text[line_start..line_end]` that holds `at`.
pub fn segment(text: &str, line_start: usize, line_end: usize, at: usize) -> &str {
    let line = &text[line_start..line_end];
    let offset = at - line_start;
    let start = line[..offset].rfind('\r').map_or(0, |i| i + 1);
    let end = line[offset..].find('\r').map_or(line.len(), |i| offset + i);
    &line[start..end]
}

/// Without ANSI escape sequences and trailing space, at most MAX_CHARS characters.
pub fn clean(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len().min(MAX_CHARS * 4));
    let mut chars = segment.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        if !c.is_control() || c == '\t' {
            out.push(c);
        }
    }
    let trimmed = out.trim_end();
    match trimmed.char_indices().nth(MAX_CHARS) {
        Some((cut, _)) => format!("{}…", &trimmed[..cut]),
        None => trimmed.to_string(),
    }
}

/// A bare `Killed` (what a shell prints when its child gets SIGKILL), or a
/// shell job report such as `line 28:  8156 Killed   python3 main.py`.
pub fn is_bare_killed(segment: &str) -> bool {
    let cleaned = clean(segment);
    let t = cleaned.trim();
    if t == "Killed" {
        return true;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    words.windows(2).any(|w| w[1] == "Killed" && w[0].chars().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carriage_returns_and_colours() {
        let text = "epoch 1  10%\repoch 1  20%\r\u{1b}[31mRuntimeError: CUDA out of memory\u{1b}[0m\rtail";
        let at = text.find("CUDA").unwrap();
        let seg = segment(text, 0, text.len(), at);
        assert_eq!(clean(seg), "RuntimeError: CUDA out of memory");
    }

    #[test]
    fn bare_killed_only_in_shell_form() {
        assert!(is_bare_killed("Killed"));
        assert!(is_bare_killed(
            "/var/spool/slurmd/job00191/slurm_script: line 28:  8156 Killed                  python3 main.py"
        ));
        assert!(!is_bare_killed("Some of the step tasks have been OOM Killed."));
        assert!(!is_bare_killed("Killed process 1234 (python)"));
    }

    #[test]
    fn long_lines_are_cut_on_a_character_boundary() {
        let long = "é".repeat(1000);
        assert_eq!(clean(&long).chars().count(), MAX_CHARS + 1);
    }
}
