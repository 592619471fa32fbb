//! Reading values as text: the same rule for the form, links, CLI flags and TOML.

use super::*;

/// Issue 11 item 4: `headroom budget --main_gib 1,5` gave 15 GiB, a silent 10x error.
#[test]
fn a_decimal_comma_is_read_as_one_and_an_ambiguous_comma_is_refused() {
    assert_eq!(parse_number("1,5"), Ok(1.5));
    assert_eq!(parse_number("0,25"), Ok(0.25));
    assert_eq!(parse_number("12,5k"), Ok(12_500.0));
    assert_eq!(parse_number("1,5e3"), Ok(1500.0));
    // Commas grouping digits in threes are thousands separators.
    assert_eq!(parse_number("1,000,000"), Ok(1e6));
    assert_eq!(parse_number("1,234.5"), Ok(1234.5));
    assert_eq!(parse_number("6,738,415,616"), Ok(6_738_415_616.0));
    assert_eq!(parse_number("1_000"), Ok(1000.0));
    // One comma and three digits could be either: refused, with both readings named.
    let err = parse_number("1,500").unwrap_err();
    assert!(err.contains("ambiguous") && err.contains("1500") && err.contains("1.500"), "{err}");
    for bad in ["1,5,3", ",5", "1,", "1.5,3", "1,5.3", "1,23,456", ""] {
        assert!(parse_number(bad).is_err(), "{bad} should be refused");
    }

    let mut plan = Plan::default();
    set(&mut plan, "main_gib", "1,5").unwrap();
    assert_eq!(get(&plan, "main_gib"), "1.5");
    let before = plan.clone();
    let err = set(&mut plan, "main_gib", "1,500").unwrap_err();
    assert!(err.contains("ambiguous"), "{err}");
    assert_eq!(plan, before, "a refused value changes nothing");
}

/// Issue 11 item 10: a link with 100,000 unknown keys froze the tab for 11.5 s
/// listing every one. The report names the first few and counts the rest.
#[test]
fn a_link_with_100000_unknown_keys_reports_twenty_and_counts_the_rest() {
    let mut pairs: Vec<(String, String)> = (0..100_000).map(|i| (format!("k{i}"), "1".to_string())).collect();
    pairs.push(("micro_batch".into(), "8".into()));
    pairs.push(("x".repeat(10_000), "y".repeat(10_000)));
    let mut plan = Plan::default();
    let rejected = apply(&mut plan, &pairs);
    assert_eq!(rejected.shown.len(), MAX_REPORTED);
    assert_eq!(rejected.len(), 100_001);
    assert_eq!(rejected.more, 100_001 - MAX_REPORTED);
    assert_eq!(rejected.shown[0], FieldError { key: "k0".into(), message: "unknown field `k0`".into() });
    assert_eq!(plan.gpu.micro_batch, 8, "the good value in the same link is used");

    // A long value is quoted short, wherever the error is shown.
    let err = set(&mut plan, "micro_batch", &"9".repeat(100_000)).unwrap_err();
    assert!(err.chars().count() <= 161, "{} characters", err.chars().count());
}

fn link(plan: &Plan) -> Vec<(String, String)> {
    diff_pairs(plan).into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

/// Every field the new questions added lives in the link like the others.
#[test]
fn the_new_fields_survive_their_link() {
    let mut plan = Plan::default();
    for (key, value) in [
        ("model", "custom"),
        ("head_dim", "256"),
        ("vocab", "256000"),
        ("experts", "8"),
        ("active_experts", "2"),
        ("vllm_util", "0.45"),
        ("block_size", "32"),
        ("vllm_overhead_gib", "2.5"),
        ("vllm_target_tokens", "65536"),
    ] {
        set(&mut plan, key, value).unwrap();
        assert_eq!(get(&plan, key), value, "{key}");
    }
    let mut reloaded = Plan::default();
    assert!(apply(&mut reloaded, &link(&plan)).is_empty());
    assert_eq!(reloaded, plan);
}

/// A shape is checked as a whole: a link may give hidden before heads even
/// when the hidden size does not split into the default model's 32 heads.
#[test]
fn a_shape_in_a_link_is_checked_as_a_whole() {
    let pairs: Vec<(String, String)> = [("hidden", "900"), ("heads", "30"), ("kv_heads", "10")]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut plan = Plan::default();
    assert!(apply(&mut plan, &pairs).is_empty());
    assert_eq!(
        (get(&plan, "hidden"), get(&plan, "heads"), get(&plan, "head_dim")),
        ("900".into(), "30".into(), "30".into())
    );
    let mut reloaded = Plan::default();
    assert!(apply(&mut reloaded, &link(&plan)).is_empty());
    assert_eq!(reloaded, plan);
    // The combination still has to make sense.
    let bad: Vec<(String, String)> =
        [("hidden", "900"), ("heads", "7")].iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let rejected = apply(&mut Plan::default(), &bad);
    assert!(rejected.shown[0].message.contains("not a multiple of 7 heads"), "{rejected:?}");
    // A network that is not a transformer keeps its measured figure through its link.
    let mut resnet = Plan::default();
    set(&mut resnet, "act_mib", "409.6").unwrap();
    let mut reloaded = Plan::default();
    assert!(apply(&mut reloaded, &link(&resnet)).is_empty(), "{:?}", link(&resnet));
    assert_eq!(reloaded, resnet);
}
