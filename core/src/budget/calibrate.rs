//! Calibrate the calculator from a measurement: `torch.cuda.memory_summary()`
//! tables, `torch.cuda.max_memory_allocated()` figures or an `nvidia-smi`
//! table, each at a micro batch. Measured against predicted per batch, and
//! with two batch sizes or more, split into what does not grow with the batch
//! (weights, gradients, optimizer states) and what grows per sample
//! (activations): the fitted per-sample figure is the one a network that is
//! not a transformer needs (the `act_mib` field), measured instead of guessed.

use super::gpu::{self, Component, GpuBudget, Workload};
use super::Plan;
use crate::scan::{find_ci, leading_integer, leading_size};
use crate::units::{Bytes, UnitConvention::Binary, MIB};
use serde::Serialize;

/// What a figure counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Measured {
    /// `max_memory_allocated()`, memory_summary's "Allocated memory" peak: live tensors.
    Allocated,
    /// `max_memory_reserved()`, "GPU reserved memory" peak: the caching allocator's segments.
    Reserved,
    /// nvidia-smi's memory use: the whole process, CUDA context included.
    Device,
}

impl Measured {
    pub fn label(self) -> &'static str {
        match self {
            Measured::Allocated => "allocated (tensors)",
            Measured::Reserved => "reserved (allocator)",
            Measured::Device => "nvidia-smi (device)",
        }
    }

    /// The part of a prediction this kind of figure counts.
    fn of(self, budget: &GpuBudget) -> f64 {
        let without = |parts: &[Component]| {
            budget.parts.iter().filter(|(c, _)| !parts.contains(c)).map(|(_, b)| b.as_f64()).sum::<f64>()
        };
        match self {
            Measured::Allocated => {
                without(&[Component::CudaContext, Component::Fragmentation, Component::VllmReservation])
            }
            Measured::Reserved => without(&[Component::CudaContext, Component::VllmReservation]),
            Measured::Device => without(&[]),
        }
    }
}

/// One figure read from the pasted text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Measurement {
    /// None when no batch size was given for it: the plan's micro batch is assumed.
    pub batch: Option<u32>,
    pub kind: Measured,
    pub bytes: Bytes,
    /// 1-based line number.
    pub line: usize,
}

/// A batch size named on the line (`batch 8`, `batch_size=8`, `micro_batch: 8`), and where it ends.
fn batch_in(line: &str) -> Option<(u32, usize)> {
    let at = find_ci(line, "batch")?;
    let rest = &line[at + 5..];
    let skipped = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_alphabetic() || " _=:-".contains(c)).len();
    let digits = &rest[skipped..];
    let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
    let batch = digits[..end].parse().ok().filter(|&b| b > 0)?;
    Some((batch, at + 5 + skipped + end))
}

/// The first size in `text`: a number with a unit, or a bare byte count (a
/// plain number below a million is not taken for bytes).
fn size_in(text: &str) -> Option<Bytes> {
    let starts = text.char_indices().filter(|&(i, c)| {
        c.is_ascii_digit() && !text[..i].ends_with(|p: char| p.is_ascii_alphanumeric() || p == '.' || p == '_')
    });
    starts
        .map(|(i, _)| &text[i..])
        .find_map(|at| leading_size(at, Binary).or_else(|| leading_integer(at).filter(|&n| n >= 1_000_000).map(Bytes)))
}

/// The kind a figure's line names.
fn kind_of(line: &str) -> Measured {
    if find_ci(line, "reserved").is_some() {
        Measured::Reserved
    } else if find_ci(line, "nvidia").is_some() {
        Measured::Device
    } else {
        Measured::Allocated
    }
}

/// Reads every figure in the text, each with the batch size last named.
pub fn parse(text: &str) -> Vec<Measurement> {
    let mut batch = None;
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut push = |kind, bytes, batch| found.push(Measurement { batch, kind, bytes, line: i + 1 });
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // memory_summary(): "| Allocated memory | cur | peak | total alloc | total freed |".
        if cells.len() >= 4 && (cells[1] == "Allocated memory" || cells[1] == "GPU reserved memory") {
            let kind = if cells[1] == "Allocated memory" { Measured::Allocated } else { Measured::Reserved };
            if let Some(peak) = leading_size(cells[3], Binary) {
                push(kind, peak, batch);
            }
            continue;
        }
        // nvidia-smi: "|  40536MiB / 81920MiB |", one per GPU.
        if let Some(slash) = line.find("MiB /") {
            let head = &line[..slash];
            if let Ok(mib) = head[head.trim_end_matches(|c: char| c.is_ascii_digit()).len()..].parse::<u64>() {
                push(Measured::Device, Bytes(mib * MIB), batch);
            }
            continue;
        }
        // "batch 8: 12.3 GiB", "batch_size=16 max_memory_allocated=23748542464", or "batch 8" alone.
        if let Some((b, end)) = batch_in(line) {
            batch = Some(b);
            if let Some(bytes) = size_in(&line[end..]) {
                push(kind_of(line), bytes, batch);
            }
            continue;
        }
        // "8: 12.3 GiB", "16 -> 23748542464": a batch, then a size.
        let trimmed = line.trim_start();
        let leading = trimmed.find(|c: char| !c.is_ascii_digit()).unwrap_or(trimmed.len());
        let rest = &trimmed[leading..];
        let separated = rest.starts_with([':', ' ', '-', '=', ',', '\t']);
        let leading_batch = trimmed[..leading].parse::<u32>().ok().filter(|b| (1..=65_536).contains(b));
        if let (Some(b), true, Some(bytes)) = (leading_batch, separated, size_in(rest)) {
            push(kind_of(line), bytes, Some(b));
        } else if find_ci(line, "memory_allocated").is_some() || find_ci(line, "memory_reserved").is_some() {
            // "max_memory_allocated: 13.2 GiB" after a "batch 8" line.
            if let Some(bytes) = size_in(line) {
                push(kind_of(line), bytes, batch);
            }
        }
    }
    found
}

/// A measurement beside the prediction for the same batch and kind.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Point {
    pub batch: u32,
    pub kind: Measured,
    pub measured: Bytes,
    pub predicted: Bytes,
}

/// Two batch sizes or more, of one kind: memory = fixed + batch x per sample.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Fit {
    pub kind: Measured,
    pub fixed: Bytes,
    pub per_sample: Bytes,
    pub predicted_fixed: Bytes,
    pub predicted_per_sample: Bytes,
}

impl Fit {
    /// The per-sample activation figure for the `act_mib` field.
    pub fn act_mib(&self) -> f64 {
        self.per_sample.as_f64() / MIB as f64
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Calibration {
    pub points: Vec<Point>,
    pub fit: Option<Fit>,
    /// Why no fit, or what to check.
    pub notes: Vec<String>,
}

/// Least squares over (batch, bytes): (intercept, slope).
fn line_through(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let n = points.len() as f64;
    let (sx, sy) = points.iter().fold((0.0, 0.0), |(sx, sy), (x, y)| (sx + x, sy + y));
    let (mx, my) = (sx / n, sy / n);
    let sxx: f64 = points.iter().map(|(x, _)| (x - mx) * (x - mx)).sum();
    let sxy: f64 = points.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    (sxx > 0.0).then(|| (my - sxy / sxx * mx, sxy / sxx))
}

pub fn calibrate(plan: &Plan, text: &str) -> Result<Calibration, String> {
    if plan.gpu.workload != Workload::Training {
        return Err("calibration compares training steps at different micro batches: set Workload to training".into());
    }
    let measurements = parse(text);
    if measurements.is_empty() {
        return Err("no memory figure found: paste torch.cuda.memory_summary(), `batch 8: 12.3 GiB` lines \
                    (max_memory_allocated at each batch) or an nvidia-smi table"
            .into());
    }
    let predict = |batch: u32, kind: Measured| kind.of(&gpu::compute_with_batch(&plan.gpu, batch));
    // One figure per batch and kind: the largest (the busiest GPU, the peak).
    let mut points: Vec<Point> = Vec::new();
    for m in &measurements {
        let batch = m.batch.unwrap_or(plan.gpu.micro_batch);
        match points.iter_mut().find(|p| p.batch == batch && p.kind == m.kind) {
            Some(p) => p.measured = p.measured.max(m.bytes),
            None => points.push(Point {
                batch,
                kind: m.kind,
                measured: m.bytes,
                predicted: Bytes::from_f64(predict(batch, m.kind)),
            }),
        }
    }
    points.sort_by_key(|p| (p.kind as u8, p.batch));
    let mut notes = Vec::new();
    let kinds = [Measured::Allocated, Measured::Reserved, Measured::Device];
    let fit = kinds.into_iter().find_map(|kind| {
        let xy: Vec<(f64, f64)> =
            points.iter().filter(|p| p.kind == kind).map(|p| (p.batch as f64, p.measured.as_f64())).collect();
        let (fixed, per_sample) = line_through(&xy)?;
        if per_sample <= 0.0 {
            notes.push(format!(
                "The {} figures do not grow with the batch: measure the peak (max_memory_allocated after a step, \
                 with torch.cuda.reset_peak_memory_stats() before) at each batch size.",
                kind.label()
            ));
            return None;
        }
        let predicted_fixed = predict(0, kind);
        Some(Fit {
            kind,
            fixed: Bytes::from_f64(fixed),
            per_sample: Bytes::from_f64(per_sample),
            predicted_fixed: Bytes::from_f64(predicted_fixed),
            predicted_per_sample: Bytes::from_f64(predict(1, kind) - predicted_fixed),
        })
    });
    if fit.is_none() && notes.is_empty() {
        notes.push("One batch size: measure at a second one to split fixed and per-sample memory.".into());
    }
    Ok(Calibration { points, fit, notes })
}

#[cfg(test)]
mod tests;
