//! Real config.json files (core/tests/fixtures/hf_configs/SOURCES.md names
//! each page): the parameter count each family's layout gives against the
//! model's published size, the keys named as unused, and the import going
//! through the fields' checks.

use super::*;
use crate::budget::model::Arch;
use crate::budget::{evaluate, fields, Plan};

macro_rules! config {
    ($file:literal) => {
        include_str!(concat!("../../../tests/fixtures/hf_configs/", $file))
    };
}

fn shape(plan: &Plan) -> Shape {
    match plan.gpu.model.arch {
        Arch::Transformer(s) => s,
        Arch::Other { .. } => panic!("not a transformer"),
    }
}

/// Published sizes: Llama 2 paper (7B: 6,738,415,616 in transformers'
/// count), Mistral 7B (7.24 B), Qwen2 technical report (7.62 B), Gemma report
/// (8.54 B), Phi-2 model card (2.7 B; 2,779,683,840 counted), GPT-2 large
/// (774 M), Pythia-160M (162,322,944 with its untied output layer), Flan-T5
/// XXL (11.1 B), ViT-B/16 (86 M), Mixtral 8x7B (46.7 B).
#[test]
fn parameter_counts_of_the_common_families() {
    for (json, family, params) in [
        (config!("llama-2-7b-hf.json"), "Llama-style decoder", 6_738_415_616),
        (config!("mistral-7b-instruct-v0.1.json"), "Llama-style decoder", 7_241_732_096),
        (config!("qwen2-7b.json"), "Llama-style decoder", 7_615_616_512),
        (config!("gemma-7b.json"), "Llama-style decoder", 8_537_680_896),
        (config!("phi-2.json"), "Phi", 2_779_683_840),
        (config!("gpt2-large.json"), "GPT-2", 774_030_080),
        (config!("pythia-160m.json"), "GPT-NeoX", 162_322_944),
        (config!("flan-t5-xxl.json"), "T5 encoder-decoder", 11_135_332_352),
        (config!("vit-base-patch16-224-in21k.json"), "ViT", 86_389_248),
        (config!("mixtral-8x7b-instruct-v0.1.json"), "Llama-style decoder", 46_702_792_704),
    ] {
        let import = read(json).unwrap();
        assert_eq!((import.family, import.params), (family, params), "{}", import.name);
    }
}

/// Every key of the real files is either used, known not to matter, or
/// named; Mistral v0.1's 4,096-token sliding window is the one named.
#[test]
fn keys_the_calculator_cannot_use_are_named() {
    for json in [
        config!("llama-2-7b-hf.json"),
        config!("qwen2-7b.json"),
        config!("gemma-7b.json"),
        config!("phi-2.json"),
        config!("gpt2-large.json"),
        config!("pythia-160m.json"),
        config!("flan-t5-xxl.json"),
        config!("vit-base-patch16-224-in21k.json"),
        config!("mixtral-8x7b-instruct-v0.1.json"),
    ] {
        let import = read(json).unwrap();
        assert!(import.unused.is_empty(), "{}: {:?}", import.name, import.unused);
    }
    let mistral = read(config!("mistral-7b-instruct-v0.1.json")).unwrap();
    assert_eq!(mistral.unused, vec!["sliding_window (the KV cache is counted for the whole sequence)"]);
    // A family the reader does not know the extra parts of: Qwen2-MoE's shared expert.
    let moe = r#"{"model_type": "qwen2_moe", "hidden_size": 2048, "num_hidden_layers": 24,
        "num_attention_heads": 16, "num_key_value_heads": 16, "intermediate_size": 5632,
        "moe_intermediate_size": 1408, "shared_expert_intermediate_size": 5632, "num_experts": 60,
        "num_experts_per_tok": 4, "vocab_size": 151936, "quantization_config": {"bits": 4}}"#;
    let import = read(moe).unwrap();
    assert_eq!(
        import.unused,
        vec![
            "moe_intermediate_size",
            "quantization_config (choose the weights dtype yourself)",
            "shared_expert_intermediate_size"
        ]
    );
}

#[test]
fn an_import_fills_the_shape_the_formulas_use() {
    let mut plan = Plan::default();
    apply(&mut plan, &read(config!("gemma-7b.json")).unwrap()).unwrap();
    let s = shape(&plan);
    assert_eq!(
        (s.heads, s.kv_heads, s.head_dim, s.hidden),
        (16, 16, 256, 3072),
        "Gemma's heads are not hidden / heads"
    );
    assert_eq!(plan.gpu.model.params, 8_537_680_896);

    apply(&mut plan, &read(config!("mixtral-8x7b-instruct-v0.1.json")).unwrap()).unwrap();
    let s = shape(&plan);
    assert_eq!((s.experts, s.active_experts, s.kv_heads), (8, 2, 8));

    apply(&mut plan, &read(config!("vit-base-patch16-224-in21k.json")).unwrap()).unwrap();
    assert_eq!((plan.gpu.seq_len, shape(&plan).vocab), (197, 0), "196 patches and the class token");

    apply(&mut plan, &read(config!("flan-t5-xxl.json")).unwrap()).unwrap();
    assert_eq!((shape(&plan).layers, shape(&plan).head_dim), (48, 64));
}

/// Issue 11 item 7: an import could overflow the parameter count and bypass the
/// form's ranges, so the link the page wrote did not load. Now an import is
/// checked like typed values, and what it sets always survives its link.
#[test]
fn an_import_is_checked_like_typed_values_and_its_link_loads() {
    let mut plan = Plan::default();
    let before = plan.clone();
    let huge = r#"{"hidden_size": 1000000000000, "num_hidden_layers": 4000000000, "num_attention_heads": 1,
        "intermediate_size": 4000000000, "vocab_size": 4000000000}"#;
    match read(huge) {
        Err(message) => assert!(message.contains("64 bits"), "{message}"),
        Ok(import) => assert!(apply(&mut plan, &import).is_err()),
    }
    let too_deep = r#"{"hidden_size": 4096, "num_hidden_layers": 5000, "num_attention_heads": 32}"#;
    let errors = apply(&mut plan, &read(too_deep).unwrap()).unwrap_err();
    assert!(errors.iter().any(|e| e.contains("num_hidden_layers") && e.contains("between 0 and 1000")), "{errors:?}");
    assert_eq!(plan, before, "a refused import changes nothing");
    assert!(read("{").unwrap_err().contains("not valid JSON"));
    assert!(read("[1]").unwrap_err().contains("JSON object"));
    assert!(read(r#"{"hidden_size": 10}"#).unwrap_err().contains("num_hidden_layers"));
    assert!(read(r#"{"hidden_size": 10, "num_hidden_layers": 2, "num_attention_heads": 3}"#).is_err());

    for json in [config!("gemma-7b.json"), config!("mixtral-8x7b-instruct-v0.1.json"), config!("flan-t5-xxl.json")] {
        let mut imported = Plan::default();
        apply(&mut imported, &read(json).unwrap()).unwrap();
        let link: Vec<(String, String)> =
            fields::diff_pairs(&imported).into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        let mut reloaded = Plan::default();
        assert!(fields::apply(&mut reloaded, &link).is_empty(), "{link:?}");
        assert_eq!(reloaded, imported, "the link reproduces the import");
        let _ = evaluate(&reloaded);
    }
}
