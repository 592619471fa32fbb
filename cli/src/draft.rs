//! `headroom draft [LOG|-] [--title T] [--fix ID]... [--redact-job-ids]`: the
//! first draft of a write-up of a log, redacted, in the content format. The
//! draft goes to stdout; what was redacted (kind and line, never the value)
//! to stderr. Exit 2 when the input cannot be read or an argument is wrong.

use headroom_core::draft::{draft, Options};
use headroom_core::recommend::diagnose;
use headroom_core::redact;
use std::process::ExitCode;

const USAGE: &str = "usage: headroom draft [LOG|-] [--title TITLE] [--fix ID]... [--redact-job-ids]";

pub fn run(args: &[String]) -> ExitCode {
    let mut options = Options { date: today(), ..Options::default() };
    let mut inputs = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--title" | "--fix" => {
                let Some(value) = rest.next() else {
                    eprintln!("headroom draft: {arg} needs a value\n{USAGE}");
                    return ExitCode::from(2);
                };
                if arg == "--title" {
                    options.title = Some(value.clone());
                } else {
                    options.fixes.push(value.clone());
                }
            }
            "--redact-job-ids" => options.redact = redact::Options { job_ids: true },
            "-h" | "--help" => {
                outln!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other if other.starts_with("--") => {
                eprintln!("headroom draft: unknown option {other}\n{USAGE}");
                return ExitCode::from(2);
            }
            input => inputs.push(input),
        }
    }
    if inputs.len() > 1 {
        eprintln!("headroom draft: one log at a time (FILE or -)");
        return ExitCode::from(2);
    }
    let source = inputs.first().copied().unwrap_or("-");
    let text = match crate::diagnose::read_text(source, "draft") {
        Ok(text) => text,
        Err(e) => {
            eprintln!("headroom draft: cannot read {source}: {e}");
            return ExitCode::from(2);
        }
    };
    let runbooks = crate::runbooks();
    let report = diagnose(&text, &runbooks);
    let unknown: Vec<&String> = options.fixes.iter().filter(|id| !report.fixes.iter().any(|f| f.id == *id)).collect();
    if !unknown.is_empty() {
        let offered: Vec<&str> = report.fixes.iter().map(|f| f.id).collect();
        eprintln!(
            "headroom draft: no fix {} for this log; it offers: {}",
            unknown.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "),
            offered.join(", ")
        );
        return ExitCode::from(2);
    }
    let drafted = draft(&report, &runbooks, &options);
    out!("{}", drafted.text);
    if !drafted.redactions.is_empty() {
        let listed: Vec<String> =
            drafted.redactions.iter().map(|r| format!("line {} ({})", r.line, r.kind.label())).collect();
        eprintln!("headroom draft: redacted {} value(s): {}", listed.len(), listed.join(", "));
    }
    eprintln!("headroom draft: fill in every {{{{...}}}}, then `headroom check` the file");
    ExitCode::SUCCESS
}

/// Today's date in UTC, `YYYY-MM-DD`.
fn today() -> String {
    let days =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() / 86_400) as i64;
    civil_date(days)
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `civil_from_days`).
fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn civil_dates() {
        assert_eq!(super::civil_date(0), "1970-01-01");
        assert_eq!(super::civil_date(19_723), "2024-01-01");
        assert_eq!(super::civil_date(19_782), "2024-02-29");
        assert_eq!(super::civil_date(20_487), "2026-02-03");
    }
}
