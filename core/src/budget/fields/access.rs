//! Reading and writing one field of a [`Plan`] as text, with validation.

use super::shape::{is_shape_key, set_shape, shape_value};
use super::{parse_number, Field, Kind};
use crate::budget::gpu::{Adapter, Checkpointing, Dtype, Optimizer, Sharding, Workload};
use crate::budget::hardware::gpu;
use crate::budget::model::{preset, Arch};
use crate::budget::Plan;
use crate::units::{Bytes, GIB, MIB};

pub(super) fn check_number(f: &Field, text: &str) -> Result<f64, String> {
    let Kind::Number { min, max, integer } = f.kind else { return Err("not a number field".into()) };
    let value = parse_number(text)?;
    if value < min || value > max {
        return Err(format!("must be between {} and {}", short(min), short(max)));
    }
    if integer && value.fract() != 0.0 {
        return Err("must be a whole number".into());
    }
    Ok(value)
}

fn short(v: f64) -> String {
    if v >= 1e6 {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

fn parse_bool(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        other => Err(format!("`{other}` is not true or false")),
    }
}

fn gib(value: f64) -> Bytes {
    Bytes::from_f64(value * GIB as f64)
}

fn in_gib(b: Bytes) -> String {
    trim_float(b.as_f64() / GIB as f64)
}

fn trim_float(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Sets one field from text. On error the plan is unchanged and the message
/// (which may quote the text) is kept short.
pub fn set(plan: &mut Plan, key: &str, text: &str) -> Result<(), String> {
    set_text(plan, key, text).map_err(|message| super::cut(&message, 160))
}

fn set_text(plan: &mut Plan, key: &str, text: &str) -> Result<(), String> {
    let f = super::field(key).ok_or_else(|| format!("unknown field `{}`", super::cut(key, 40)))?;
    if let Kind::Choice(options) = f.kind {
        let wanted = text.trim();
        let Some(choice) = options().into_iter().find(|o| o.eq_ignore_ascii_case(wanted)) else {
            return Err(format!("`{wanted}` is not one of: {}", options().join(", ")));
        };
        return set_choice(plan, key, &choice);
    }
    if matches!(f.kind, Kind::Bool) {
        let value = parse_bool(text)?;
        let g = &mut plan.gpu;
        match key {
            "master" => g.fp32_master = value,
            "flash" => g.flash_attention = value,
            "offload_params" => g.offload_params = value,
            "offload_optimizer" => g.offload_optimizer = value,
            "persistent" => plan.host.persistent_workers = value,
            _ => return Err(format!("unknown field `{key}`")),
        }
        return Ok(());
    }
    let v = check_number(f, text)?;
    let (g, h) = (&mut plan.gpu, &mut plan.host);
    match key {
        "params" => {
            g.model.params = v.round() as u64;
            g.model.name = "custom".into();
        }
        shape if is_shape_key(shape) => set_shape(&mut g.model, &[(shape, v as u32)])?,
        "act_mib" => {
            g.model.arch = Arch::Other { activation_bytes_per_sample: (v * MIB as f64) as u64 };
            g.model.name = "custom".into();
        }
        "micro_batch" => {
            g.micro_batch = v as u32;
            h.batch_size = v as u32;
        }
        "seq_len" => g.seq_len = v as u32,
        "gpus" => g.gpus = v as u32,
        "lora_rank" => g.adapter = if v == 0.0 { Adapter::Full } else { Adapter::Lora { rank: v as u32 } },
        "kv_batch" => g.kv_batch = v as u32,
        "vllm_util" => g.vllm_utilization = v,
        "block_size" => g.block_size = v as u32,
        "vllm_overhead_gib" => g.vllm_overhead = (v > 0.0).then(|| gib(v)),
        "vllm_target_tokens" => g.vllm_target_tokens = v as u64,
        "gpu_mem_gib" => {
            g.capacity = gib(v);
            plan.gpu_name = "custom".into();
        }
        "context_gib" => g.cuda_context = gib(v),
        "frag_pct" => g.fragmentation = v / 100.0,
        "ranks" => h.ranks_per_node = v as u32,
        "main_gib" => h.main_process = gib(v),
        "workers" => h.workers = v as u32,
        "worker_gib" => h.worker = gib(v),
        "prefetch" => h.prefetch_factor = v as u32,
        "sample_mib" => h.sample = Bytes::from_f64(v * MIB as f64),
        "val_workers" => h.val_workers = v as u32,
        "val_data_gib" => h.val_dataset = gib(v),
        "pinned_gib" => h.pinned = gib(v),
        "mem_gib" => h.slurm_mem = gib(v),
        "node_gib" => h.node_ram = gib(v),
        _ => return Err(format!("unknown field `{key}`")),
    }
    Ok(())
}

fn set_choice(plan: &mut Plan, key: &str, choice: &str) -> Result<(), String> {
    let g = &mut plan.gpu;
    match key {
        "model" => {
            if let Some(m) = preset(choice) {
                g.model = m;
            } else {
                g.model.name = "custom".into();
            }
        }
        "gpu" => {
            plan.gpu_name = choice.to_string();
            if let Some(card) = gpu(choice) {
                g.capacity = card.memory;
            }
        }
        "workload" => g.workload = if choice == "inference" { Workload::Inference } else { Workload::Training },
        "dtype" => {
            g.weights = match choice {
                "fp32" => Dtype::Fp32,
                "int8" => Dtype::Int8,
                "int4" => Dtype::Int4,
                _ => Dtype::Bf16,
            }
        }
        "optimizer" => {
            g.optimizer = match choice {
                "adam-8bit" => Optimizer::Adam8bit,
                "adafactor" => Optimizer::Adafactor,
                "sgd-momentum" => Optimizer::SgdMomentum,
                "sgd" => Optimizer::Sgd,
                _ => Optimizer::Adam,
            }
        }
        "ckpt" => {
            g.checkpointing = match choice {
                "selective" => Checkpointing::Selective,
                "full" => Checkpointing::Full,
                _ => Checkpointing::None,
            }
        }
        "sharding" => {
            g.sharding = match choice {
                "zero1" => Sharding::Zero1,
                "zero2" => Sharding::Zero2,
                "zero3" => Sharding::Zero3,
                _ => Sharding::Replicated,
            }
        }
        _ => return Err(format!("unknown field `{key}`")),
    }
    Ok(())
}

/// The text value of a field, as the form shows it and the URL stores it.
pub fn get(plan: &Plan, key: &str) -> String {
    let (g, h) = (&plan.gpu, &plan.host);
    let on = |b: bool| if b { "true" } else { "false" }.to_string();
    match key {
        "model" => {
            if preset(&g.model.name).is_some() {
                g.model.name.clone()
            } else {
                "custom".into()
            }
        }
        "params" => g.model.params.to_string(),
        shape if is_shape_key(shape) => shape_value(&g.model, shape),
        "act_mib" => match g.model.arch {
            Arch::Other { activation_bytes_per_sample } => trim_float(activation_bytes_per_sample as f64 / MIB as f64),
            Arch::Transformer(_) => "0".into(),
        },
        "workload" => if g.workload == Workload::Inference { "inference" } else { "training" }.into(),
        "dtype" => match g.weights {
            Dtype::Fp32 => "fp32",
            Dtype::Bf16 => "bf16",
            Dtype::Int8 => "int8",
            Dtype::Int4 => "int4",
        }
        .into(),
        "master" => on(g.fp32_master),
        "optimizer" => match g.optimizer {
            Optimizer::Adam => "adam",
            Optimizer::Adam8bit => "adam-8bit",
            Optimizer::Adafactor => "adafactor",
            Optimizer::SgdMomentum => "sgd-momentum",
            Optimizer::Sgd => "sgd",
        }
        .into(),
        "ckpt" => match g.checkpointing {
            Checkpointing::None => "none",
            Checkpointing::Selective => "selective",
            Checkpointing::Full => "full",
        }
        .into(),
        "flash" => on(g.flash_attention),
        "micro_batch" => g.micro_batch.to_string(),
        "seq_len" => g.seq_len.to_string(),
        "sharding" => match g.sharding {
            Sharding::Replicated => "ddp",
            Sharding::Zero1 => "zero1",
            Sharding::Zero2 => "zero2",
            Sharding::Zero3 => "zero3",
        }
        .into(),
        "gpus" => g.gpus.to_string(),
        "offload_params" => on(g.offload_params),
        "offload_optimizer" => on(g.offload_optimizer),
        "lora_rank" => match g.adapter {
            Adapter::Full => 0,
            Adapter::Lora { rank } => rank,
        }
        .to_string(),
        "kv_batch" => g.kv_batch.to_string(),
        "vllm_util" => trim_float(g.vllm_utilization),
        "block_size" => g.block_size.to_string(),
        "vllm_overhead_gib" => g.vllm_overhead.map_or("0".into(), in_gib),
        "vllm_target_tokens" => g.vllm_target_tokens.to_string(),
        "gpu" => plan.gpu_name.clone(),
        "gpu_mem_gib" => in_gib(g.capacity),
        "context_gib" => in_gib(g.cuda_context),
        "frag_pct" => trim_float(g.fragmentation * 100.0),
        "ranks" => h.ranks_per_node.to_string(),
        "main_gib" => in_gib(h.main_process),
        "workers" => h.workers.to_string(),
        "worker_gib" => in_gib(h.worker),
        "prefetch" => h.prefetch_factor.to_string(),
        "sample_mib" => trim_float(h.sample.as_f64() / MIB as f64),
        "persistent" => on(h.persistent_workers),
        "val_workers" => h.val_workers.to_string(),
        "val_data_gib" => in_gib(h.val_dataset),
        "pinned_gib" => in_gib(h.pinned),
        "mem_gib" => in_gib(h.slurm_mem),
        "node_gib" => in_gib(h.node_ram),
        _ => String::new(),
    }
}
