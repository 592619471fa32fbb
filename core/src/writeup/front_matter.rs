//! The YAML front matter of a write-up: the small subset write-ups use
//! (`key: value`, `key: [a, b]`, and `key:` followed by `- item` lines).
//! Anything else is an error that names its line.

use super::CompileError;

/// One front-matter value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Text(String),
    List(Vec<String>),
}

#[derive(Debug, Default)]
pub struct FrontMatter {
    /// Keys in order, each with the line it was on (1-based, in the file).
    pub entries: Vec<(String, Value, usize)>,
}

impl FrontMatter {
    pub fn text(&self, key: &str) -> Option<(&str, usize)> {
        self.entries.iter().find(|(k, _, _)| k == key).and_then(|(_, v, line)| match v {
            Value::Text(t) => Some((t.as_str(), *line)),
            Value::List(_) => None,
        })
    }

    /// A list value; a single text value counts as a one-item list.
    pub fn list(&self, key: &str) -> Option<(Vec<String>, usize)> {
        self.entries.iter().find(|(k, _, _)| k == key).map(|(_, v, line)| match v {
            Value::List(items) => (items.clone(), *line),
            Value::Text(t) => (split_inline_list(t), *line),
        })
    }
}

fn split_inline_list(text: &str) -> Vec<String> {
    text.split(',').map(unquote).filter(|s| !s.is_empty()).collect()
}

fn unquote(text: &str) -> String {
    let t = text.trim();
    let quoted =
        t.len() >= 2 && ((t.starts_with('"') && t.ends_with('"')) || (t.starts_with('\'') && t.ends_with('\'')));
    if quoted {
        t[1..t.len() - 1].to_string()
    } else {
        t.to_string()
    }
}

/// Splits `text` into front matter and body. Returns the body's first line
/// number (1-based) so later errors can point into the file.
pub fn split(text: &str) -> Result<(FrontMatter, &str, usize), CompileError> {
    let Some(rest) = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n")) else {
        return Ok((FrontMatter::default(), text, 1));
    };
    let mut offset = text.len() - rest.len();
    let mut matter = FrontMatter::default();
    let mut pending_list: Option<(String, Vec<String>, usize)> = None;
    for (index, raw) in rest.split_inclusive('\n').enumerate() {
        let line_no = index + 2;
        offset += raw.len();
        let line = raw.trim_end();
        if line == "---" || line == "..." {
            if let Some((key, items, at)) = pending_list.take() {
                matter.entries.push((key, Value::List(items), at));
            }
            let body = &text[offset..];
            return Ok((matter, body, line_no + 1));
        }
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        if let Some(item) = line.trim_start().strip_prefix("- ") {
            match pending_list.as_mut() {
                Some((_, items, _)) => items.push(unquote(item)),
                None => return Err(CompileError::new(line_no, "list item without a key above it")),
            }
            continue;
        }
        if let Some((key, items, at)) = pending_list.take() {
            matter.entries.push((key, Value::List(items), at));
        }
        let Some((key, value)) = line.split_once(':') else {
            return Err(CompileError::new(line_no, format!("expected `key: value` in front matter, found `{line}`")));
        };
        let key = key.trim().to_string();
        if key.is_empty() || key.contains(' ') {
            return Err(CompileError::new(line_no, format!("bad front-matter key `{key}`")));
        }
        let value = value.trim();
        if value.is_empty() {
            pending_list = Some((key, Vec::new(), line_no));
        } else if let Some(inner) = value.strip_prefix('[') {
            let Some(inner) = inner.strip_suffix(']') else {
                return Err(CompileError::new(line_no, format!("unclosed list in `{key}`")));
            };
            matter.entries.push((key, Value::List(split_inline_list(inner)), line_no));
        } else {
            matter.entries.push((key, Value::Text(unquote(value)), line_no));
        }
    }
    Err(CompileError::new(1, "front matter opened with `---` is never closed"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_obsidian_subset() {
        let text = "---\nproject: ARL RL\ntags: [project/arl-rl, work-log]\ncreated: 2025-10-06\nstack:\n  - pytorch\n  - slurm\n---\n# Title\n";
        let (matter, body, body_line) = split(text).unwrap();
        assert_eq!(matter.text("project"), Some(("ARL RL", 2)));
        assert_eq!(matter.list("tags").unwrap().0, vec!["project/arl-rl", "work-log"]);
        assert_eq!(matter.list("stack").unwrap(), (vec!["pytorch".to_string(), "slurm".to_string()], 5));
        assert_eq!(body, "# Title\n");
        assert_eq!(body_line, 9);
    }

    #[test]
    fn errors_name_the_line() {
        let err = split("---\ntitle: x\nthis line is wrong\n---\n").unwrap_err();
        assert_eq!(err.line, 3);
        let err = split("---\ntitle: x\n").unwrap_err();
        assert!(err.message.contains("never closed"));
        let err = split("---\n- orphan\n---\n").unwrap_err();
        assert_eq!(err.line, 2);
    }

    #[test]
    fn no_front_matter_is_fine() {
        let (matter, body, line) = split("# Just a title\n").unwrap();
        assert!(matter.entries.is_empty());
        assert_eq!((body, line), ("# Just a title\n", 1));
    }
}
