//! Every input of the calculator as a named field with a text value: the one
//! description that the web form, the shareable URL, the CLI flags and the
//! TOML file all use. Setting a field validates it and explains a bad value;
//! nothing here panics on NaN, zero, negative or huge input.

mod access;
mod number;
mod shape;
mod table;

use super::hardware::gpu;
use super::model::{preset, Arch};
use super::Plan;
use serde::Serialize;

pub use access::{get, set};
pub use number::parse_number;
pub use table::FIELDS;

/// A field that did not take its value, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldError {
    pub key: String,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    Model,
    Training,
    Gpu,
    Vllm,
    Host,
}

#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// One of the listed values.
    Choice(fn() -> Vec<String>),
    Bool,
    /// A number in [min, max]; `integer` refuses fractions.
    Number {
        min: f64,
        max: f64,
        integer: bool,
    },
}

#[derive(Clone, Copy, Debug)]
pub struct Field {
    pub key: &'static str,
    pub label: &'static str,
    pub help: &'static str,
    pub section: Section,
    pub kind: Kind,
}

pub fn all_fields() -> impl Iterator<Item = &'static Field> {
    FIELDS.iter()
}

pub fn field(key: &str) -> Option<&'static Field> {
    all_fields().find(|f| f.key == key)
}

/// How many refused values a report spells out: a link with 100,000 unknown
/// keys froze the page for 11.5 s listing them all.
pub const MAX_REPORTED: usize = 20;

/// The values that were not used, the first [`MAX_REPORTED`] with their reason.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Rejected {
    pub shown: Vec<FieldError>,
    /// How many more were refused without being listed.
    pub more: usize,
}

impl Rejected {
    pub fn is_empty(&self) -> bool {
        self.shown.is_empty()
    }

    pub fn len(&self) -> usize {
        self.shown.len() + self.more
    }

    fn push(&mut self, key: &str, message: String) {
        if self.shown.len() < MAX_REPORTED {
            self.shown.push(FieldError { key: cut(key, 40), message });
        } else {
            self.more += 1;
        }
    }
}

/// At most `max` characters of a text from outside, marked when cut.
pub(crate) fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// Applies `key = value` pairs in order (model and GPU presets first, so a
/// later field can adjust them). Good values are kept; bad ones are reported.
pub fn apply(plan: &mut Plan, pairs: &[(String, String)]) -> Rejected {
    let mut ordered: Vec<&(String, String)> = pairs.iter().collect();
    ordered.sort_by_key(|(k, _)| !matches!(k.as_str(), "model" | "gpu"));
    let mut rejected = Rejected::default();
    let mut dimensions: Vec<(&str, u32)> = Vec::new();
    for (key, value) in ordered {
        let result = match field(key).filter(|f| shape::is_shape_key(f.key)) {
            Some(f) => access::check_number(f, value).map(|v| dimensions.push((f.key, v as u32))),
            None => set(plan, key, value),
        };
        if let Err(message) = result {
            rejected.push(key, message);
        }
    }
    if !dimensions.is_empty() {
        if let Err(message) = shape::set_shape(&mut plan.gpu.model, &dimensions) {
            let keys: Vec<&str> = dimensions.iter().map(|(k, _)| *k).collect();
            rejected.push(&keys.join(", "), message);
        }
    }
    rejected
}

/// Fields a preset already determines (a model preset gives the shape, a GPU
/// preset its memory), and a shape a non-transformer does not have.
fn implied(plan: &Plan, key: &str) -> bool {
    let model = &plan.gpu.model;
    let shape = shape::is_shape_key(key);
    let model_preset = preset(&model.name).is_some() && (shape || matches!(key, "params" | "act_mib"));
    let no_shape = matches!(model.arch, Arch::Other { .. }) && shape && key != "layers";
    model_preset || no_shape || (key == "gpu_mem_gib" && gpu(&plan.gpu_name).is_some())
}

/// The pairs that differ from the default plan: a short, shareable state.
pub fn diff_pairs(plan: &Plan) -> Vec<(&'static str, String)> {
    let base = Plan::default();
    all_fields()
        .filter(|f| !implied(plan, f.key) && get(plan, f.key) != get(&base, f.key))
        .map(|f| (f.key, get(plan, f.key)))
        .collect()
}

#[cfg(test)]
mod tests;
