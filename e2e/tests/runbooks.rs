//! Runbooks in real Chromium: ranked search as you type, the query in the URL,
//! facets, and a runbook page whose fix cards show the knob changes.

use e2e::open_site;

#[test]
fn search_validation_workers_then_open_the_incident() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/runbooks", site.url)).unwrap();
    let input = browser.wait_for("#runbook-search").unwrap();
    browser.type_text(&input, "validation workers").unwrap();

    let first =
        browser.wait_for_text(".results .result:first-child .result-title", "Validation DataLoader workers").unwrap();
    let marked: Vec<String> = browser
        .find_all(".results .result:first-child mark")
        .unwrap()
        .iter()
        .map(|m| browser.text(m).unwrap().to_lowercase())
        .collect();
    assert!(
        marked.iter().any(|w| w.contains("validation")) && marked.iter().any(|w| w.contains("worker")),
        "{marked:?}"
    );
    let url = browser.current_url().unwrap();
    assert!(url.ends_with("#/runbooks?q=validation%20workers"), "query lives in the URL: {url}");

    browser.click(&first).unwrap();
    browser.wait_for_text("main h1", "Validation DataLoader workers push a 4-node DDP job").unwrap();
    assert!(browser.current_url().unwrap().ends_with("#/runbooks/slurm-validation-dataloaders-job-limit"));
    let card = browser.wait_for_text(".fix-card", "Request more memory per node").unwrap();
    let rows = browser.text(&card).unwrap();
    assert!(rows.contains("#SBATCH --mem") && rows.contains("256G") && rows.contains("400G"), "{rows}");
    let diffs = browser.find_all(".fix-card .knob-diff tbody tr").unwrap();
    assert!(diffs.len() >= 6, "every fix card lists its knob changes ({} rows)", diffs.len());
    // A copy button says what happened (the clipboard may be refused to a headless page).
    let copy = browser.wait_for(".fix-card .copy").unwrap();
    browser.click(&copy).unwrap();
    let label = browser
        .wait_until("the copy button to report", || Ok(Some(browser.text(&copy)?).filter(|t| t != "Copy")))
        .unwrap();
    assert!(label == "Copied" || label.starts_with("Copy blocked"), "{label}");
    assert!(browser.console_problems().unwrap().is_empty());
}

#[test]
fn a_shared_search_link_restores_query_and_facet() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/runbooks?q=workers&memory=host", site.url)).unwrap();
    browser.wait_for_text(".result-count", "runbook").unwrap();
    let input = browser.wait_for("#runbook-search").unwrap();
    assert_eq!(browser.execute("return document.getElementById('runbook-search').value", vec![]).unwrap(), "workers");
    let pressed = browser.wait_for(".chip[aria-pressed='true']").unwrap();
    assert!(browser.text(&pressed).unwrap().starts_with("Host RAM"));
    let titles: Vec<String> =
        browser.find_all(".result-title").unwrap().iter().map(|t| browser.text(t).unwrap()).collect();
    assert!(titles.iter().any(|t| t.contains("W&B sweep")), "{titles:?}");
    assert!(!titles.iter().any(|t| t.contains("GRPO")), "the facet filters: {titles:?}");
    // Clearing the facet and making a typo still finds the validation incident.
    browser.click(&pressed).unwrap();
    browser.clear(&input).unwrap();
    browser.type_text(&input, "valdation").unwrap();
    browser.wait_for_text(".results .result:first-child .result-title", "Validation DataLoader workers").unwrap();
}

#[test]
fn deep_link_to_a_guide_and_its_related_runbooks() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/runbooks/reading-pytorch-oom-message", site.url)).unwrap();
    browser.wait_for_text("main h1", "Reading a PyTorch CUDA out-of-memory message").unwrap();
    let related = browser.wait_for_text(".related a", "How GPU memory is spent in training").unwrap();
    browser.click(&related).unwrap();
    browser.wait_for_text("main h1", "How GPU memory is spent in training").unwrap();
    browser.goto(&format!("{}#/runbooks/no-such-runbook", site.url)).unwrap();
    browser.wait_for_text("main h1", "Runbook not found").unwrap();
}
