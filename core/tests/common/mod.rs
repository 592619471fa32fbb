//! What the corpus tests share: the split rule, fixed before any rule was
//! tuned on the corpus.

/// FNV-1a (64-bit) of the id: one log in three is in the fresh split.
pub fn is_fresh(id: &str) -> bool {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in id.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash.is_multiple_of(3)
}
