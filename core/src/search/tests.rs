use super::*;
use crate::writeup::compile_dir;

fn content() -> (Vec<Runbook>, SearchIndex) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content");
    let runbooks = compile_dir(&dir).unwrap_or_else(|e| panic!("{e:?}"));
    let index = SearchIndex::build(&runbooks);
    (runbooks, index)
}

fn top(runbooks: &[Runbook], index: &SearchIndex, text: &str) -> Vec<String> {
    index
        .search(&Query { text: text.into(), ..Query::default() }, 100)
        .hits
        .iter()
        .map(|h| runbooks[h.doc].slug.clone())
        .collect()
}

#[test]
fn validation_workers_finds_the_validation_incident_first() {
    let (runbooks, index) = content();
    assert_eq!(top(&runbooks, &index, "validation workers")[0], "slurm-validation-dataloaders-job-limit");
}

#[test]
fn prefix_on_the_last_word_gives_results_while_typing() {
    let (runbooks, index) = content();
    assert_eq!(top(&runbooks, &index, "validation work")[0], "slurm-validation-dataloaders-job-limit");
    assert!(top(&runbooks, &index, "optim").contains(&"adam-first-step-oom-shared-gpu".to_string()));
}

#[test]
fn one_typo_is_forgiven() {
    let (runbooks, index) = content();
    assert_eq!(top(&runbooks, &index, "valdation wrokers")[0], "slurm-validation-dataloaders-job-limit");
    assert!(top(&runbooks, &index, "qqqqqqq").is_empty());
}

#[test]
fn title_and_symptom_matches_outrank_body_mentions() {
    let (runbooks, index) = content();
    assert_eq!(top(&runbooks, &index, "adam")[0], "adam-first-step-oom-shared-gpu");
    assert_eq!(top(&runbooks, &index, "vllm")[0], "grpo-fsdp-vllm-gpu-oom");
    assert_eq!(top(&runbooks, &index, "sacct seff")[0], "slurm-memory-flags-sacct-seff");
}

#[test]
fn facets_count_and_filter() {
    let (runbooks, index) = content();
    let all = index.search(&Query { text: "workers".into(), ..Query::default() }, 100);
    let host = all.memory_facets.iter().find(|(k, _)| *k == MemoryKind::Host).map(|(_, n)| *n).unwrap_or(0);
    let filtered = index.search(&Query { text: "workers".into(), memory: Some(MemoryKind::Host), stack: None }, 100);
    assert_eq!(filtered.hits.len(), host);
    assert_eq!(filtered.total, host);
    assert!(filtered.hits.iter().all(|h| runbooks[h.doc].memory == Some(MemoryKind::Host)));
    let vllm = index.search(&Query { text: String::new(), memory: None, stack: Some(Stack::Vllm) }, 100);
    assert_eq!(vllm.hits.len(), 1);
}

#[test]
fn empty_query_lists_everything_incidents_first() {
    let (runbooks, index) = content();
    let hits = index.search(&Query::default(), 100).hits;
    assert_eq!(index.search(&Query::default(), 3).hits.len(), 3);
    assert_eq!(hits.len(), runbooks.len());
    assert_eq!(runbooks[hits[0].doc].kind, DocKind::Incident);
    assert_eq!(runbooks[hits.last().unwrap().doc].kind, DocKind::Guide);
}

#[test]
fn snippets_highlight_the_query_words() {
    let (_, index) = content();
    let results = index.search(&Query { text: "validation workers".into(), ..Query::default() }, 10);
    let marked: Vec<String> =
        results.hits[0].snippet.iter().filter(|s| s.highlight).map(|s| s.text.to_lowercase()).collect();
    assert!(marked.iter().any(|w| w.contains("validation")), "{marked:?}");
    assert!(marked.iter().any(|w| w.contains("worker")), "{marked:?}");
}

#[test]
fn an_overlong_query_is_cut_and_says_so() {
    let (runbooks, index) = content();
    // 70,000 letters once crashed the page (typo variants are quadratic in a word's length).
    let huge = Query { text: "A".repeat(70_000), ..Query::default() };
    let results = index.search(&huge, 20);
    assert!(results.shortened);
    assert_eq!(results.total, 0);
    let long = Query { text: format!("validation workers {}", "x ".repeat(MAX_QUERY_CHARS)), ..Query::default() };
    assert!(index.search(&long, 20).shortened);
    let normal = Query { text: "validation workers".into(), ..Query::default() };
    let results = index.search(&normal, 20);
    assert!(!results.shortened);
    assert_eq!(runbooks[results.hits[0].doc].slug, "slurm-validation-dataloaders-job-limit");
}
