//! Measurements in the formats PyTorch and nvidia-smi print them.

use super::*;
use crate::units::GIB;

/// `torch.cuda.memory_summary()`'s layout (binary units since
/// https://github.com/pytorch/pytorch/pull/91854); figures of a ResNet-style run.
fn summary(allocated_peak: &str, reserved_peak: &str) -> String {
    format!(
        "|===========================================================================|
|                  PyTorch CUDA memory summary, device ID 0                 |
|---------------------------------------------------------------------------|
|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |
|===========================================================================|
|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |
|---------------------------------------------------------------------------|
| Allocated memory      |   1024 MiB | {allocated_peak} |  120 GiB   |  119 GiB   |
|       from large pool |   1000 MiB | {allocated_peak} |  118 GiB   |  117 GiB   |
|       from small pool |     24 MiB |     30 MiB |    2 GiB   |    2 GiB   |
|---------------------------------------------------------------------------|
| GPU reserved memory   |   9216 MiB | {reserved_peak} |    9 GiB   |      0 B   |
|---------------------------------------------------------------------------|
"
    )
}

fn resnet_plan() -> Plan {
    let mut plan = Plan::default();
    crate::budget::fields::set(&mut plan, "model", "ResNet-50").unwrap();
    plan
}

#[test]
fn two_memory_summaries_fit_the_per_sample_activations() {
    let text = format!("batch 8\n{}\nbatch 16\n{}", summary("5.25 GiB", "6.00 GiB"), summary("8.45 GiB", "9.00 GiB"));
    let found = parse(&text);
    assert_eq!(found.len(), 4, "{found:?}");
    assert_eq!((found[0].batch, found[0].kind, found[0].bytes), (Some(8), Measured::Allocated, Bytes::from_gib(5.25)));
    assert_eq!((found[3].batch, found[3].kind), (Some(16), Measured::Reserved));

    let plan = resnet_plan();
    let c = calibrate(&plan, &text).unwrap();
    let fit = c.fit.unwrap();
    assert_eq!(fit.kind, Measured::Allocated);
    // (8.45 - 5.25) GiB over 8 samples: 0.4 GiB = 409.6 MiB a sample.
    assert!((fit.act_mib() - 409.6).abs() < 0.01, "{}", fit.act_mib());
    assert!((fit.fixed.as_f64() / GIB as f64 - 2.05).abs() < 1e-6, "{}", fit.fixed);
    // ResNet-50's preset: 25.6 M parameters x 16 bytes, 100 MiB a sample until measured.
    assert_eq!(fit.predicted_per_sample, Bytes(100 << 20));
    assert_eq!(fit.predicted_fixed, Bytes(25_600_000 * 16));
    let eight = c.points.iter().find(|p| p.batch == 8 && p.kind == Measured::Allocated).unwrap();
    assert_eq!(eight.predicted, Bytes(25_600_000 * 16 + 8 * (100 << 20)));

    // The fitted figure typed into the field makes the prediction match the slope.
    let mut calibrated = plan.clone();
    crate::budget::fields::set(&mut calibrated, "act_mib", &format!("{:.1}", fit.act_mib())).unwrap();
    let refit = calibrate(&calibrated, &text).unwrap().fit.unwrap();
    assert!((refit.predicted_per_sample.as_f64() - fit.per_sample.as_f64()).abs() < 1e5);
}

#[test]
fn max_memory_allocated_lines_and_nvidia_smi() {
    let lines = "8: 5.25 GiB\n16 -> 9072500326\nbatch_size=32 max_memory_allocated=14.85GiB\n";
    let found = parse(lines);
    let batches: Vec<Option<u32>> = found.iter().map(|m| m.batch).collect();
    assert_eq!(batches, [Some(8), Some(16), Some(32)]);
    assert_eq!(found[1].bytes, Bytes(9_072_500_326));
    let fit = calibrate(&resnet_plan(), lines).unwrap().fit.unwrap();
    assert!((fit.act_mib() - 409.6).abs() < 1.0, "{}", fit.act_mib());

    // nvidia-smi's table (its 535 driver layout): every GPU's use; the busiest counts.
    let smi = "batch 8
+---------------------------------------------------------------------------------------+
| NVIDIA-SMI 535.104.05             Driver Version: 535.104.05   CUDA Version: 12.2     |
|-----------------------------------------+----------------------+----------------------+
| GPU  Name                 Persistence-M | Bus-Id        Disp.A | Volatile Uncorr. ECC |
|=========================================+======================+======================|
|   0  NVIDIA A100-SXM4-80GB          On  | 00000000:07:00.0 Off |                    0 |
| N/A   45C    P0             250W / 400W |  40536MiB / 81920MiB |     98%      Default |
|   1  NVIDIA A100-SXM4-80GB          On  | 00000000:0A:00.0 Off |                    0 |
| N/A   44C    P0             245W / 400W |  41002MiB / 81920MiB |     97%      Default |
+-----------------------------------------+----------------------+----------------------+";
    let c = calibrate(&Plan::default(), smi).unwrap();
    assert_eq!(c.points.len(), 1);
    assert_eq!((c.points[0].kind, c.points[0].measured), (Measured::Device, Bytes(41_002 * MIB)));
    assert_eq!((c.points[0].batch, c.points[0].predicted), (8, gpu::compute_with_batch(&Plan::default().gpu, 8).total));
    assert!(c.fit.is_none() && c.notes[0].contains("second"), "{:?}", c.notes);
}

#[test]
fn what_cannot_be_read_says_why() {
    assert!(calibrate(&Plan::default(), "nothing here").unwrap_err().contains("no memory figure"));
    let mut inference = Plan::default();
    inference.gpu.workload = Workload::Inference;
    assert!(calibrate(&inference, "8: 5 GiB").unwrap_err().contains("training"));
    let shrinking = "8: 9 GiB\n16: 5 GiB\n";
    let c = calibrate(&resnet_plan(), shrinking).unwrap();
    assert!(c.fit.is_none() && c.notes[0].contains("do not grow"), "{:?}", c.notes);
}

#[test]
fn any_text_reads_without_a_panic() {
    for text in [
        "é40536MiB / 81920MiB",
        "batché 8: 5 GiB",
        "8: é5 GiB",
        "| Allocated memory | é | ü |",
        "batch",
        "MiB /",
        "1: 1",
    ] {
        let _ = calibrate(&resnet_plan(), text);
    }
    assert_eq!(parse("é40536MiB / 81920MiB")[0].bytes, Bytes(40_536 * MIB));
}
