//! Messages broken across lines by a terminal or a web page: "…Resource
//! exhausted: Out \nof memory while trying to allocate…", "Tried to allocate
//! 16.9\n4 GiB". Three general mechanisms, not one rule per log:
//!
//! - every generic needle is also searched for broken at each inner position
//!   ([`broken`]), so the line is found, and a match that spans a break joins
//!   the two lines;
//! - a line that was found is read together with the next one when the break
//!   cuts a figure ([`continues`]), joined without the break ([`join`]);
//! - where the rows show the terminal's width ([`terminal_width`]), a row that
//!   fills it goes on in the next, and the rows before a match that fill it
//!   are the message's start ([`first_row`]); any other needle cut at such a
//!   row's break is looked for across it (`matcher::cut_needle`), the rows
//!   that cannot fill a width ruled out first by their lengths ([`may_be_width`]).
//!
//! Nothing else is safe to join: log records follow each other with nothing
//! between them too ("…6291456 bytes" then "ng30903:3063028:…").

use std::borrow::Cow;

/// At most this many lines continue one message (a 600-character PyTorch
/// message wrapped at 80 columns takes 8).
pub const MAX_CONTINUATION: usize = 10;

/// Narrower than this, a row of the same length as another is a coincidence.
pub const MIN_WIDTH: usize = 60;

/// Rows looked at for a second one of the same width: a message cut into
/// three or more rows fills the next one too. Every matched line asks, so few.
pub const WIDTH_WINDOW: usize = 3;

/// The terminal's width, where `text` (from a line start; its first line ends
/// at `first_end`) shows one: the first line is at least MIN_WIDTH characters,
/// another of the next WIDTH_WINDOW lines has exactly as many (or the
/// first has the default terminal's 80), and none has more. A terminal cuts
/// every row of a long message at that column, so a row that fills it goes on
/// in the next. Table rows and rules (`| … |`, `=====`) fill their width too,
/// and are never a wrap.
pub fn terminal_width(text: &str, first_end: usize) -> Option<usize> {
    let first = text[..first_end].strip_suffix('\r').unwrap_or(&text[..first_end]);
    if first.len() < MIN_WIDTH {
        return None;
    }
    let width = columns(first);
    if width < MIN_WIDTH {
        return None;
    }
    let after = &text[first_end..];
    let breaks = memchr::memchr_iter(b'\n', after.as_bytes()).chain(std::iter::once(after.len()));
    let rows = breaks
        .scan(None::<usize>, |from, at| {
            let row = from.map(|f| &after[f..at]);
            *from = Some(at + 1);
            Some(row)
        })
        .flatten()
        .take(WIDTH_WINDOW)
        .map(|r| r.strip_suffix('\r').unwrap_or(r));
    let mut again = false;
    // A row of fewer bytes than the width has fewer columns too: only longer ones are counted.
    for row in rows.filter(|r| r.len() >= width) {
        match columns(row) {
            n if n > width => return None,
            // Records of one kind ("… Loaded 104000000 lines") share a length and an opening.
            n if n == width && !begin_alike(first, row) && !is_table_row(row) => again = true,
            _ => {}
        }
    }
    ((again || width == DEFAULT_WIDTH) && !is_table_row(first)).then_some(width)
}

/// A cheap first look, before [`terminal_width`]: whether `row` could fill a
/// terminal's width: the default width, or one of the rows `after` it as
/// wide. A row redrawn with `\r` (a progress bar) ends its records there,
/// and is no terminal's row. Most rows are ruled out by their lengths alone.
pub fn may_be_width<'a>(row: &str, after: impl IntoIterator<Item = &'a str>) -> bool {
    let row = row.strip_suffix('\r').unwrap_or(row);
    // Fewer bytes than the width are fewer columns too; a record opening as this row does is no row of it.
    let mut wide = after.into_iter().filter(|next| next.len() >= MIN_WIDTH && !begin_alike(row, next)).peekable();
    if wide.peek().is_none() && row.len() < DEFAULT_WIDTH {
        return false;
    }
    if memchr::memchr(b'\r', row.as_bytes()).is_some() {
        return false;
    }
    let width = columns(row);
    width >= MIN_WIDTH && (width == DEFAULT_WIDTH || wide.any(|next| next.len() >= width && columns(next) == width))
}

/// The width a terminal opens with: a message's last two rows show no other.
const DEFAULT_WIDTH: usize = 80;

/// Where the message on the row starting at `row` starts: the first of the
/// rows before it that fill the terminal's width, back to `floor` (what was
/// read already) and at most MAX_CONTINUATION rows.
pub fn first_row(text: &str, row: usize, floor: usize) -> usize {
    let mut start = row;
    for _ in 0..MAX_CONTINUATION {
        if start == 0 || start <= floor {
            break;
        }
        let end = start - 1; // the previous row's line break
        let prev = memchr::memrchr(b'\n', &text.as_bytes()[..end]).map_or(0, |i| i + 1);
        if prev < floor {
            break;
        }
        let row_end = memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |i| start + i);
        let (row, next) = (&text[prev..end], &text[start..row_end]);
        if !may_fill(row, next) {
            break;
        }
        let Some(width) = terminal_width(&text[prev..], end - prev) else { break };
        if !fills(row, width, next) {
            break;
        }
        start = prev;
    }
    start
}

/// What any cut row shows, cheap to ask before the width is worked out: text
/// up to its end (or a word and the one space after it, where the cut fell
/// between two words), at least MIN_WIDTH bytes, and a next row that is no
/// new record.
pub fn may_fill(line: &str, next: &str) -> bool {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let text = line.strip_suffix(' ').unwrap_or(line);
    line.len() >= MIN_WIDTH && !text.ends_with(char::is_whitespace) && !next.is_empty() && !begin_alike(line, next)
}

/// Whether `line` is a row the terminal cut at `width` that goes on in
/// `next`: text up to the edge (a row padded with spaces to the edge, a tmux
/// copy, ended before it), and `next` is not another record opening as it does.
pub fn fills(line: &str, width: usize, next: &str) -> bool {
    may_fill(line, next) && columns(line) == width
}

/// Two rows that open with the same eight characters (a timestamp's date, a
/// logger's name, a rank prefix) are two records, not one cut in two.
fn begin_alike(row: &str, next: &str) -> bool {
    const OPENING: usize = 8;
    let (a, b) = (row.trim_start(), next.trim_start());
    a.len() >= OPENING && b.len() >= OPENING && a.as_bytes()[..OPENING] == b.as_bytes()[..OPENING]
}

/// Columns a line takes on a terminal: one a character (wide CJK characters
/// make a row that is full before its width, and is read as not), none for
/// a colour code.
pub fn columns(line: &str) -> usize {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if memchr::memchr(0x1b, line.as_bytes()).is_none() {
        return line.chars().count();
    }
    let mut count = 0;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.clone().next() == Some('[') {
                chars.by_ref().find(char::is_ascii_alphabetic);
            }
            continue;
        }
        count += 1;
    }
    count
}

/// `| 0  N/A  N/A  1234  C  python  10240MiB |`, `+-----+`, `=====`: rows of a
/// table or a rule, the same width by design.
fn is_table_row(line: &str) -> bool {
    let t = line.trim();
    let framed = (t.starts_with('|') && t.ends_with('|')) || (t.starts_with('+') && t.ends_with('+'));
    // Letters and digits of any script count as text; a rule or a bar is mostly neither.
    let rule = t.bytes().filter(u8::is_ascii_alphanumeric).count() * 4 < t.chars().count()
        && t.chars().filter(|c| c.is_alphanumeric()).count() * 4 < t.chars().count();
    framed || rule
}

/// `needle` with a line break at every inner character boundary: where a
/// fixed-width wrap can cut it. (A `\r\n` break is not searched for: pasted
/// text reaches the page with `\n` only.)
pub fn broken(needle: &str) -> impl Iterator<Item = String> + '_ {
    needle.char_indices().skip(1).map(move |(i, _)| {
        let (head, tail) = needle.split_at(i);
        format!("{head}\n{tail}")
    })
}

/// Whether the break between `line` and `next` cuts a figure: a number cut
/// in two ("16.9|4"), a number pushed to the next row ("allocate |16.94"),
/// a unit pushed to the next row by a word wrap ("31.75|GiB total"), or a
/// unit cut after its number ("16.94 Gi|B").
pub fn continues(line: &str, next: &str) -> bool {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let (Some(last), Some(first)) = (line.chars().next_back(), next.chars().next()) else { return false };
    if first.is_ascii_digit() && (last.is_ascii_digit() || last == '.' || last == ' ') {
        return starts_with_size(next);
    }
    if last.is_ascii_digit() && first.is_ascii_alphabetic() {
        return starts_with_unit_word(next);
    }
    // "16.94 Gi" + "B": letters after a number that, with the next row's letters, make a unit.
    let letters = line.len() - line.trim_end_matches(|c: char| c.is_ascii_alphabetic()).len();
    let before = line[..line.len() - letters].trim_end_matches(' ');
    if letters == 0 || letters > 4 || !before.ends_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let rest: String = next.chars().take_while(char::is_ascii_alphabetic).collect();
    if rest.is_empty() {
        return false;
    }
    let unit = format!("{}{rest}", &line[line.len() - letters..]);
    UNITS.iter().any(|u| u.eq_ignore_ascii_case(&unit))
}

/// `GiB total capacity`: a unit word at the start of `text`.
fn starts_with_unit_word(text: &str) -> bool {
    let unit: String = text.chars().take_while(char::is_ascii_alphabetic).collect();
    let after = text[unit.len()..].chars().next();
    UNITS.iter().any(|u| u.eq_ignore_ascii_case(&unit))
        && after.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
}

/// `94 GiB`, `52 bytes`, `50496B)`: a number and a unit at the start of `text`.
fn starts_with_size(text: &str) -> bool {
    let number = text.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let unit: String = number.trim_start_matches(' ').chars().take_while(char::is_ascii_alphabetic).collect();
    UNITS.iter().any(|u| u.eq_ignore_ascii_case(&unit))
}

const UNITS: [&str; 10] = ["B", "KB", "MB", "GB", "TB", "KiB", "MiB", "GiB", "TiB", "bytes"];

/// The physical lines of `logical` joined as they were before the wrap: line
/// breaks removed, and a space put back where a word wrap took it from
/// between a number and its unit ("31.75|GiB").
pub fn join(logical: &str) -> Cow<'_, str> {
    if !logical.contains('\n') {
        return Cow::Borrowed(logical.strip_suffix('\r').unwrap_or(logical));
    }
    let mut out = String::with_capacity(logical.len() + 8);
    for part in logical.split('\n') {
        let part = part.strip_suffix('\r').unwrap_or(part);
        if out.ends_with(|c: char| c.is_ascii_digit()) && starts_with_unit_word(part) {
            out.push(' ');
        }
        out.push_str(part);
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needles_broken_at_every_position() {
        let variants: Vec<String> = broken("OOM").collect();
        assert_eq!(variants, ["O\nOM", "OO\nM"]);
        assert_eq!(broken("Out of memory").filter(|v| v == "Out \nof memory").count(), 1);
        assert_eq!(broken("é").count(), 0, "no break inside a character");
    }

    #[test]
    fn a_cut_figure_continues_into_the_next_row() {
        let cut = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 16.9";
        assert!(continues(cut, "4 GiB. GPU 0 has a total capacity of 79.18 GiB"));
        assert!(continues("Tried to allocate 16.94 Gi", "B. GPU 0"));
        assert!(continues("Tried to allocate ", "16.94 GiB. GPU 0"));
        assert!(continues("Tried to allocate 16.", "94 GiB."));
        assert_eq!(
            join(&format!("{cut}\n4 GiB.")),
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 16.94 GiB."
        );
        assert_eq!(join("a\r\nb\r"), "ab");
    }

    #[test]
    fn rows_cut_at_the_terminals_width() {
        // pipedream28, cut at 80 columns: the row fills the width and goes on.
        let log = "ERROR: Unexpected bus error encountered in worker. This might be caused by insuf\nficient shared memory (shm).\nnext";
        let first_end = log.find('\n').unwrap();
        assert_eq!(terminal_width(log, first_end), Some(80));
        assert!(fills(&log[..first_end], 80, "ficient shared memory (shm)."));
        // A row padded with spaces to the edge (algoperf137's tmux copy) ended before it.
        assert!(!fills(&format!("{}{}", "x".repeat(70), " ".repeat(10)), 80, "next"));
        // Records that open alike are records, though one fills the width (with its colour codes not counted).
        let record =
            "\u{1b}[31mtrainer_interface.cc(137) LOG(INFO) Loaded 104000000 lines, and then more text!!\u{1b}[0m";
        assert_eq!(columns(record), 80);
        assert!(!fills(record, 80, "\u{1b}[31mtrainer_interface.cc(137) LOG(INFO) Loaded 105000000 lines"));
        let records = format!("{record}\n{record}\nKilled");
        assert_eq!(terminal_width(&records, record.len()), Some(80), "the default width");
        let records = format!("{}\n{}\nKilled", "a".repeat(100), "a".repeat(100));
        assert_eq!(terminal_width(&records, 100), None, "a second record is no second row");
        // Another width needs a second row of it; a longer row rules it out.
        let two = format!("{}\n{}\n{}", "a".repeat(100), "b".repeat(40), "c".repeat(100));
        assert_eq!(terminal_width(&two, 100), Some(100));
        let longer = format!("{}\n{}\n{}", "a".repeat(100), "b".repeat(100), "c".repeat(120));
        assert_eq!(terminal_width(&longer, 100), None);
        assert_eq!(terminal_width(&format!("{}\nb", "a".repeat(100)), 100), None, "one row of 100 is no width");
        // Table rows and rules fill their width by design.
        let table = format!("|{}|\n|{}|", " 0  python  10240MiB ".repeat(3), " 1  python   2048MiB ".repeat(3));
        assert_eq!(terminal_width(&table, table.find('\n').unwrap()), None);
        // The rows before a match that fill the width are the message's start.
        let rows = format!("{}\n{}\ntail\n", "a".repeat(80), "b".repeat(80));
        assert_eq!(first_row(&rows, 81, 0), 0);
        assert_eq!(first_row(&rows, 81, 81), 81, "not back past what was read");
    }

    #[test]
    fn a_word_wrap_between_a_number_and_its_unit() {
        // alpacarlhf3: "(GPU 1; 31.75" | "GiB total capacity; 29.88 GiB already allocated; ..."
        assert!(continues("Tried to allocate 16.00 MiB (GPU 1; 31.75", "GiB total capacity; 29.88 GiB"));
        assert_eq!(join("(GPU 1; 31.75\nGiB total capacity"), "(GPU 1; 31.75 GiB total capacity");
        assert!(!continues("GPU 1", "Giant step"), "a word that only starts like a unit");
        assert!(!continues("rank 1", "bytes_sent=3"), "a unit glued to more of its word");
        assert_eq!(join("0x1f\nbcd"), "0x1fbcd", "no space where no unit follows");
    }

    #[test]
    fn records_of_their_own_do_not_continue() {
        // Real neighbours from NCCL and tqdm logs: each line is a record of its own.
        assert!(!continues(
            "ng30903:3063028:3066152 [3] include/alloc.h:185 NCCL WARN Failed to CUDA calloc 6291456 bytes",
            "ng30903:3063028:3066152 [3] NCCL INFO transport/p2p.cc:204 -> 1"
        ));
        assert!(!continues("100%|██████████| 3000001/3000001 [03:33<00:00, 14061.26it/s]", "Killed"));
        assert!(
            !continues("Including non-PyTo", "rch memory, this process has"),
            "a cut word is found by broken needles"
        );
        assert!(!continues("step 12 of 40", "Killed"));
        assert!(!continues("used 12 GB", "But then"));
        assert!(!continues("", "12"));
        assert!(!continues("step 12 ", "2024-05-01 12:00:01 INFO"), "a timestamp is not a cut figure");
        assert!(!continues("Detected 1", "2024-05-01"));
    }
}
