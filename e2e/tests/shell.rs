//! The app shell in real headless Chromium: every route renders its heading,
//! navigation works by clicking, nothing logs an error, and nothing is fetched
//! after the page has loaded.

use e2e::open_site;

fn heading(browser: &e2e::webdriver::Browser, expected: &str) {
    browser.wait_for_text("main h1", expected).unwrap_or_else(|e| panic!("heading {expected:?}: {e}"));
}

#[test]
fn every_route_renders_without_console_errors_or_late_requests() {
    let (site, browser) = open_site();
    browser.goto(&site.url).unwrap();
    heading(&browser, "Beat out-of-memory failures");
    assert_eq!(browser.title().unwrap(), "Home · Headroom");
    let onboarding = browser.find_all(".onboarding li a").unwrap();
    assert_eq!(onboarding.len(), 4, "the four onboarding guides, in order");
    assert_eq!(browser.text(&onboarding[0]).unwrap(), "How GPU memory is spent in training");
    let requests_after_load = browser.resources_fetched().unwrap();

    for (link, expected_heading) in [
        ("Runbooks", "Runbooks"),
        ("Diagnose", "Diagnose a log"),
        ("Budget", "Memory budget"),
        ("About", "About Headroom"),
    ] {
        let nav = browser.wait_for_text(".site-header nav a", link).unwrap();
        browser.click(&nav).unwrap();
        heading(&browser, expected_heading);
        assert_eq!(browser.attribute(&nav, "aria-current").unwrap().as_deref(), Some("page"));
        assert!(browser.title().unwrap().starts_with(link), "title follows the page");
        // Focus moves to the new page's heading, so it is announced and the keyboard starts there.
        let focused = browser
            .wait_until("focus on the heading", || {
                let tag = browser.execute("return document.activeElement.tagName", vec![])?;
                Ok((tag == "H1").then_some(tag))
            })
            .unwrap();
        assert_eq!(focused, "H1");
    }

    browser.click(&browser.wait_for(".brand").unwrap()).unwrap();
    heading(&browser, "Beat out-of-memory failures");

    // Deep links work under the sub-path, including a route that does not exist.
    browser.goto(&format!("{}#/runbooks/adam-first-step-oom-shared-gpu", site.url)).unwrap();
    heading(&browser, "Adam's state does not fit");
    assert!(browser.title().unwrap().starts_with("Adam's state does not fit"), "a runbook's own title");
    browser.goto(&format!("{}#/no/such/page", site.url)).unwrap();
    heading(&browser, "Page not found");

    let problems = browser.console_problems().unwrap();
    assert!(problems.is_empty(), "console errors or warnings: {problems:#?}");
    assert_eq!(
        browser.resources_fetched().unwrap(),
        requests_after_load,
        "the site fetched something after it had loaded"
    );
}

#[test]
fn slash_focuses_search_and_enter_searches_runbooks() {
    let (site, browser) = open_site();
    browser.goto(&format!("{}#/about", site.url)).unwrap();
    heading(&browser, "About Headroom");
    browser.press_keys("/").unwrap();
    let focused = browser.execute("return document.activeElement.id", vec![]).unwrap();
    assert_eq!(focused.as_str(), Some("site-search-input"));
    let input = browser.wait_for("#site-search-input").unwrap();
    browser.type_text(&input, "validation workers\n").unwrap();
    heading(&browser, "Runbooks");
    let url = browser.current_url().unwrap();
    assert!(url.ends_with("#/runbooks?q=validation%20workers"), "query lives in the URL: {url}");
}

/// The console assertion above is only worth something if it can fail.
#[test]
fn the_harness_sees_console_errors_and_late_requests() {
    let (site, browser) = open_site();
    browser.goto(&site.url).unwrap();
    heading(&browser, "Beat out-of-memory failures");
    let before = browser.resources_fetched().unwrap();
    browser.execute("console.error('planted error'); fetch('./favicon-missing.svg').catch(() => {});", vec![]).unwrap();
    let problems = browser
        .wait_until("the planted console error", || {
            let found = browser.console_problems()?;
            Ok(found.iter().any(|e| e.message.contains("planted error")).then_some(found))
        })
        .unwrap();
    assert!(problems.iter().all(|e| e.level == "SEVERE" || e.level == "WARNING"));
    browser
        .wait_until("the planted request", || Ok((browser.resources_fetched().unwrap() > before).then_some(())))
        .unwrap();
    // Screenshots work, for looking at a page while writing a test (PNG's signature in base64).
    assert!(browser.screenshot_base64().unwrap().starts_with("iVBORw0KGgo"));
}
