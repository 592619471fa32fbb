//! A transformer's shape as fields. The shape's fields are checked together
//! (`apply` sets all those of a link at once), so a link may list them in any
//! order: `hidden=900&heads=30` must not fail on 900 not splitting into the
//! 32 heads of the default model it starts from.

use crate::budget::model::{Arch, ModelSpec, Shape};

pub const SHAPE_KEYS: [&str; 9] =
    ["layers", "hidden", "heads", "kv_heads", "head_dim", "intermediate", "vocab", "experts", "active_experts"];

pub fn is_shape_key(key: &str) -> bool {
    SHAPE_KEYS.contains(&key)
}

/// The shape a non-transformer starts from when one of its dimensions is typed.
fn starting_shape(model: &ModelSpec) -> Shape {
    match model.arch {
        Arch::Transformer(s) => s,
        Arch::Other { .. } => Shape::dense(0, 4096, 32, 32, 11008, 0),
    }
}

/// Sets shape fields together, checking the combination once. On error the model is unchanged.
pub fn set_shape(model: &mut ModelSpec, values: &[(&str, u32)]) -> Result<(), String> {
    let old = starting_shape(model);
    // A head dimension that follows hidden / heads keeps following it.
    let follows = old.head_dim == old.hidden / old.heads.max(1);
    let mut s = old;
    let mut head_dim_given = false;
    for &(key, value) in values {
        match key {
            "layers" => s.layers = value,
            "hidden" => s.hidden = value,
            "heads" => s.heads = value,
            "kv_heads" => s.kv_heads = value,
            "head_dim" => {
                s.head_dim = value;
                head_dim_given = true;
            }
            "intermediate" => s.intermediate = value,
            "vocab" => s.vocab = value,
            "experts" => s.experts = value,
            "active_experts" => s.active_experts = value,
            _ => return Err(format!("unknown field `{key}`")),
        }
    }
    if s.layers == 0 {
        // Not a transformer: a measured per-sample figure (act_mib) describes it.
        if matches!(model.arch, Arch::Transformer(_)) {
            model.arch = Arch::Other { activation_bytes_per_sample: 0 };
        }
        model.name = "custom".into();
        return Ok(());
    }
    if s.heads == 0 || s.hidden == 0 {
        return Err("hidden size and heads must be at least 1".into());
    }
    if follows && !head_dim_given {
        if !s.hidden.is_multiple_of(s.heads) {
            return Err(format!("hidden size {} is not a multiple of {} heads (or give head_dim)", s.hidden, s.heads));
        }
        s.head_dim = s.hidden / s.heads;
    }
    s.kv_heads = s.kv_heads.clamp(1, s.heads);
    s.experts = s.experts.max(1);
    s.active_experts = s.active_experts.clamp(1, s.experts);
    model.arch = Arch::Transformer(s);
    model.name = "custom".into();
    Ok(())
}

/// A shape field's value as text ("0" for a model that is not a transformer).
pub fn shape_value(model: &ModelSpec, key: &str) -> String {
    let Arch::Transformer(s) = model.arch else { return "0".into() };
    match key {
        "layers" => s.layers,
        "hidden" => s.hidden,
        "heads" => s.heads,
        "kv_heads" => s.kv_heads,
        "head_dim" => s.head_dim,
        "intermediate" => s.intermediate,
        "vocab" => s.vocab,
        "experts" => s.experts,
        _ => s.active_experts,
    }
    .to_string()
}
