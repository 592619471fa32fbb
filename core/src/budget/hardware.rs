//! GPU presets: nominal memory as vendors state it. A card sold as "80 GB"
//! has 80 GiB of DRAM, of which CUDA reports a little less (79.18 GiB on the
//! lab's 80 GB cards, seed 001); the CUDA-context term covers the difference.

use crate::units::{Bytes, GIB};

pub struct GpuModel {
    pub name: &'static str,
    pub memory: Bytes,
}

pub const GPUS: [GpuModel; 14] = [
    GpuModel { name: "T4", memory: Bytes(16 * GIB) },
    GpuModel { name: "V100-16GB", memory: Bytes(16 * GIB) },
    GpuModel { name: "V100-32GB", memory: Bytes(32 * GIB) },
    GpuModel { name: "A10", memory: Bytes(24 * GIB) },
    GpuModel { name: "L4", memory: Bytes(24 * GIB) },
    GpuModel { name: "RTX-3090", memory: Bytes(24 * GIB) },
    GpuModel { name: "RTX-4090", memory: Bytes(24 * GIB) },
    GpuModel { name: "A100-40GB", memory: Bytes(40 * GIB) },
    GpuModel { name: "A6000", memory: Bytes(48 * GIB) },
    GpuModel { name: "L40S", memory: Bytes(48 * GIB) },
    GpuModel { name: "A100-80GB", memory: Bytes(80 * GIB) },
    GpuModel { name: "H100-80GB", memory: Bytes(80 * GIB) },
    GpuModel { name: "H100-94GB", memory: Bytes(94 * GIB) },
    GpuModel { name: "H200", memory: Bytes(141 * GIB) },
];

pub fn gpu(name: &str) -> Option<&'static GpuModel> {
    GPUS.iter().find(|g| g.name.eq_ignore_ascii_case(name))
}
