//! Markdown to the two things the compiler needs: plain blocks to extract
//! facts from, and sanitised HTML to show.
//!
//! Sanitising is by construction: raw HTML in a write-up is emitted as
//! escaped text, links keep only `http(s):`, `mailto:`, `#` and relative
//! targets, and images become their alt text. No tag from the source survives.

use pulldown_cmark::{CodeBlockKind, CowStr, Event, Options, Parser, Tag, TagEnd};

/// A block of a section, with inline markup flattened to its text. Paragraphs
/// and list items also keep their inline code spans, in order: a command
/// written in backticks is copied as written, without the sentence around it.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Paragraph(String, Vec<String>),
    /// A list item's own text (nested items come as their own blocks).
    ListItem(String, Vec<String>),
    Code {
        lang: String,
        text: String,
    },
    Table {
        header: Vec<String>,
        rows: Vec<Vec<String>>,
    },
}

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut code: Option<(String, String)> = None;
    let mut table: Option<(Vec<String>, Vec<Vec<String>>)> = None;
    let mut row: Vec<String> = Vec::new();
    let mut spans: Vec<String> = Vec::new();
    let mut list_depth_text: Vec<(String, Vec<String>)> = Vec::new();
    for event in Parser::new_ext(markdown, options()) {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info.split_whitespace().next().unwrap_or("").to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                code = Some((lang, String::new()));
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some((lang, body)) = code.take() {
                    out.push(Block::Code { lang, text: body });
                }
            }
            Event::Start(Tag::Table(_)) => table = Some((Vec::new(), Vec::new())),
            Event::End(TagEnd::Table) => {
                if let Some((header, rows)) = table.take() {
                    out.push(Block::Table { header, rows });
                }
            }
            Event::End(TagEnd::TableHead) => {
                if let Some(t) = table.as_mut() {
                    t.0 = std::mem::take(&mut row);
                }
            }
            Event::End(TagEnd::TableRow) => {
                if let Some(t) = table.as_mut() {
                    t.1.push(std::mem::take(&mut row));
                }
            }
            Event::End(TagEnd::TableCell) => row.push(clean(&std::mem::take(&mut text))),
            Event::Start(Tag::Item) => {
                list_depth_text.push((std::mem::take(&mut text), std::mem::take(&mut spans)));
            }
            Event::End(TagEnd::Item) => {
                let item = clean(&std::mem::take(&mut text));
                let item_spans = std::mem::take(&mut spans);
                if !item.is_empty() {
                    out.push(Block::ListItem(item, item_spans));
                }
                (text, spans) = list_depth_text.pop().unwrap_or_default();
            }
            Event::Start(Tag::List(_))
                // A nested list ends the parent item's own text.
                if !list_depth_text.is_empty() => {
                    let item = clean(&std::mem::take(&mut text));
                    let item_spans = std::mem::take(&mut spans);
                    if !item.is_empty() {
                        out.push(Block::ListItem(item, item_spans));
                    }
                }
            Event::End(TagEnd::Paragraph) if list_depth_text.is_empty() && table.is_none() => {
                let paragraph = clean(&std::mem::take(&mut text));
                let paragraph_spans = std::mem::take(&mut spans);
                if !paragraph.is_empty() {
                    out.push(Block::Paragraph(paragraph, paragraph_spans));
                }
            }
            Event::End(TagEnd::Paragraph) => text.push(' '),
            Event::Code(t) if code.is_none() && table.is_none() => {
                spans.push(t.to_string());
                text.push_str(&t);
            }
            Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => match code.as_mut() {
                Some((_, body)) => body.push_str(&t),
                None => text.push_str(&t),
            },
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            _ => {}
        }
    }
    out
}

fn clean(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Sanitised HTML for a markdown fragment.
pub fn html(markdown: &str) -> String {
    let events = Parser::new_ext(markdown, options()).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
            let dest_url = if safe_url(&dest_url) { dest_url } else { CowStr::Borrowed("#") };
            Some(Event::Start(Tag::Link { link_type, dest_url, title, id }))
        }
        Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => None,
        other => Some(other),
    });
    let mut out = String::new();
    pulldown_cmark::html::push_html(&mut out, events);
    out
}

fn safe_url(url: &str) -> bool {
    let lower = url.trim().to_ascii_lowercase();
    match lower.split_once(':') {
        Some((scheme, _)) if !scheme.contains('/') && !scheme.contains('#') && !scheme.contains('?') => {
            matches!(scheme, "http" | "https" | "mailto")
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_html_and_scripts_never_survive() {
        let out =
            html("Hello <script>alert(1)</script> <img src=x onerror=alert(1)>\n\n<div onclick=\"x()\">block</div>\n");
        assert!(!out.contains("<script"), "{out}");
        assert!(!out.contains("<img"), "{out}");
        assert!(!out.contains("<div"), "{out}");
        assert!(out.contains("&lt;script&gt;"), "{out}");
    }

    #[test]
    fn unsafe_link_schemes_are_dropped() {
        let out =
            html("[a](javascript:alert(1)) [b](https://pytorch.org) [c](#/runbooks/x) [d](JavaScript:x) ![i](data:x)");
        assert!(!out.to_lowercase().contains("javascript:"), "{out}");
        assert!(out.contains("href=\"https://pytorch.org\""));
        assert!(out.contains("href=\"#/runbooks/x\""));
        assert!(!out.contains("<img"));
    }

    #[test]
    fn extracts_tables_lists_and_code() {
        let md = "Intro **bold** `code`.\n\n| Knob | Old | New |\n|---|---|---|\n| `batch` | 32 | **16** |\n\n- one\n  - nested\n- two\n\n```bash\nexport X=1\n```\n";
        let b = blocks(md);
        assert_eq!(b[0], Block::Paragraph("Intro bold code.".into(), vec!["code".into()]));
        assert_eq!(
            b[1],
            Block::Table {
                header: vec!["Knob".into(), "Old".into(), "New".into()],
                rows: vec![vec!["batch".into(), "32".into(), "16".into()]]
            }
        );
        assert_eq!(b[2], Block::ListItem("one".into(), vec![]));
        assert_eq!(b[3], Block::ListItem("nested".into(), vec![]));
        assert_eq!(b[4], Block::ListItem("two".into(), vec![]));
        assert_eq!(b[5], Block::Code { lang: "bash".into(), text: "export X=1\n".into() });
    }
}
