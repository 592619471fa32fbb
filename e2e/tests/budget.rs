//! The Budget page in Chromium: recomputes as fields change, explains a bad
//! value beside its field, keeps the whole state in the URL, draws the bars.

use e2e::open_site;
use e2e::webdriver::Browser;

fn verdict(browser: &Browser, index: usize) -> String {
    let verdicts = browser.find_all(".budget-results .verdict").unwrap();
    browser.text(&verdicts[index]).unwrap()
}

fn set_field(browser: &Browser, key: &str, value: &str) {
    let input = browser.wait_for(&format!("#field-{key}")).unwrap();
    browser.clear(&input).unwrap();
    browser.type_text(&input, value).unwrap();
}

#[test]
fn fields_recompute_validate_and_live_in_the_url() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/budget", site.url)).unwrap();
    browser.wait_for_text(".budget-results .verdict", "Does not fit").unwrap();
    let fetched = browser.resources_fetched().unwrap();
    assert!(browser.find_all(".stacked-bar rect.seg").unwrap().len() >= 5, "the GPU bar has its segments");
    assert!(browser.wait_for_text(".suggestions", "offload optimizer states to CPU").is_ok());
    assert!(browser.wait_for_text(".sbatch", "#SBATCH --mem=").is_ok());
    let formulas = browser.execute("return document.querySelector('.formulas').textContent", vec![]).unwrap();
    assert!(formulas.as_str().unwrap().contains("Korthikanti et al. 2022"), "every formula names its source");

    // A bad value is explained beside its field and the calculation keeps the last good one.
    set_field(&browser, "micro_batch", "abc");
    browser.wait_for_text("#field-micro_batch-error", "`abc` is not a number").unwrap();
    set_field(&browser, "micro_batch", "2");
    browser
        .wait_until("the error to clear", || {
            Ok(browser.text(&browser.wait_for("#field-micro_batch-error")?)?.is_empty().then_some(()))
        })
        .unwrap();

    set_field(&browser, "lora_rank", "16");
    browser.wait_for_text(".budget-results .verdict", "Fits").unwrap();
    assert_eq!(browser.resources_fetched().unwrap(), fetched, "recomputing fetches nothing");
    let url = browser.current_url().unwrap();
    assert!(url.contains("#/budget?") && url.contains("lora_rank=16") && url.contains("micro_batch=2"), "{url}");

    // The link alone reproduces the calculation in a fresh page.
    browser.goto("about:blank").unwrap();
    browser.goto(&url).unwrap();
    browser.wait_for_text(".budget-results .verdict", "Fits").unwrap();
    let value = browser.execute("return document.getElementById('field-lora_rank').value", vec![]).unwrap();
    assert_eq!(value, "16");
    assert!(verdict(&browser, 0).starts_with("Fits"));
    assert!(browser.console_problems().unwrap().is_empty());
}

#[test]
fn the_seed_node_breaks_at_validation_and_a_bad_link_is_reported() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/budget?workers=8&micro_batch=0", site.url)).unwrap();
    browser.wait_for_text(".notice.bad", "micro_batch").unwrap();
    let host = browser.wait_for_text(".budget-results .verdict", "peak").unwrap();
    assert!(browser.text(&host).unwrap().starts_with("Does not fit"));
    browser.wait_for_text(".suggestions", "num_workers 8 -> 1 per rank").unwrap();
    let md = browser.execute("return document.querySelector('.export code').textContent", vec![]).unwrap();
    assert!(md.as_str().unwrap().contains("### Memory budget: Llama-2-7B on A100-80GB"), "{md}");
}
