//! Which lines of a write-up are inside fenced code blocks, by CommonMark's
//! rule: a fence opens with three or more backticks or tildes, and only a
//! run of the same character at least as long closes it. So a quoted log
//! line that itself starts with three backticks, inside a four-backtick
//! fence, stays code (as pulldown-cmark renders it).

/// Reads lines in order and says, for each, whether it is code.
#[derive(Default)]
pub struct Fences {
    /// The open fence's character and length.
    open: Option<(char, usize)>,
}

impl Fences {
    /// Whether `line` opens, closes or lies inside a fenced block.
    pub fn is_code(&mut self, line: &str) -> bool {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let trimmed = line.trim_start_matches(' ');
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |c| trimmed.chars().take_while(|x| *x == c).count());
        match (self.open, marker) {
            (Some((c, len)), Some(m)) if m == c && run >= len && indent < 4 => {
                if trimmed[run..].trim().is_empty() {
                    self.open = None;
                }
                true
            }
            (Some(_), _) => true,
            (None, Some(m)) if run >= 3 && indent < 4 => {
                // A backtick fence's info string may not hold a backtick.
                if m == '`' && trimmed[run..].contains('`') {
                    return false;
                }
                self.open = Some((m, run));
                true
            }
            (None, _) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Fences;

    #[test]
    fn a_longer_fence_holds_a_shorter_one() {
        let text = "a\n````log\n```not closed\n~~~\n````\nb\n~~~\nc\n```\n~~~~\nd\n``` `x` ```\n";
        let mut fences = Fences::default();
        let code: Vec<bool> = text.lines().map(|l| fences.is_code(l)).collect();
        assert_eq!(code, vec![false, true, true, true, true, false, true, true, true, true, false, false]);
    }
}
