//! Nice level → load weight, the kernel's `prio_to_weight[]` and its inverse
//! `prio_to_wmult[]` (Linux 4.1, 64-bit, SCHED_LOAD_RESOLUTION = 0, so no
//! extra scaling). Adjacent levels differ by about 1.25×, which is what makes
//! "one nice level ≈ 10% CPU" hold between two competitors.

pub const NICE_0_LOAD: u64 = 1024;
pub const MIN_NICE: i32 = -20;
pub const MAX_NICE: i32 = 19;

const PRIO_TO_WEIGHT: [u64; 40] = [
    88761, 71755, 56483, 46273, 36291, //
    29154, 23254, 18705, 14949, 11916, //
    9548, 7620, 6100, 4904, 3906, //
    3121, 2501, 1991, 1586, 1277, //
    1024, 820, 655, 526, 423, //
    335, 272, 215, 172, 137, //
    110, 87, 70, 56, 45, //
    36, 29, 23, 18, 15,
];

const PRIO_TO_WMULT: [u64; 40] = [
    48388, 59856, 76040, 92818, 118348, //
    147320, 184698, 229616, 287308, 360437, //
    449829, 563644, 704093, 875809, 1099582, //
    1376151, 1717300, 2157191, 2708050, 3363326, //
    4194304, 5237765, 6557202, 8165337, 10153587, //
    12820798, 15790321, 19976592, 24970740, 31350126, //
    39045157, 49367440, 61356676, 76695844, 95443717, //
    119304647, 148102320, 186737708, 238609294, 286331153,
];

fn index(nice: i32) -> usize {
    (nice.clamp(MIN_NICE, MAX_NICE) - MIN_NICE) as usize
}

/// The load weight of a task at `nice` (clamped to the valid range).
pub fn nice_to_weight(nice: i32) -> u64 {
    PRIO_TO_WEIGHT[index(nice)]
}

/// 2^32 / weight, as the kernel tabulates it.
pub fn nice_to_wmult(nice: i32) -> u64 {
    PRIO_TO_WMULT[index(nice)]
}

/// `__calc_delta`: delta × weight / lw_weight, using the inverse weight in
/// 32.32 fixed point as the kernel does. We multiply in 128 bits, so we get the
/// kernel's formula without the intermediate precision shifts it needs to stay
/// within 64 bits; the difference is below one nanosecond per call.
pub fn calc_delta(delta_ns: u64, weight: u64, lw_inv_weight: u64) -> u64 {
    ((delta_ns as u128 * weight as u128 * lw_inv_weight as u128) >> 32) as u64
}

/// The inverse weight of an arbitrary load (sum of weights), 2^32 / load.
pub fn inv_weight(load: u64) -> u64 {
    (1u64 << 32).checked_div(load).unwrap_or(u32::MAX as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wmult_is_the_inverse_of_weight() {
        for nice in MIN_NICE..=MAX_NICE {
            let w = nice_to_weight(nice);
            let expect = (1u64 << 32) / w;
            assert!(nice_to_wmult(nice).abs_diff(expect) <= 1, "nice {nice}");
        }
    }

    #[test]
    fn adjacent_levels_differ_by_about_a_quarter() {
        for nice in MIN_NICE..MAX_NICE {
            let r = nice_to_weight(nice) as f64 / nice_to_weight(nice + 1) as f64;
            assert!((1.19..1.29).contains(&r), "nice {nice}: ratio {r}");
        }
    }

    #[test]
    fn calc_delta_of_nice0_is_identity() {
        assert_eq!(calc_delta(1_000_000, NICE_0_LOAD, nice_to_wmult(0)), 1_000_000);
        // A nice-10 task's vruntime runs 1024/110 ≈ 9.3× faster than wall time.
        let v = calc_delta(1_000_000, NICE_0_LOAD, nice_to_wmult(10));
        assert!((9_300_000..9_320_000).contains(&v), "{v}");
    }
}
