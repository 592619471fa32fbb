//! The job's own settings, as the log prints them (`batch_size=32`,
//! `--num_workers 8`, `max_model_len=4096`, `torch_dtype=float32`, HF
//! Trainer's "Instantaneous batch size per device = 8"): read in the
//! diagnoser's one pass, on the lines where a setting's name was found, so
//! fixes can name old and new values without reading the log again.

use crate::scan::find_all_ci;
use serde::Serialize;

/// A setting a fix may change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Knob {
    /// Samples per GPU per step.
    MicroBatch,
    /// DataLoader worker processes per rank.
    Workers,
    /// Sequence length or context window.
    SeqLen,
    /// vLLM's share of the GPU.
    GpuMemUtil,
    /// The parameters' or computation's dtype.
    Dtype,
    GradAccumulation,
    GradCheckpointing,
}

/// A name a log may give a knob, and how much to trust it: a more specific
/// name (`per_device_train_batch_size`) wins over a generic one (`batch_size`).
pub struct Name {
    pub text: &'static str,
    pub knob: Knob,
    pub rank: u8,
}

const fn name(text: &'static str, knob: Knob, rank: u8) -> Name {
    Name { text, knob, rank }
}

pub const NAMES: &[Name] = &[
    name("per_device_train_batch_size", Knob::MicroBatch, 0),
    name("train_micro_batch_size_per_gpu", Knob::MicroBatch, 0),
    name("micro_batch_size_per_gpu", Knob::MicroBatch, 0),
    name("Instantaneous batch size per device", Knob::MicroBatch, 0),
    name("micro_batch_size", Knob::MicroBatch, 1),
    name("batch_size", Knob::MicroBatch, 2),
    name("batch-size", Knob::MicroBatch, 2),
    name("num_workers", Knob::Workers, 0),
    name("num-workers", Knob::Workers, 0),
    name("max_model_len", Knob::SeqLen, 0),
    name("max-model-len", Knob::SeqLen, 0),
    name("max_seq_len", Knob::SeqLen, 1),
    name("max_seq_length", Knob::SeqLen, 1),
    name("seq_len", Knob::SeqLen, 2),
    name("max_length", Knob::SeqLen, 2),
    name("gpu_memory_utilization", Knob::GpuMemUtil, 0),
    name("gpu-memory-utilization", Knob::GpuMemUtil, 0),
    name("torch_dtype", Knob::Dtype, 0),
    name("dtype", Knob::Dtype, 1),
    name("gradient_accumulation_steps", Knob::GradAccumulation, 0),
    name("Gradient Accumulation steps", Knob::GradAccumulation, 0),
    name("accumulate_grad_batches", Knob::GradAccumulation, 0),
    name("gradient_checkpointing", Knob::GradCheckpointing, 0),
];

/// One setting found in the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Setting {
    pub knob: Knob,
    /// The name as the log wrote it (`ppo_micro_batch_size_per_gpu`).
    pub name: String,
    /// The value as the log wrote it (`32`, `0.9`, `float32`, `True`).
    pub value: String,
    /// 1-based line number.
    pub line: usize,
    #[serde(skip)]
    rank: u8,
}

/// The settings found, at most one per knob: the most specific name, then the first seen.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Settings(Vec<Setting>);

impl Settings {
    pub fn get(&self, knob: Knob) -> Option<&Setting> {
        self.0.iter().find(|s| s.knob == knob)
    }

    /// A whole-number setting (a batch, a count, a length).
    pub fn number(&self, knob: Knob) -> Option<u64> {
        self.get(knob)?.value.parse().ok()
    }

    /// A fraction such as `gpu_memory_utilization=0.9`.
    pub fn fraction(&self, knob: Knob) -> Option<f64> {
        self.get(knob)?.value.parse().ok().filter(|f: &f64| *f > 0.0 && *f <= 1.0)
    }

    pub fn iter(&self) -> impl Iterator<Item = &Setting> {
        self.0.iter()
    }

    /// Reads `name` wherever it stands as a setting on `line`.
    pub fn read(&mut self, name: &'static Name, line: &str, line_no: usize) {
        if self.get(name.knob).is_some_and(|s| s.rank <= name.rank) {
            return;
        }
        let Some((written, value)) = find_all_ci(line, name.text).find_map(|at| value_after(line, at, name.text.len()))
        else {
            return;
        };
        if !plausible(name.knob, value) {
            return;
        }
        let setting = Setting {
            knob: name.knob,
            name: written.to_string(),
            value: value.to_string(),
            line: line_no,
            rank: name.rank,
        };
        match self.0.iter_mut().find(|s| s.knob == name.knob) {
            Some(existing) => *existing = setting,
            None => self.0.push(setting),
        }
    }
}

/// Words in a prefix that make a name another setting: the eval batch
/// (`eval_batch_size`), the global batch (`train_batch_size`, `ppo_mini_batch_size`).
const OTHER_SETTINGS: [&str; 8] = ["eval", "val", "test", "train", "mini", "global", "total", "max"];

/// The name as written and the value of the setting whose name is at `text[at..at + len]`, if the name
/// is the setting's own (`batch_size`, `ppo_micro_batch_size_per_gpu`, not
/// `eval_batch_size` or `train_batch_size`) and is followed by `=`, `:`, a
/// space (`--num_workers 8`) or a quote and then a value.
fn value_after(text: &str, at: usize, len: usize) -> Option<(&str, &str)> {
    let head = &text[..at];
    let identifier_start = head
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let prefix = &head[identifier_start..];
    let prefix = prefix.to_ascii_lowercase();
    if head.ends_with(char::is_alphanumeric) || OTHER_SETTINGS.iter().any(|o| prefix.contains(o)) {
        return None;
    }
    let rest = &text[at + len..];
    if rest.chars().next().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        return None;
    }
    let rest = rest.trim_start_matches([' ', '"', '\'', '=', ':', '\t']);
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '.' || c == '_')).unwrap_or(rest.len());
    let value = rest[..end].trim_end_matches('.');
    (!value.is_empty()).then_some((&text[identifier_start..at + len], value))
}

fn plausible(knob: Knob, value: &str) -> bool {
    let number = value.parse::<f64>().ok();
    match knob {
        Knob::MicroBatch | Knob::GradAccumulation => {
            number.is_some_and(|n| (1.0..=1e6).contains(&n) && n.fract() == 0.0)
        }
        Knob::Workers => number.is_some_and(|n| (0.0..=4096.0).contains(&n) && n.fract() == 0.0),
        Knob::SeqLen => number.is_some_and(|n| (1.0..=1e9).contains(&n) && n.fract() == 0.0),
        Knob::GpuMemUtil => number.is_some_and(|n| n > 0.0 && n <= 1.0),
        Knob::Dtype => value.chars().any(|c| c.is_ascii_digit()) || value.eq_ignore_ascii_case("auto"),
        Knob::GradCheckpointing => ["true", "false", "1", "0"].iter().any(|v| value.eq_ignore_ascii_case(v)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(lines: &[&str]) -> Settings {
        let mut s = Settings::default();
        for (i, line) in lines.iter().enumerate() {
            for name in NAMES {
                if crate::scan::find_ci(line, name.text).is_some() {
                    s.read(name, line, i + 1);
                }
            }
        }
        s
    }

    #[test]
    fn reads_the_usual_spellings() {
        let s = read_all(&[
            "python train.py --batch_size 32 --num_workers=8",
            "Initializing an LLM engine with config: max_model_len=4096, gpu_memory_utilization=0.9, dtype=torch.bfloat16",
            "  Instantaneous batch size per device = 8",
            "{\"gradient_accumulation_steps\": 4, \"eval_batch_size\": 64}",
        ]);
        assert_eq!(s.number(Knob::MicroBatch), Some(8), "the per-device figure beats a generic batch_size");
        assert_eq!(s.get(Knob::MicroBatch).map(|m| m.line), Some(3));
        assert_eq!(s.number(Knob::Workers), Some(8));
        assert_eq!(s.number(Knob::SeqLen), Some(4096));
        assert_eq!(s.fraction(Knob::GpuMemUtil), Some(0.9));
        assert_eq!(s.number(Knob::GradAccumulation), Some(4));
        assert_eq!(s.get(Knob::Dtype).map(|d| d.value.as_str()), Some("torch.bfloat16"));
        let s = read_all(&["actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=32"]);
        assert_eq!(s.number(Knob::MicroBatch), Some(32), "a prefixed per-GPU micro batch is the micro batch");
    }

    #[test]
    fn ignores_names_inside_other_names_and_implausible_values() {
        let s = read_all(&[
            "eval_batch_size=64 train_batch_size=1024 ppo_mini_batch_size=256",
            "batch_size_finder done",
            "num_workers=-1",
        ]);
        assert_eq!(s.number(Knob::MicroBatch), None);
        assert_eq!(s.number(Knob::Workers), None);
        let s = read_all(&["gpu_memory_utilization=1.5"]);
        assert_eq!(s.fraction(Knob::GpuMemUtil), None);
        // Found by cargo fuzz: a multi-byte character right before the name.
        let s = read_all(&["\u{FFFD}batch_size=4", "é--num_workers 2"]);
        assert_eq!((s.number(Knob::MicroBatch), s.number(Knob::Workers)), (Some(4), Some(2)));
    }
}
