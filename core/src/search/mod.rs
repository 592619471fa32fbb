//! Full-text search over runbooks: BM25 per field (title, symptoms, body)
//! with title and symptom boosts, prefix matching on the last query word (so
//! results come as you type), one-typo tolerance, facets for memory kind and
//! stack, and snippets with the matched words marked.

mod fuzzy;
mod snippet;
pub mod tokenize;

use crate::memory::{MemoryKind, Stack};
use crate::runbook::{DocKind, Runbook};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

pub use snippet::Segment;

const K1: f32 = 1.2;
const B: f32 = 0.75;
/// Weight of a match in the title, the symptoms (summary, log signatures) and the rest.
const FIELD_BOOST: [f32; 3] = [3.0, 2.0, 1.0];
const PREFIX_WEIGHT: f32 = 0.8;
const TYPO_WEIGHT: f32 = 0.6;
const SNIPPET_WORDS: usize = 30;
/// The longest query read, in characters. Longer text (a pasted log, a crafted
/// link) is cut here and the results say so: a search costs at most this much.
pub const MAX_QUERY_CHARS: usize = 200;

#[derive(Clone, Copy)]
enum Field {
    Title = 0,
    Symptoms = 1,
    Body = 2,
}

#[derive(Serialize, Deserialize)]
struct Doc {
    lengths: [f32; 3],
    memory: Option<MemoryKind>,
    stack: Vec<Stack>,
    kind: DocKind,
    date: Option<String>,
    /// Plain text that snippets are cut from, and its term positions.
    text: String,
    tokens: Vec<snippet::Token>,
}

/// Postings of one term: (document, term frequency per field).
type Postings = Vec<(u32, [u16; 3])>;

/// Serialisable so that shipping it pre-built can be measured against
/// building it at start-up (`benches/search.rs`: no faster, and 15 MB for
/// 1,000 runbooks, so the site builds it; see README).
#[derive(Serialize, Deserialize)]
pub struct SearchIndex {
    docs: Vec<Doc>,
    /// Sorted vocabulary; a term's id is its position.
    terms: Vec<String>,
    postings: Vec<Postings>,
    deletes: fuzzy::Deletes,
    average_lengths: [f32; 3],
}

/// What the user asked: words, and optional facet filters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Query {
    pub text: String,
    pub memory: Option<MemoryKind>,
    pub stack: Option<Stack>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hit {
    /// Position of the runbook in the slice the index was built from.
    pub doc: usize,
    pub score: f32,
    pub snippet: Vec<Segment>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Results {
    /// The best hits, at most the limit asked for, with snippets.
    pub hits: Vec<Hit>,
    /// How many runbooks matched in all (after the facet filters).
    pub total: usize,
    /// Matching runbooks per memory kind and per stack, before the facet filters.
    pub memory_facets: Vec<(MemoryKind, usize)>,
    pub stack_facets: Vec<(Stack, usize)>,
    /// The query was longer than [`MAX_QUERY_CHARS`] and only its start was searched.
    pub shortened: bool,
}

/// One query word resolved against the vocabulary: the terms it stands for, with weights.
struct Expansion {
    terms: Vec<(u32, f32)>,
}

impl SearchIndex {
    pub fn build(runbooks: &[Runbook]) -> SearchIndex {
        let mut vocabulary: HashMap<String, usize> = HashMap::new();
        let mut per_term: Vec<HashMap<u32, [u16; 3]>> = Vec::new();
        let mut docs = Vec::with_capacity(runbooks.len());
        for (id, runbook) in runbooks.iter().enumerate() {
            let [title, symptoms, body] = field_texts(runbook);
            // Snippets come from the symptoms and body, which sit in `text` one after the other.
            let text = format!("{symptoms} {body}");
            let body_offset = symptoms.len() + 1;
            let mut lengths = [0f32; 3];
            let mut tokens = Vec::new();
            let fields = [
                (Field::Title, &title, None),
                (Field::Symptoms, &symptoms, Some(0)),
                (Field::Body, &body, Some(body_offset)),
            ];
            for (field, field_text, offset) in fields {
                tokenize::for_each_term(field_text, |term, range| {
                    lengths[field as usize] += 1.0;
                    let next = vocabulary.len();
                    let term_id = *vocabulary.entry(term).or_insert(next);
                    if term_id == per_term.len() {
                        per_term.push(HashMap::new());
                    }
                    let counts = per_term[term_id].entry(id as u32).or_insert([0; 3]);
                    counts[field as usize] = counts[field as usize].saturating_add(1);
                    if let Some(offset) = offset {
                        let (start, end) = ((range.start + offset) as u32, (range.end + offset) as u32);
                        tokens.push(snippet::Token { start, end, term: term_id as u32 });
                    }
                });
            }
            docs.push(Doc {
                lengths,
                memory: runbook.memory,
                stack: runbook.stack.clone(),
                kind: runbook.kind,
                date: runbook.date.clone(),
                text,
                tokens,
            });
        }
        let mut terms: Vec<(String, usize)> = vocabulary.into_iter().collect();
        terms.sort();
        // Term ids become positions in the sorted vocabulary.
        let mut renumber = vec![0u32; terms.len()];
        for (new_id, (_, old_id)) in terms.iter().enumerate() {
            renumber[*old_id] = new_id as u32;
        }
        for doc in &mut docs {
            for token in &mut doc.tokens {
                token.term = renumber[token.term as usize];
            }
        }
        let postings = terms
            .iter()
            .map(|(_, old_id)| {
                let mut list: Postings = per_term[*old_id].iter().map(|(d, c)| (*d, *c)).collect();
                list.sort_unstable_by_key(|(d, _)| *d);
                list
            })
            .collect();
        let terms: Vec<String> = terms.into_iter().map(|(t, _)| t).collect();
        let count = docs.len().max(1) as f32;
        let mut average_lengths = [0f32; 3];
        for doc in &docs {
            for (average, length) in average_lengths.iter_mut().zip(doc.lengths) {
                *average += length / count;
            }
        }
        let deletes = fuzzy::Deletes::build(terms.iter().map(String::as_str));
        SearchIndex { docs, terms, postings, deletes, average_lengths }
    }

    /// The best `limit` hits for `query`; an empty text lists every runbook
    /// (incidents first, newest first) so the page is never blank.
    pub fn search(&self, query: &Query, limit: usize) -> Results {
        let (text, shortened) = bounded(&query.text);
        let words = tokenize::terms(text);
        let scored: Vec<(usize, f32)> = if words.is_empty() {
            let mut all: Vec<usize> = (0..self.docs.len()).collect();
            all.sort_by(|&a, &b| {
                let (da, db) = (&self.docs[a], &self.docs[b]);
                (da.kind != DocKind::Incident, &db.date).cmp(&(db.kind != DocKind::Incident, &da.date))
            });
            all.into_iter().map(|d| (d, 0.0)).collect()
        } else {
            self.score(&words)
        };

        let mut results = Results { shortened, ..Results::default() };
        for kind in MemoryKind::ALL {
            let n = scored.iter().filter(|(d, _)| self.docs[*d].memory == Some(kind)).count();
            if n > 0 {
                results.memory_facets.push((kind, n));
            }
        }
        for stack in Stack::ALL {
            let n = scored.iter().filter(|(d, _)| self.docs[*d].stack.contains(&stack)).count();
            if n > 0 {
                results.stack_facets.push((stack, n));
            }
        }
        let matched = self.matched_terms(&words);
        let filtered: Vec<(usize, f32)> = scored
            .into_iter()
            .filter(|(d, _)| query.memory.is_none_or(|m| self.docs[*d].memory == Some(m)))
            .filter(|(d, _)| query.stack.is_none_or(|s| self.docs[*d].stack.contains(&s)))
            .collect();
        results.total = filtered.len();
        results.hits = filtered
            .into_iter()
            .take(limit)
            .map(|(doc, score)| {
                let d = &self.docs[doc];
                let snippet = snippet::best_window(&d.text, &d.tokens, &matched, SNIPPET_WORDS);
                Hit { doc, score, snippet }
            })
            .collect();
        results
    }

    fn score(&self, words: &[String]) -> Vec<(usize, f32)> {
        let mut scores = vec![0f32; self.docs.len()];
        let mut hit = vec![false; self.docs.len()];
        let n = self.docs.len() as f32;
        for (i, word) in words.iter().enumerate() {
            let expansion = self.expand(word, i + 1 == words.len());
            // A document must match every query word (in some form).
            let mut matched_this_word = vec![false; self.docs.len()];
            for (term, weight) in expansion.terms {
                let postings = &self.postings[term as usize];
                let idf = ((n - postings.len() as f32 + 0.5) / (postings.len() as f32 + 0.5) + 1.0).ln();
                for (doc, counts) in postings {
                    let d = *doc as usize;
                    let mut s = 0.0;
                    for f in 0..3 {
                        let tf = counts[f] as f32;
                        if tf > 0.0 {
                            let norm = 1.0 - B + B * self.docs[d].lengths[f] / self.average_lengths[f].max(1.0);
                            s += FIELD_BOOST[f] * tf * (K1 + 1.0) / (tf + K1 * norm);
                        }
                    }
                    scores[d] += weight * idf * s;
                    matched_this_word[d] = true;
                }
            }
            for d in 0..self.docs.len() {
                hit[d] = if i == 0 { matched_this_word[d] } else { hit[d] && matched_this_word[d] };
            }
        }
        let mut ranked: Vec<(usize, f32)> = (0..self.docs.len()).filter(|&d| hit[d]).map(|d| (d, scores[d])).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked
    }

    /// The terms a query word stands for: itself, words it begins (when it is
    /// the word being typed), and when nothing matches exactly, one-typo neighbours.
    fn expand(&self, word: &str, is_last: bool) -> Expansion {
        let mut terms = Vec::new();
        let exact = self.terms.binary_search_by(|t| t.as_str().cmp(word)).ok();
        if let Some(id) = exact {
            terms.push((id as u32, 1.0));
        }
        if is_last && !word.is_empty() {
            let start = self.terms.partition_point(|t| t.as_str() < word);
            terms.extend(
                self.terms[start..]
                    .iter()
                    .take_while(|t| t.starts_with(word))
                    .enumerate()
                    .filter(|(offset, _)| Some(start + offset) != exact)
                    .map(|(offset, _)| ((start + offset) as u32, PREFIX_WEIGHT)),
            );
        }
        if terms.is_empty() {
            terms.extend(
                self.deletes
                    .candidates(word)
                    .into_iter()
                    .filter(|&id| fuzzy::within_one_edit(word, &self.terms[id as usize]))
                    .map(|id| (id, TYPO_WEIGHT)),
            );
        }
        Expansion { terms }
    }

    /// Every vocabulary term the query matched (sorted ids), for highlighting.
    fn matched_terms(&self, words: &[String]) -> Vec<u32> {
        let mut ids: Vec<u32> = words
            .iter()
            .enumerate()
            .flat_map(|(i, w)| self.expand(w, i + 1 == words.len()).terms)
            .map(|(id, _)| id)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

/// The first [`MAX_QUERY_CHARS`] characters of a query, and whether that cut anything.
fn bounded(text: &str) -> (&str, bool) {
    match text.char_indices().nth(MAX_QUERY_CHARS) {
        Some((cut, _)) => (&text[..cut], true),
        None => (text, false),
    }
}

/// The text of a runbook's three search fields.
fn field_texts(r: &Runbook) -> [String; 3] {
    let strip = tokenize::strip_tags;
    let symptoms = format!("{} {} {}", r.summary, r.symptoms.signatures.join(" "), strip(&r.symptoms.html));
    let mut body = vec![strip(&r.root_cause), r.tags.join(" ")];
    for fix in &r.fixes {
        body.push(fix.title.clone());
        for k in &fix.knobs {
            body.push(format!("{} {} {}", k.knob, k.old.as_deref().unwrap_or(""), k.new));
        }
        body.extend(fix.effect.iter().chain(&fix.tradeoff).cloned());
    }
    body.extend(r.verification.iter().map(|s| s.text.clone()));
    body.extend(r.lessons.iter().cloned());
    body.extend(r.other_sections.iter().map(|s| format!("{} {}", s.heading, strip(&s.html))));
    [r.title.clone(), symptoms, body.join(" ")]
}

#[cfg(test)]
mod tests;
