//! Redaction of what a log says about people and machines before any of it
//! is shown in a write-up or leaves the tab: user names in home paths and
//! prompts, host and node names, IP addresses, e-mail addresses, API tokens
//! and keys, and (only when asked) job ids.
//!
//! Each distinct value gets its own marker (`<user>`, `<user-2>`, `<host>`,
//! `<secret>`), so a redacted log still reads consistently, and every
//! replacement is listed with its kind and line so it can be undone one by
//! one. Figures and settings are never touched: a redacted log diagnoses the
//! same (tested on every real log of the corpus).

use crate::diagnose::Phase;
use crate::memory::{MemoryKind, Stack};
use serde::{Deserialize, Serialize};

/// What was redacted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// API tokens and keys, long hex or base64 secrets, passwords.
    Secret,
    Email,
    Ip,
    /// Host and node names.
    Host,
    /// User names, in home directories and `user@host` prompts.
    User,
    /// Scheduler job ids (only with [`Options::job_ids`]).
    JobId,
}

impl Kind {
    pub fn label(self) -> &'static str {
        match self {
            Kind::Secret => "token or key",
            Kind::Email => "e-mail address",
            Kind::Ip => "IP address",
            Kind::Host => "host name",
            Kind::User => "user name",
            Kind::JobId => "job id",
        }
    }

    /// The word in its marker: `<user>`.
    fn marker(self) -> &'static str {
        match self {
            Kind::Secret => "secret",
            Kind::Email => "email",
            Kind::Ip => "ip",
            Kind::Host => "host",
            Kind::User => "user",
            Kind::JobId => "job",
        }
    }
}

/// One replacement, with what it replaced so it can be undone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Redaction {
    pub kind: Kind,
    /// 1-based line in the redacted text.
    pub line: usize,
    /// Byte offset of the replacement in that line (of the text as redacted).
    pub column: usize,
    pub original: String,
    pub replacement: String,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Also replace scheduler job ids (`StepId=273202.0`, `slurm-273202.out`).
    pub job_ids: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redacted {
    pub text: String,
    /// In text order.
    pub redactions: Vec<Redaction>,
}

/// A found value: `line[start..end]` is of `kind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span {
    start: usize,
    end: usize,
    kind: Kind,
}

/// Names too common to say who someone is; redacted in a path, not searched for elsewhere.
const GENERIC_NAMES: [&str; 26] = [
    "node",
    "host",
    "user",
    "users",
    "ubuntu",
    "root",
    "admin",
    "developer",
    "pc",
    "paperspace",
    "ec2-user",
    "jovyan",
    "runner",
    "home",
    "shared",
    "data",
    "work",
    "tmp",
    "nobody",
    "guest",
    "centos",
    "debian",
    "vscode",
    "app",
    "workspace",
    "localhost",
];

/// Redacts `text` line by line; line breaks are kept, so line numbers stay valid.
pub fn redact(text: &str, options: Options) -> Redacted {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut spans: Vec<Vec<Span>> = lines.iter().map(|line| find(line, options)).collect();
    // A name learnt in one place (a home path) is redacted wherever it stands as a word.
    let mut learnt: Vec<(String, Kind)> = Vec::new();
    for (line, found) in lines.iter().zip(&spans) {
        for s in found.iter().filter(|s| matches!(s.kind, Kind::User | Kind::Host)) {
            let value = &line[s.start..s.end];
            let lower = value.to_ascii_lowercase();
            // A tool's, a memory's or a phase's name (`/home/pytorch/`, a container's user,
            // `alice@model`) is the draft's own vocabulary too: its title, slug and stack
            // would lose their words ("during the <host> loading").
            let phase_word = |p: &Phase| {
                p.label().split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w.eq_ignore_ascii_case(&lower))
            };
            let generic = GENERIC_NAMES.contains(&lower.as_str())
                || Stack::ALL.iter().any(|s| s.as_str() == lower)
                || MemoryKind::ALL.iter().any(|m| m.as_str() == lower)
                || Phase::ALL.iter().any(phase_word);
            if value.len() >= 3 && !generic && !learnt.iter().any(|(v, _)| v == value) {
                learnt.push((value.to_string(), s.kind));
            }
        }
    }
    for (line, found) in lines.iter().zip(spans.iter_mut()) {
        for (value, kind) in &learnt {
            for at in whole_words(line, value) {
                found.push(Span { start: at, end: at + value.len(), kind: *kind });
            }
        }
        settle(found);
    }
    let mut distinct: Vec<(Kind, String)> = Vec::new();
    let mut out = String::with_capacity(text.len());
    let mut redactions = Vec::new();
    for (index, (line, found)) in lines.iter().zip(&spans).enumerate() {
        if index > 0 {
            out.push('\n');
        }
        let line_start = out.len();
        let mut from = 0;
        for s in found {
            let original = &line[s.start..s.end];
            let n = match distinct.iter().filter(|(k, _)| *k == s.kind).position(|(_, v)| v == original) {
                Some(n) => n,
                None => {
                    distinct.push((s.kind, original.to_string()));
                    distinct.iter().filter(|(k, _)| *k == s.kind).count() - 1
                }
            };
            let replacement = match n {
                0 => format!("<{}>", s.kind.marker()),
                n => format!("<{}-{}>", s.kind.marker(), n + 1),
            };
            out.push_str(&line[from..s.start]);
            let column = out.len() - line_start;
            out.push_str(&replacement);
            from = s.end;
            let original = original.to_string();
            redactions.push(Redaction { kind: s.kind, line: index + 1, column, original, replacement });
        }
        out.push_str(&line[from..]);
    }
    Redacted { text: out, redactions }
}

/// Puts one redaction back: where it was made if its marker is still there,
/// else the first of its markers on its line or the nearest line holding one
/// (the text may have been edited since). None when the marker is gone.
pub fn undo(text: &str, redaction: &Redaction) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let home = redaction.line.saturating_sub(1).min(lines.len().saturating_sub(1));
    let (at, marker) = (redaction.column, redaction.replacement.as_str());
    if lines.get(home).is_some_and(|l| l.get(at..at + marker.len()) == Some(marker)) {
        let line = lines[home];
        let restored = format!("{}{}{}", &line[..at], redaction.original, &line[at + marker.len()..]);
        let mut out = lines.clone();
        out[home] = &restored;
        return Some(out.join("\n"));
    }
    let nearest = (0..lines.len())
        .flat_map(|d| [home.checked_sub(d), Some(home + d).filter(|_| d > 0)])
        .flatten()
        .filter(|&i| i < lines.len())
        .find(|&i| lines[i].contains(&redaction.replacement))?;
    let restored = lines[nearest].replacen(&redaction.replacement, &redaction.original, 1);
    let mut out: Vec<&str> = lines;
    out[nearest] = &restored;
    Some(out.join("\n"))
}

/// Sorts spans and drops those overlapping an earlier (or, at the same start, longer) one.
fn settle(spans: &mut Vec<Span>) {
    spans.sort_by_key(|s| (s.start, std::cmp::Reverse(s.end), s.kind));
    let mut end = 0;
    spans.retain(|s| {
        let keep = s.start >= end;
        if keep {
            end = s.end;
        }
        keep
    });
}

/// Everything to redact on one line.
fn find(line: &str, options: Options) -> Vec<Span> {
    let mut spans = Vec::new();
    keyed_values(line, &mut spans);
    home_paths(line, &mut spans);
    for (start, word) in words(line) {
        word_rules(line, start, word, &mut spans);
    }
    if options.job_ids {
        job_ids(line, &mut spans);
    }
    spans
}

/// Words between spaces and brackets or quotes, with their offsets.
fn words(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let is_break = |c: char| c.is_whitespace() || "\"'`()[]{}<>,;|".contains(c);
    let mut from = 0;
    std::iter::from_fn(move || {
        let rest = line.get(from..)?;
        let skip = rest.find(|c: char| !is_break(c))?;
        let start = from + skip;
        let len = line[start..].find(is_break).unwrap_or(line.len() - start);
        from = start + len;
        Some((start, &line[start..start + len]))
    })
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')
}

/// Where the run of `inside` characters that ends `text` starts.
fn start_of_run(text: &str, inside: impl Fn(char) -> bool) -> usize {
    text.char_indices().rev().find(|(_, c)| !inside(*c)).map_or(0, |(i, c)| i + c.len_utf8())
}

/// Offsets where `word` stands whole: not inside a longer name.
fn whole_words<'a>(line: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    line.match_indices(word).map(|(at, _)| at).filter(move |&at| {
        let before = line[..at].chars().next_back();
        let after = line[at + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// `/home/alice/...`, `/Users/alice`, `C:\Users\alice`, `/scratch/alice`.
fn home_paths(line: &str, spans: &mut Vec<Span>) {
    for marker in ["/home/", "/Users/", "\\Users\\", "/users/", "\\users\\", "/scratch/", "\\\\Users\\\\"] {
        for (at, _) in line.match_indices(marker) {
            let start = at + marker.len();
            let len = line[start..].find(|c: char| !is_name_char(c)).unwrap_or(line.len() - start);
            let name = &line[start..start + len];
            if name.chars().any(|c| c.is_ascii_alphanumeric()) {
                spans.push(Span { start, end: start + len, kind: Kind::User });
            }
        }
    }
}

/// Keys whose value is a host name.
const HOST_KEYS: [&str; 11] = [
    "hostname",
    "host",
    "nodelist",
    "nodename",
    "node",
    "batchhost",
    "master_addr",
    "master-addr",
    "server",
    "allocnode",
    "node_name",
];

/// Keys whose value is a secret (the key's last word).
const SECRET_KEYS: [&str; 12] = [
    "token",
    "secret",
    "password",
    "passwd",
    "api_key",
    "apikey",
    "api-key",
    "access_key",
    "access_key_id",
    "secret_key",
    "credentials",
    "auth",
];

/// `key=value`, `key: value`, `"key": "value"`: host names and secrets by their key.
fn keyed_values(line: &str, spans: &mut Vec<Span>) {
    let bytes = line.as_bytes();
    for (sep_at, _) in line.match_indices([':', '=']) {
        let head = line[..sep_at].trim_end_matches([' ', '\t', '"', '\'']);
        let key_start = start_of_run(head, |c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let key = head[key_start..].trim_start_matches('-').to_ascii_lowercase();
        if key.is_empty() {
            continue;
        }
        let value_start = sep_at
            + 1
            + line[sep_at + 1..]
                .find(|c: char| !matches!(c, ' ' | '\t' | '"' | '\''))
                .unwrap_or(line.len() - sep_at - 1);
        // `x == y` and `a:b:c` (times, ports) are not keyed values.
        if bytes.get(sep_at + 1) == Some(&b'=') || value_start >= line.len() {
            continue;
        }
        // TensorFlow's `[[Node: scope/op = ...]]` names a graph node, not a machine.
        let graph_node = line[..key_start].ends_with("[[");
        if HOST_KEYS.contains(&key.as_str()) && !graph_node {
            // Only a node list has ranges: `NodeList=gpu[01-04],cpu7`.
            let list = key == "nodelist";
            let len = line[value_start..]
                .find(|c: char| !(is_name_char(c) || (list && matches!(c, '[' | ']' | ','))))
                .unwrap_or(line.len() - value_start);
            let value = line[value_start..value_start + len].trim_end_matches(['.', ',', '-']);
            // `host: alice@node7` is a user at a host (the `@` rule reads it);
            // `node: scope/op` a path in a graph.
            let user_at = line[value_start + len..].starts_with(['@', '/']);
            // `on host: CUDA_ERROR_OUT_OF_MEMORY` is an error code: host names have no `_`.
            let constant = value.contains('_') && !value.chars().any(|c| c.is_ascii_lowercase());
            let named = !user_at && !constant && value.chars().any(|c| c.is_ascii_alphabetic()) && value.len() >= 2;
            if named && !GENERIC_NAMES.contains(&value.to_ascii_lowercase().as_str()) && !is_ipv4(value) {
                spans.push(Span { start: value_start, end: value_start + value.len(), kind: Kind::Host });
            }
        } else if SECRET_KEYS
            .iter()
            .any(|k| key == *k || key.ends_with(&format!("_{k}")) || key.ends_with(&format!("-{k}")))
        {
            let len = line[value_start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || "_-./+=:".contains(c)))
                .unwrap_or(line.len() - value_start);
            let value = &line[value_start..value_start + len];
            let password = key.ends_with("password") || key.ends_with("passwd");
            if secret_like(value) || (password && !value.is_empty()) {
                spans.push(Span { start: value_start, end: value_start + len, kind: Kind::Secret });
            }
        }
    }
}

/// A value that could be a credential: long enough, not a plain number or word.
fn secret_like(value: &str) -> bool {
    let letters = value.chars().any(|c| c.is_ascii_alphabetic());
    let digits = value.chars().any(|c| c.is_ascii_digit());
    (value.len() >= 8 && letters && digits) || (value.len() >= 20 && letters)
}

/// Rules that look at one word at a time.
fn word_rules(line: &str, start: usize, word: &str, spans: &mut Vec<Span>) {
    prefixed_secrets(start, word, spans);
    if let Some(at) = word.find('@') {
        at_sign(start, word, at, spans);
    }
    bearer(line, start, word, spans);
    long_secrets(start, word, spans);
    for (offset, part) in split_keep_offsets(word, |c| matches!(c, ':' | '/' | '\\' | '=' | '@')) {
        let part = part.trim_end_matches(['.', '-']);
        // An address may run on into a port or a query (HTCondor's `addrs=10.1.2.3-9618&noUDP`).
        let lead = part.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(part.len());
        let address = part[..lead].trim_end_matches('.');
        let ends = !part[address.len()..].starts_with(|c: char| c.is_ascii_alphanumeric());
        if ends && is_ipv4(address) && !matches!(address, "0.0.0.0" | "127.0.0.1" | "255.255.255.255") {
            spans.push(Span { start: start + offset, end: start + offset + address.len(), kind: Kind::Ip });
        } else if node_name(part) || internal_domain(part) {
            spans.push(Span { start: start + offset, end: start + offset + part.len(), kind: Kind::Host });
        }
    }
    if ipv6(word) {
        spans.push(Span { start, end: start + word.len(), kind: Kind::Ip });
    }
    // NCCL and torchrun prefix lines with `host:pid:tid`.
    let parts: Vec<&str> = word.split(':').collect();
    if let [host, pid, tid] = parts.as_slice() {
        let numbers = [pid, tid].iter().all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
        // A timestamp (`2024-04-20T09:12:33`) is not a host.
        let named = host.starts_with(|c: char| c.is_ascii_alphabetic()) && host.chars().all(is_name_char);
        if numbers && named && !host.ends_with(".py") && !GENERIC_NAMES.contains(host) {
            spans.push(Span { start, end: start + host.len(), kind: Kind::Host });
        }
    }
}

/// The parts of `text` between separator characters, with their offsets.
fn split_keep_offsets(text: &str, separator: impl Fn(char) -> bool) -> Vec<(usize, &str)> {
    let mut parts = Vec::new();
    let mut from = 0;
    for (i, c) in text.char_indices() {
        if separator(c) {
            parts.push((from, &text[from..i]));
            from = i + c.len_utf8();
        }
    }
    parts.push((from, &text[from..]));
    parts
}

/// Tokens whose vendors give them a recognisable prefix.
const TOKEN_PREFIXES: [(&str, usize); 13] = [
    ("hf_", 20),
    ("ghp_", 20),
    ("gho_", 20),
    ("ghu_", 20),
    ("ghs_", 20),
    ("ghr_", 20),
    ("github_pat_", 20),
    ("AKIA", 16),
    ("ASIA", 16),
    ("sk-", 20),
    ("xoxb-", 10),
    ("xoxp-", 10),
    ("eyJ", 20),
];

fn prefixed_secrets(start: usize, word: &str, spans: &mut Vec<Span>) {
    for (prefix, min_len) in TOKEN_PREFIXES {
        for (at, _) in word.match_indices(prefix) {
            let glued = word[..at].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric());
            let rest = &word[at + prefix.len()..];
            let len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || "_-.".contains(c))).unwrap_or(rest.len());
            let body = rest[..len].trim_end_matches(['.', '-']);
            let mixed = body.chars().any(|c| c.is_ascii_digit()) || body.chars().any(|c| c.is_ascii_uppercase());
            if !glued && body.len() >= min_len && mixed {
                spans.push(Span { start: start + at, end: start + at + prefix.len() + body.len(), kind: Kind::Secret });
            }
        }
    }
}

/// `alice@example.org` is an e-mail; `alice@node042` a user on a host.
fn at_sign(start: usize, word: &str, at: usize, spans: &mut Vec<Span>) {
    let local_start = start_of_run(&word[..at], |c| is_name_char(c) || c == '+' || c == '%');
    let local = &word[local_start..at];
    let rest = &word[at + 1..];
    let domain_len = rest.find(|c: char| !is_name_char(c)).unwrap_or(rest.len());
    let domain = rest[..domain_len].trim_end_matches(['.', '-']);
    if local.is_empty() || domain.is_empty() || !domain.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return;
    }
    let tld = domain.rsplit('.').next().unwrap_or("");
    if domain.contains('.') && tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()) {
        spans.push(Span { start: start + local_start, end: start + at + 1 + domain.len(), kind: Kind::Email });
    } else if domain != "sha256" {
        spans.push(Span { start: start + local_start, end: start + at, kind: Kind::User });
        spans.push(Span { start: start + at + 1, end: start + at + 1 + domain.len(), kind: Kind::Host });
    }
}

/// `Bearer <token>` and `Authorization: token <token>`: the word after.
fn bearer(line: &str, start: usize, word: &str, spans: &mut Vec<Span>) {
    let before = line[..start].trim_end();
    let previous = before.rsplit(|c: char| c.is_whitespace() || c == '"' || c == '\'').next().unwrap_or("");
    let after_auth = previous.eq_ignore_ascii_case("token") && before.to_ascii_lowercase().contains("authorization");
    if (previous.eq_ignore_ascii_case("bearer") || after_auth) && word.len() >= 8 {
        spans.push(Span { start, end: start + word.len(), kind: Kind::Secret });
    }
}

/// Runs of 32+ hex digits, and of 32+ base64 characters mixing upper case,
/// lower case and digits (a random key, not a word, a path or a number).
fn long_secrets(start: usize, word: &str, spans: &mut Vec<Span>) {
    let mut from = 0;
    let bytes = word.as_bytes();
    while from < bytes.len() {
        let is_b64 = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=');
        if !is_b64(bytes[from]) {
            from += 1;
            continue;
        }
        let len = bytes[from..].iter().take_while(|&&b| is_b64(b)).count();
        let run = &word[from..from + len];
        let glued = from > 0 && matches!(bytes[from - 1], b'_' | b'-' | b'.');
        let hex = run.len() >= 32 && run.bytes().all(|b| b.is_ascii_hexdigit());
        let classes = run.bytes().any(|b| b.is_ascii_uppercase())
            && run.bytes().any(|b| b.is_ascii_lowercase())
            && run.bytes().any(|b| b.is_ascii_digit());
        // A run with slashes is a path unless it is a value (after `=` or `:`).
        let valued = from > 0 && matches!(bytes[from - 1], b'=' | b':');
        // Digits or base64's own symbols tell a key from a long CamelCase name.
        let random = run.bytes().filter(u8::is_ascii_digit).count() >= 3 || run.contains(['+', '/', '=']);
        let b64 = run.len() >= 32 && classes && random && (!run.contains('/') || valued) && !glued;
        if hex || b64 {
            spans.push(Span { start: start + from, end: start + from + len, kind: Kind::Secret });
        }
        from += len;
    }
}

fn is_ipv4(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() == 4
        && parts.iter().all(|p| (1..=3).contains(&p.len()) && p.chars().all(|c| c.is_ascii_digit()))
        && parts.iter().all(|p| p.parse::<u16>().is_ok_and(|n| n <= 255))
}

/// `fe80::1c2:3ff:fe4d:5e6f`, `2001:db8::1` (not `::1`, not a time of day).
fn ipv6(word: &str) -> bool {
    let word = word.trim_matches(|c: char| c == '.' || c == ',');
    let groups: Vec<&str> = word.split(':').collect();
    let hex_groups = groups.iter().all(|g| g.len() <= 4 && g.chars().all(|c| c.is_ascii_hexdigit()));
    let filled = groups.iter().filter(|g| !g.is_empty()).count();
    hex_groups && filled >= 3 && (word.contains("::") || groups.len() == 8)
}

/// Cluster node names: `nid01934`, `node107`, `cn119`, `gpu-node-03`, `ip-10-0-0-1`.
fn node_name(part: &str) -> bool {
    let lower = part.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix("ip-") {
        let octets: Vec<&str> = rest.split(['-', '.']).take(4).collect();
        return octets.len() == 4 && octets.iter().all(|o| !o.is_empty() && o.chars().all(|c| c.is_ascii_digit()));
    }
    [("gpu-node", 1), ("compute", 1), ("node", 1), ("dgx", 1), ("nid", 2), ("hpc", 2), ("cn", 2)].iter().any(
        |(prefix, least)| {
            lower.strip_prefix(prefix).is_some_and(|rest| {
                let rest = rest.trim_start_matches(['-', '_']);
                let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
                digits >= *least && rest[digits..].chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
            })
        },
    )
}

/// Names only an internal network resolves: `x.cluster.local`, `ip-1-2-3-4.ec2.internal`.
fn internal_domain(part: &str) -> bool {
    let lower = part.to_ascii_lowercase();
    let labels = lower.split('.').count();
    labels >= 2
        && !lower.starts_with('.')
        && [".local", ".internal", ".lan", ".localdomain", ".corp", ".intranet", ".svc", ".home.arpa"]
            .iter()
            .any(|suffix| lower.ends_with(suffix))
        && lower.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
}

/// Scheduler job ids after the words that introduce them.
fn job_ids(line: &str, spans: &mut Vec<Span>) {
    let lower = line.to_ascii_lowercase();
    for marker in ["stepid=", "jobid=", "job_id=", "slurm_job_id=", "slurm-", "job ", "jobid ", "job_id "] {
        for (at, _) in lower.match_indices(marker) {
            let glued = lower[..at].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric());
            let start = at + marker.len();
            let len = line[start..].bytes().take_while(u8::is_ascii_digit).count();
            if !glued && len >= 3 {
                spans.push(Span { start, end: start + len, kind: Kind::JobId });
            }
        }
    }
}

#[cfg(test)]
mod tests;
