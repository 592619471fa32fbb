//! DeepSpeed's estimators against the example tables of its documentation,
//! "Memory Requirements" (docs/code-docs/source/memory.rst,
//! https://deepspeed.readthedocs.io/en/latest/memory.html), digit for digit.
//! The "live" examples load t5-3b; its parameter count comes here from its
//! config.json through Headroom's own T5 reader, so the tables also check it.

use super::*;
use crate::budget::hf_config;
use crate::budget::model::Arch;

/// google-t5/t5-3b's config.json, the keys that set its size
/// (https://huggingface.co/hyyoka/t5-3b-finetuned-mrpc/commit/f48e326142bd6e0ff47e3ba955e2c0dbfab413d9,
/// a copy naming "google-t5/t5-3b").
const T5_3B: &str = r#"{"_name_or_path": "google-t5/t5-3b", "architectures": ["T5ForConditionalGeneration"],
    "d_ff": 16384, "d_kv": 128, "d_model": 1024, "feed_forward_proj": "relu", "is_gated_act": false,
    "model_type": "t5", "n_positions": 512, "num_decoder_layers": 24, "num_heads": 32, "num_layers": 24,
    "relative_attention_max_distance": 128, "relative_attention_num_buckets": 32, "vocab_size": 32128}"#;

fn t5_3b(gpus_per_node: u32) -> Setup {
    let import = hf_config::read(T5_3B).unwrap();
    let mut plan = Plan::default();
    hf_config::apply(&mut plan, &import).unwrap();
    let Arch::Transformer(shape) = plan.gpu.model.arch else { panic!("t5-3b is a transformer") };
    Setup { total_params: import.params, largest_layer_params: shape.largest_layer_params(), gpus_per_node, nodes: 1 }
}

/// Lines compared without trailing spaces (DeepSpeed pads `cpu` to four
/// characters; the documentation's listing drops the trailing one).
fn same(ours: &str, published: &str) {
    let trim = |t: &str| t.lines().map(str::trim_end).map(String::from).collect::<Vec<_>>();
    assert_eq!(trim(ours), trim(published.trim_matches('\n')), "ours:\n{ours}");
}

#[test]
fn t5_3b_has_the_parameters_deepspeed_counted() {
    let setup = t5_3b(8);
    // "SW: Model with 2851M total params, 32M largest layer params": the shared 32128 x 1024 embedding.
    assert_eq!((setup.total_params, setup.largest_layer_params), (2_851_598_336, 32_899_072));
}

#[test]
fn zero2_tables_of_the_documentation() {
    same(
        &zero2(t5_3b(8), Zero2Formula::Documented).text(),
        "
Estimated memory needed for params, optim states and gradients for a:
HW: Setup with 1 node, 8 GPUs per node.
SW: Model with 2851M total params.
  per CPU  |  per GPU |   Options
  127.48GB |   5.31GB | offload_optimizer=cpu
  127.48GB |  15.93GB | offload_optimizer=none
",
    );
    let cold = Setup { total_params: 2_851_000_000, largest_layer_params: 0, gpus_per_node: 8, nodes: 1 };
    same(
        &zero2(cold, Zero2Formula::Documented).text(),
        "
Estimated memory needed for params, optim states and gradients for a:
HW: Setup with 1 node, 8 GPUs per node.
SW: Model with 2851M total params.
  per CPU  |  per GPU |   Options
  127.45GB |   5.31GB | offload_optimizer=cpu
  127.45GB |  15.93GB | offload_optimizer=none
",
    );
    // Since pull request #5099 the row without offload is 2Ψ + 18Ψ/N: 5.70 GB + 6.41 GB for t5-3b on 8 GPUs.
    let current = zero2(t5_3b(8), Zero2Formula::Current);
    assert_eq!(current.rows[1].per_gpu, Bytes(2 * 2_851_598_336 + 18 * 2_851_598_336 / 8));
    assert!(current.text().ends_with("  127.48GB |  11.29GB | offload_optimizer=none"), "{}", current.text());
}

#[test]
fn zero3_tables_of_the_documentation() {
    same(
        &zero3(t5_3b(8)).text(),
        "
Estimated memory needed for params, optim states and gradients for a:
HW: Setup with 1 node, 8 GPUs per node.
SW: Model with 2851M total params, 32M largest layer params.
  per CPU  |  per GPU |   Options
   71.71GB |   0.12GB | offload_param=cpu , offload_optimizer=cpu , zero_init=1
  127.48GB |   0.12GB | offload_param=cpu , offload_optimizer=cpu , zero_init=0
   63.74GB |   0.79GB | offload_param=none, offload_optimizer=cpu , zero_init=1
  127.48GB |   0.79GB | offload_param=none, offload_optimizer=cpu , zero_init=0
    1.47GB |   6.10GB | offload_param=none, offload_optimizer=none, zero_init=1
  127.48GB |   6.10GB | offload_param=none, offload_optimizer=none, zero_init=0
",
    );
    let cold = Setup { total_params: 2_851_000_000, largest_layer_params: 32_000_000, gpus_per_node: 8, nodes: 1 };
    same(
        &zero3(cold).text(),
        "
Estimated memory needed for params, optim states and gradients for a:
HW: Setup with 1 node, 8 GPUs per node.
SW: Model with 2851M total params, 32M largest layer params.
  per CPU  |  per GPU |   Options
   71.69GB |   0.12GB | offload_param=cpu , offload_optimizer=cpu , zero_init=1
  127.45GB |   0.12GB | offload_param=cpu , offload_optimizer=cpu , zero_init=0
   63.72GB |   0.78GB | offload_param=none, offload_optimizer=cpu , zero_init=1
  127.45GB |   0.78GB | offload_param=none, offload_optimizer=cpu , zero_init=0
    1.43GB |   6.09GB | offload_param=none, offload_optimizer=none, zero_init=1
  127.45GB |   6.09GB | offload_param=none, offload_optimizer=none, zero_init=0
",
    );
}

/// t5-small (60,506,624 parameters, largest layer 16,449,536) on 1 node x 1
/// GPU, as printed in https://blog.csdn.net/u012327567/article/details/132278598.
#[test]
fn zero3_table_for_t5_small_on_one_gpu() {
    let setup = Setup { total_params: 60_506_624, largest_layer_params: 16_449_536, gpus_per_node: 1, nodes: 1 };
    let text = zero3(setup).text();
    let rows: Vec<String> = text
        .lines()
        .skip(4)
        .map(|l| l.split('|').take(2).collect::<Vec<_>>().join("|").split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        rows,
        [
            "1.52GB | 0.06GB",
            "1.52GB | 0.06GB",
            "1.35GB | 0.17GB",
            "1.35GB | 0.17GB",
            "0.09GB | 1.08GB",
            "0.34GB | 1.08GB"
        ]
    );
    assert!(text.contains("HW: Setup with 1 node, 1 GPU per node."));
}

/// The page's view: DeepSpeed's rows beside Headroom's own model states, which
/// for the same stage count 16 bytes a parameter where DeepSpeed counts 18.
#[test]
fn the_view_sets_deepspeed_beside_headroom() {
    let mut plan = Plan::default();
    plan.gpu.gpus = 8;
    plan.host.ranks_per_node = 4;
    let view = view(&plan).unwrap();
    assert_eq!((view.zero2.setup.nodes, view.zero2.setup.gpus_per_node), (2, 4));
    let psi = plan.gpu.model.params as f64;
    // ZeRO-2 without offload: 2Ψ + 14Ψ/8 (ZeRO paper) against 2Ψ + 18Ψ/8.
    let ours = view.headroom_zero2[1].as_f64();
    assert!((ours - psi * (2.0 + 14.0 / 8.0)).abs() < 2.0, "{ours}");
    assert!(view.zero2.rows[1].per_gpu.as_f64() > ours);
    assert_eq!(view.headroom_zero3.len(), 6);
    let mut inference = plan.clone();
    inference.gpu.workload = crate::budget::gpu::Workload::Inference;
    assert!(super::view(&inference).is_none(), "the estimators are for training");
}
