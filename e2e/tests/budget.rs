//! The Budget page in Chromium: recomputes as fields change, explains a bad
//! value beside its field, keeps the whole state in the URL, draws the bars.

use e2e::open_site;
use e2e::webdriver::Browser;
use serde_json::json;

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

/// Issue 11 item 10: a link with 100,000 unknown keys froze the tab for 11.5 s.
#[test]
fn a_link_with_100000_unknown_keys_lists_twenty_and_the_page_answers() {
    let (site, browser) = open_site();
    let keys: Vec<String> = (0..100_000).map(|i| format!("k{i}=1")).collect();
    browser.goto(&format!("{}#/budget?micro_batch=2&{}", site.url, keys.join("&"))).unwrap();
    browser.wait_for_text(".notice.bad", "…and 99,980 more.").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(browser.find_all(".notice.bad li").unwrap().len(), 20);
    set_field(&browser, "lora_rank", "16");
    browser.wait_for_text(".budget-results .verdict", "Fits").unwrap();
    assert!(browser.console_problems().unwrap().is_empty());
}

fn text_of(browser: &Browser, css: &str) -> String {
    let value = browser.execute("return document.querySelector(arguments[0]).textContent", vec![json!(css)]).unwrap();
    value.as_str().unwrap_or_default().to_string()
}

fn paste(browser: &Browser, id: &str, text: &str) {
    browser
        .execute(
            "const box = document.getElementById(arguments[0]); box.value = arguments[1]; box.dispatchEvent(new Event('input', {bubbles: true}));",
            vec![json!(id), json!(text)],
        )
        .unwrap();
}

/// Issue 10: the inverse questions, DeepSpeed's tables and vLLM's start-up,
/// each following the link.
#[test]
fn inverse_answers_deepspeed_tables_and_vllm_startup() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/budget?lora_rank=16&gpus=8", site.url)).unwrap();
    browser.wait_for_text(".answers", "Largest model that fits:").unwrap();
    let answers = text_of(&browser, ".answers");
    for question in ["Longest sequence that fits:", "Largest micro batch that fits:", "Fewest GPUs sharing the state:"]
    {
        assert!(answers.contains(question), "{answers}");
    }
    let estimator = text_of(&browser, ".estimator");
    assert!(estimator.contains("offload_optimizer=cpu") && estimator.contains("Headroom per GPU"), "{estimator}");
    assert_eq!(browser.find_all(".estimator").unwrap().len(), 2, "ZeRO-2 and ZeRO-3");

    let serve = "model=Llama-3-8B&workload=inference&vllm_util=0.9&seq_len=32768&vllm_target_tokens=131072";
    browser.goto(&format!("{}#/budget?{serve}", site.url)).unwrap();
    browser.wait_for_text(".vllm-log", "Maximum concurrency for 32,768 tokens per request:").unwrap();
    assert!(text_of(&browser, ".vllm-log").contains("GPU KV cache size:"));
    browser.wait_for_text(".answers", "gpu_memory_utilization for 131,072 tokens of KV cache:").unwrap();
    assert!(browser.find_all(".estimator").unwrap().is_empty(), "DeepSpeed's estimators are for training");
    assert!(browser.console_problems().unwrap().is_empty());
}

/// Issue 11 items 4 and 7 in the form and in a link.
#[test]
fn a_decimal_comma_in_the_form_and_a_link_too_large_to_hold() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/budget", site.url)).unwrap();
    browser.wait_for_text(".budget-results .verdict", "Does not fit").unwrap();
    set_field(&browser, "main_gib", "1,5");
    browser
        .wait_until("the URL to follow", || Ok(browser.current_url()?.contains("main_gib=1.5").then_some(())))
        .unwrap();
    // Typed key by key, "1,5" shows as 1.5 at once; pasted whole, "1,500" is refused.
    paste(&browser, "field-main_gib", "1,500");
    browser.wait_for_text("#field-main_gib-error", "is ambiguous").unwrap();

    browser.goto(&format!("{}#/budget?seq_len=10000000&flash=false&micro_batch=64", site.url)).unwrap();
    browser.wait_for_text(".budget-results .verdict", "more than 16.00 EiB").unwrap();
    assert!(!text_of(&browser, ".budget-results").contains("16777216"), "no saturated value printed as a figure");
}

/// A config.json names the keys it could not use, and the link it leaves loads.
#[test]
fn a_hugging_face_config_fills_the_model() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/budget", site.url)).unwrap();
    browser.click(&browser.wait_for(".hf-config summary").unwrap()).unwrap();
    let mistral = include_str!("../../core/tests/fixtures/hf_configs/mistral-7b-instruct-v0.1.json");
    paste(&browser, "hf-config-text", mistral);
    browser.click(&browser.wait_for_text(".hf-config button", "Use it").unwrap()).unwrap();
    let ok = browser.wait_for_text(".hf-config .ok", "7,241,732,096 parameters").unwrap();
    assert!(browser.text(&ok).unwrap().contains("Not used: sliding_window"));
    let url = browser.current_url().unwrap();
    assert!(url.contains("params=7241732096") && url.contains("kv_heads=8"), "{url}");

    paste(&browser, "hf-config-text", r#"{"hidden_size": 4096, "num_hidden_layers": 5000, "num_attention_heads": 32}"#);
    browser.click(&browser.wait_for_text(".hf-config button", "Use it").unwrap()).unwrap();
    browser.wait_for_text(".hf-config .error", "num_hidden_layers").unwrap();
    assert_eq!(browser.current_url().unwrap(), url, "a refused config changes nothing");

    browser.goto("about:blank").unwrap();
    browser.goto(&url).unwrap();
    browser.wait_for(".budget-results .verdict").unwrap();
    assert!(browser.find_all(".notice.bad").unwrap().is_empty(), "the link the import wrote loads");
}

/// Issue 10 item 4: measurements at two batch sizes fit the per-sample figure.
#[test]
fn calibration_fits_the_per_sample_activations() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/budget?model=ResNet-50", site.url)).unwrap();
    browser.click(&browser.wait_for(".calibrate summary").unwrap()).unwrap();
    paste(&browser, "calibrate-text", "8: 5.25 GiB\n16: 8.45 GiB\n");
    browser.wait_for_text(".calibration", "Per sample (activations)").unwrap();
    let apply = browser.wait_for_text(".calibrate button", "Use 409.6 MiB per sample").unwrap();
    browser.click(&apply).unwrap();
    browser
        .wait_until("the URL to take it", || Ok(browser.current_url()?.contains("act_mib=409.6").then_some(())))
        .unwrap();
}

/// Issue 10 item 3: Diagnose's "Open in Budget" with a vLLM start-up log
/// (https://github.com/vllm-project/vllm/issues/10517) fills the vLLM fields.
#[test]
fn a_vllm_log_opens_in_budget_with_its_startup() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/diagnose", site.url)).unwrap();
    browser.wait_for("#log-input").unwrap();
    let log = "Loading model weights took 14.9888 GB
Memory profiling results: total_gpu_memory=23.58GiB initial_memory_usage=15.34GiB peak_torch_memory=17.98GiB memory_usage_post_profile=15.35GiB non_torch_memory=0.35GiB kv_cache_size=2.89GiB gpu_memory_utilization=0.90
# GPU blocks: 1478, # CPU blocks: 2048
Maximum concurrency for 29000 tokens per request: 0.82x
ValueError: The model's max seq len (29000) is larger than the maximum number of tokens that can be stored in KV cache (23648). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.
";
    paste(&browser, "log-input", log);
    let open = browser.wait_for_text("a.button-link", "Open in Budget").unwrap();
    browser.click(&open).unwrap();
    browser.wait_for_text(".vllm-log", "Maximum concurrency for 29,000 tokens per request:").unwrap();
    let url = browser.current_url().unwrap();
    // Block size 16 is the default, so the link leaves it out.
    assert!(url.contains("vllm_util=0.9") && !url.contains("block_size") && url.contains("seq_len=29000"), "{url}");
}

/// The page at a phone's width: the tables scroll inside their own box.
#[test]
fn the_budget_page_fits_a_390_px_screen() {
    let (site, browser) = open_site();
    browser.set_window_size(390, 844).unwrap();
    browser.goto(&format!("{}#/budget?gpus=8&vllm_util=0.3&model=Qwen2.5-7B", site.url)).unwrap();
    browser.wait_for(".estimator").unwrap();
    // Every disclosure open, "Show markdown" too (its long lines once widened the page to 3107 px).
    browser.execute("document.querySelectorAll('details').forEach(d => d.open = true); return null;", vec![]).unwrap();
    let widths = browser
        .execute("return [document.documentElement.scrollWidth, document.documentElement.clientWidth]", vec![])
        .unwrap();
    assert_eq!(widths[0], widths[1], "the page is wider than the screen: {widths}");
}

/// Issue 8: the lab's machine remembered as defaults, only when asked, and only
/// for a fresh Budget page (a link keeps meaning what its author saw).
#[test]
fn remembered_machine_defaults_start_a_fresh_page_only() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/budget?gpu_mem_gib=40&ranks=2", site.url)).unwrap();
    browser.click(&browser.wait_for_text(".remember button", "Remember").unwrap()).unwrap();
    browser.wait_for_text(".remember [role='status']", "Remembered").unwrap();
    let stored = browser.execute("return localStorage.getItem('headroom.budget-defaults')", vec![]).unwrap();
    assert!(stored.as_str().is_some_and(|s| s.contains("ranks") && !s.contains("micro_batch")), "{stored}");
    let value =
        |id: &str| browser.execute(&format!("return document.getElementById('field-{id}').value"), vec![]).unwrap();
    browser.goto(&format!("{}#/about", site.url)).unwrap();
    browser.goto(&format!("{}#/budget", site.url)).unwrap();
    browser.wait_for("#field-ranks").unwrap();
    assert_eq!(value("ranks"), "2", "a fresh page starts from the remembered machine");
    browser.goto(&format!("{}#/budget?micro_batch=2", site.url)).unwrap();
    browser.wait_for("#field-ranks").unwrap();
    assert_ne!(value("ranks"), "2", "a link is not changed by the reader's defaults");
    browser.execute("localStorage.clear(); return null;", vec![]).unwrap();
}
