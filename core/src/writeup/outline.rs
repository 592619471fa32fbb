//! Splits a write-up body into its headings and the text under each, and
//! says what each heading means. Seeds word the same idea many ways ("Root
//! Cause", "Why OOM Occurred"; "Solution", "Changes Made"; "Lesson Learned",
//! "Key Learnings"), so headings are matched by the words in them.

/// A heading and the markdown under it, up to the next heading of any level.
#[derive(Clone, Debug)]
pub struct RawSection {
    pub level: usize,
    pub heading: String,
    /// 1-based line of the heading in the file.
    pub line: usize,
    pub body: String,
}

/// What a section is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SectionRole {
    Summary,
    Symptoms,
    RootCause,
    Fixes,
    /// Expected effect of the fixes ("Memory Savings", "Expected Memory Usage").
    Effect,
    TradeOffs,
    Verification,
    Lessons,
    Related,
    Other,
}

/// The document's title (first level-1 heading, with its line) and its sections.
pub fn split(body: &str, first_line: usize) -> (Option<(String, usize)>, Vec<RawSection>) {
    let mut title = None;
    let mut sections: Vec<RawSection> = Vec::new();
    let mut preamble = RawSection { level: 0, heading: String::new(), line: first_line, body: String::new() };
    let mut fences = super::fence::Fences::default();
    for (index, line) in body.lines().enumerate() {
        let line_no = first_line + index;
        let heading = if fences.is_code(line) { None } else { heading(line) };
        if let Some((level, text)) = heading {
            if level == 1 && title.is_none() {
                title = Some((text, line_no));
                continue;
            }
            sections.push(RawSection { level, heading: text, line: line_no, body: String::new() });
            continue;
        }
        let target = sections.last_mut().unwrap_or(&mut preamble);
        target.body.push_str(line);
        target.body.push('\n');
    }
    if !preamble.body.trim().is_empty() {
        sections.insert(0, preamble);
    }
    (title, sections)
}

/// `## Heading` -> (2, "Heading"); not a heading -> None.
fn heading(line: &str) -> Option<(usize, String)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = &line[level..];
    if !rest.is_empty() && !rest.starts_with(' ') {
        return None;
    }
    let text = rest.trim().trim_end_matches('#').trim().replace("**", "").replace('`', "");
    Some((level, text))
}

/// Words of a heading without emoji, numbering or punctuation: "🔧 2. Root Cause!" -> "root cause".
pub fn normalise(heading: &str) -> String {
    let lowered: String = heading
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '\'' { c.to_ascii_lowercase() } else { ' ' })
        .collect();
    lowered.split_whitespace().skip_while(|w| w.chars().all(|c| c.is_ascii_digit())).collect::<Vec<_>>().join(" ")
}

/// Keywords match whole words (`effect` is not `effective`); a keyword ending
/// in `*` matches word prefixes (`verif*`: verify, verification); several
/// words match as a phrase.
fn mentions(heading: &str, keyword: &str) -> bool {
    if keyword.contains(' ') {
        let padded = format!(" {heading} ");
        return match keyword.strip_suffix('*') {
            Some(prefix) => padded.contains(&format!(" {prefix}")),
            None => padded.contains(&format!(" {keyword} ")),
        };
    }
    heading.split(' ').any(|word| match keyword.strip_suffix('*') {
        Some(prefix) => word.starts_with(prefix),
        None => word == keyword || word.strip_suffix('s') == Some(keyword),
    })
}

pub fn role(heading: &str) -> SectionRole {
    let h = normalise(heading);
    let has = |words: &[&str]| words.iter().any(|w| mentions(&h, w));
    if has(&["lesson*", "learning*", "takeaway*", "what we learned"]) {
        SectionRole::Lessons
    } else if has(&[
        "trade-off*",
        "tradeoff*",
        "trade off*",
        "performance impact",
        "performance consideration*",
        "cost",
    ]) {
        SectionRole::TradeOffs
    } else if has(&["verif*", "testing", "test", "how to test", "monitor*", "how to check"]) {
        SectionRole::Verification
    } else if has(&["root cause", "why oom*", "cause*", "why it*", "why the*"]) {
        SectionRole::RootCause
    } else if has(&["expected", "saving*", "impact", "effect", "outcome"]) {
        SectionRole::Effect
    } else if has(&[
        "solution*",
        "fix*",
        "changes made",
        "change*",
        "option*",
        "remediation",
        "workaround*",
        "if still oom",
        "mitigation*",
        "implementation",
    ]) {
        SectionRole::Fixes
    } else if has(&["symptom*", "problem*", "evidence", "what happened", "error*", "signature*", "timeline"]) {
        SectionRole::Symptoms
    } else if has(&["summary", "overview", "tl dr", "tldr"]) {
        SectionRole::Summary
    } else if has(&["related", "see also", "references"]) {
        SectionRole::Related
    } else {
        SectionRole::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_the_seed_headings() {
        assert_eq!(role("Root Cause"), SectionRole::RootCause);
        assert_eq!(role("Why OOM Occurred"), SectionRole::RootCause);
        assert_eq!(role("Solution Options"), SectionRole::Fixes);
        assert_eq!(role("Changes Made"), SectionRole::Fixes);
        assert_eq!(role("Lesson Learned"), SectionRole::Lessons);
        assert_eq!(role("💡 Key Learnings"), SectionRole::Lessons);
        assert_eq!(role("Verification Steps"), SectionRole::Verification);
        assert_eq!(role("Trade-offs"), SectionRole::TradeOffs);
        assert_eq!(role("Memory Savings"), SectionRole::Effect);
        assert_eq!(role("Performance Impact"), SectionRole::TradeOffs);
        assert_eq!(role("Problem Summary"), SectionRole::Symptoms);
        assert_eq!(role("Timeline of Events"), SectionRole::Symptoms);
        assert_eq!(role("📈 Next Steps (Post-Training)"), SectionRole::Other);
        assert_eq!(role("Option 3: Gradient Accumulation (Keep Large Effective Batch Size)"), SectionRole::Fixes);
        assert_eq!(role("Expected Memory Usage"), SectionRole::Effect);
    }

    #[test]
    fn ignores_hashes_inside_code_fences() {
        let body = "# Title\n## Fix\n```bash\n#SBATCH --mem=400GB\n# comment\n```\n## Lessons\n- one\n";
        let (title, sections) = split(body, 1);
        assert_eq!(title, Some(("Title".to_string(), 1)));
        assert_eq!(sections.len(), 2);
        assert!(sections[0].body.contains("#SBATCH --mem=400GB"));
        assert_eq!(sections[1].line, 7);
    }
}
