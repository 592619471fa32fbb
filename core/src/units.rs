//! Memory sizes as logs and people write them, and back.
//!
//! Logs mix binary units (PyTorch prints `GiB`), SI units (`GB` in `sbatch`
//! requests and on spec sheets), bare suffixes (`--mem=256G`, which SLURM reads
//! as binary) and kernel `kB` (which the kernel means as KiB). Each parser here
//! states which convention it follows.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A number of bytes. `u64::MAX` stands for a figure too large to hold: the
/// conversions and sums below saturate there, and it prints as "more than".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Bytes(pub u64);

pub const KIB: u64 = 1 << 10;
pub const MIB: u64 = 1 << 20;
pub const GIB: u64 = 1 << 30;
pub const TIB: u64 = 1 << 40;
pub const PIB: u64 = 1 << 50;
pub const EIB: u64 = 1 << 60;

impl Bytes {
    /// A figure that did not fit in 64 bits.
    pub const SATURATED: Bytes = Bytes(u64::MAX);

    pub fn from_gib(gib: f64) -> Bytes {
        Bytes::from_f64(gib * GIB as f64)
    }

    /// Rounds to the nearest byte; negative and NaN become zero, overflow saturates.
    pub fn from_f64(bytes: f64) -> Bytes {
        if bytes.is_nan() || bytes <= 0.0 {
            Bytes(0)
        } else if bytes >= u64::MAX as f64 {
            Bytes(u64::MAX)
        } else {
            Bytes(bytes.round() as u64)
        }
    }

    pub fn as_f64(self) -> f64 {
        self.0 as f64
    }
}

impl std::ops::Add for Bytes {
    type Output = Bytes;
    fn add(self, rhs: Bytes) -> Bytes {
        Bytes(self.0.saturating_add(rhs.0))
    }
}

impl std::iter::Sum for Bytes {
    fn sum<I: Iterator<Item = Bytes>>(iter: I) -> Bytes {
        iter.fold(Bytes(0), |a, b| a + b)
    }
}

/// Human form in binary units with two decimals, the way PyTorch prints them
/// (`17.66 GiB`), so a figure from a log reads back the same.
impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Bytes::SATURATED {
            return write!(f, "more than 16.00 EiB");
        }
        let b = self.0 as f64;
        let (value, unit) = if self.0 >= EIB {
            (b / EIB as f64, "EiB")
        } else if self.0 >= PIB {
            (b / PIB as f64, "PiB")
        } else if self.0 >= TIB {
            (b / TIB as f64, "TiB")
        } else if self.0 >= GIB {
            (b / GIB as f64, "GiB")
        } else if self.0 >= MIB {
            (b / MIB as f64, "MiB")
        } else if self.0 >= KIB {
            (b / KIB as f64, "KiB")
        } else {
            return write!(f, "{} B", self.0);
        };
        write!(f, "{value:.2} {unit}")
    }
}

/// A count with thousands separators, as Python's `f"{n:,}"` prints it (vLLM's logs do).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// How to read a unit letter without an `i`: `G` and `GB` mean different things in
/// different tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitConvention {
    /// `GB` = 10^9 (spec sheets, `nvidia-smi` in some versions, people).
    Decimal,
    /// `GB` = 2^30 (SLURM `--mem`, the kernel's `kB`, PyTorch's MPS messages).
    Binary,
}

/// Parses `<number><space?><unit>`, e.g. `17.66 GiB`, `256G`, `513 GB`, `46239087329`,
/// `4 kB`. A bare number is bytes. Returns `None` for anything else, never panics.
pub fn parse_size(text: &str, convention: UnitConvention) -> Option<Bytes> {
    let text = text.trim();
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ',')).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let number: f64 = number.replace(',', "").parse().ok()?;
    let multiplier = unit_multiplier(unit.trim(), convention)?;
    Some(Bytes::from_f64(number * multiplier))
}

/// The byte multiplier of a unit spelling; `None` if it is not a memory unit.
pub fn unit_multiplier(unit: &str, convention: UnitConvention) -> Option<f64> {
    let binary = |p: u32| Some((1u64 << (10 * p)) as f64);
    let decimal = |p: i32| Some(10f64.powi(3 * p));
    let either = |p: u32| match convention {
        UnitConvention::Binary => binary(p),
        UnitConvention::Decimal => decimal(p as i32),
    };
    match unit {
        "" | "B" | "b" | "bytes" | "Bytes" => Some(1.0),
        // Kubernetes writes quantities as Ki, Mi, Gi.
        // A message retyped in lower or upper case keeps its binary units: "30.00 mib".
        "KiB" | "kiB" | "Ki" | "kib" | "KIB" => binary(1),
        "MiB" | "Mi" | "mib" | "MIB" => binary(2),
        "GiB" | "Gi" | "gib" | "GIB" => binary(3),
        "TiB" | "Ti" | "tib" | "TIB" => binary(4),
        // NumPy's request for an array whose shape came out wrong: "Unable to allocate 1.17 EiB".
        "PiB" | "Pi" | "pib" | "PIB" => binary(5),
        "EiB" | "Ei" | "eib" | "EIB" => binary(6),
        "K" | "k" | "KB" | "kB" | "kb" => either(1),
        "M" | "MB" | "mb" | "Mb" => either(2),
        "G" | "GB" | "gb" | "Gb" => either(3),
        "T" | "TB" | "tb" => either(4),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_pytorch_figures_in_binary_units() {
        let b = parse_size("17.66 GiB", UnitConvention::Decimal).unwrap();
        assert_eq!(b, Bytes((17.66 * GIB as f64).round() as u64));
        assert_eq!(parse_size("20.00 MiB", UnitConvention::Decimal), Some(Bytes(20 * MIB)));
        assert_eq!(parse_size("1.5 PiB", UnitConvention::Decimal), Some(Bytes(3 << 49)));
        assert_eq!(parse_size("1.17 EiB", UnitConvention::Decimal), Some(Bytes((1.17 * (1u64 << 60) as f64) as u64)));
    }

    #[test]
    fn bare_suffix_follows_the_convention() {
        assert_eq!(parse_size("256G", UnitConvention::Binary), Some(Bytes(256 * GIB)));
        assert_eq!(parse_size("256G", UnitConvention::Decimal), Some(Bytes(256_000_000_000)));
        assert_eq!(parse_size("4 kB", UnitConvention::Binary), Some(Bytes(4096)));
    }

    #[test]
    fn rejects_what_is_not_a_size() {
        assert_eq!(parse_size("GiB", UnitConvention::Binary), None);
        assert_eq!(parse_size("12 apples", UnitConvention::Binary), None);
        assert_eq!(parse_size("", UnitConvention::Binary), None);
        assert_eq!(parse_size("1.2.3 GiB", UnitConvention::Binary), None);
    }

    #[test]
    fn counts_are_grouped_in_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(23_648), "23,648");
        assert_eq!(grouped(2_042_016), "2,042,016");
    }

    #[test]
    fn displays_like_pytorch() {
        assert_eq!(Bytes::from_gib(17.66).to_string(), "17.66 GiB");
        assert_eq!(Bytes(20 * MIB).to_string(), "20.00 MiB");
        assert_eq!(Bytes(512).to_string(), "512 B");
        assert_eq!(Bytes(3 << 49).to_string(), "1.50 PiB");
        assert_eq!(Bytes::from_f64(1e30).to_string(), "more than 16.00 EiB", "saturated, not a figure");
        assert_eq!((Bytes(u64::MAX - 1) + Bytes(2)).to_string(), "more than 16.00 EiB");
    }

    #[test]
    fn float_conversion_never_panics() {
        assert_eq!(Bytes::from_f64(f64::NAN), Bytes(0));
        assert_eq!(Bytes::from_f64(-3.0), Bytes(0));
        assert_eq!(Bytes::from_f64(f64::INFINITY), Bytes(u64::MAX));
    }
}
