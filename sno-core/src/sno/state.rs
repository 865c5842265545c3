//! The generator's state word: time units (39 bits), the tick-tock bit and the counter (24
//! bits) packed in one `u64` (see `sno_core::generator`, "State"), and the sequence bounds
//! it counts within.

use crate::error::Error;

pub(super) const COUNTER_BITS: u32 = 24;
pub(super) const COUNTER_MASK: u64 = (1 << COUNTER_BITS) - 1;
pub(super) const TICK_BIT: u64 = 1 << COUNTER_BITS;
pub(super) const UNITS_SHIFT: u32 = COUNTER_BITS + 1;
/// The smallest sequence pool a generator accepts.
pub const MIN_POOL: u32 = 4;
/// The largest block of sequences a thread reserves at once ([`GeneratorBuilder::max_block`](crate::generator::GeneratorBuilder::max_block)).
pub const MAX_BLOCK: u32 = 64;

#[inline(always)]
pub(super) const fn pack(units: u64, tick: bool, counter: u64) -> u64 {
    units << UNITS_SHIFT | (tick as u64) << COUNTER_BITS | counter
}
#[inline(always)]
pub(super) const fn units_of(state: u64) -> u64 {
    state >> UNITS_SHIFT
}
#[inline(always)]
pub(super) const fn tick_of(state: u64) -> bool {
    state & TICK_BIT != 0
}
#[inline(always)]
pub(super) const fn counter_of(state: u64) -> u64 {
    state & COUNTER_MASK
}
/// Unit and tick together: two states differ in it unless only the counter moved between them.
#[inline(always)]
pub(super) const fn slot_of(state: u64) -> u64 {
    state >> COUNTER_BITS
}

/// The Go original's bound rules, with its off-by-two fixed: a pool of 4 is accepted.
pub(super) fn sanitize_bounds(min: u16, max: u16) -> Result<(u16, u16), Error> {
    let max = if max == 0 && min != u16::MAX {
        u16::MAX
    } else {
        max
    };
    let (min, max) = if max < min { (max, min) } else { (min, max) };
    if u32::from(max - min) + 1 < MIN_POOL {
        return Err(Error::InvalidSequenceBounds { min, max });
    }
    Ok((min, max))
}
