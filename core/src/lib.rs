//! Headroom's engine. Everything here is pure Rust with no web dependencies, so
//! it runs the same in the browser (through `app/`), on a login node (through
//! `cli/`) and in native tests and benchmarks.
//!
//! Data flows one way: text in -> the types of this crate -> a view.

pub mod budget;
pub mod decode;
pub mod diagnose;
pub mod draft;
pub mod memory;
pub mod publish;
pub mod query_string;
pub mod recommend;
pub mod redact;
pub mod runbook;
pub mod scan;
pub mod search;
pub mod units;
pub mod writeup;
