//! Validation of the flag steps `post` and `await` (one-slot flags between
//! two threads of a process, `sim::flags`). Part of `program`.

use super::duration::dist_of;
use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::steps::OpFile;
use crate::config::MAX_THREADS;
use crate::program::{Dist, FlagSide, Op, WaitPolicy};

/// The engine's step for a `post` or `await` at `field`, or None if it is
/// refused (the reasons are in `c`).
pub(super) fn flag_op(op: &OpFile, field: &str, c: &mut Checker) -> Option<Op> {
    let (name, side, key, offset, default) = match (&op.post, &op.await_flag) {
        (Some(n), _) => (n, FlagSide::Post, "to", op.to, 1),
        (_, Some(n)) => (n, FlagSide::Await, "from", op.from, -1),
        _ => return None,
    };
    let kind = if side == FlagSide::Post { "post" } else { "await" };
    let before = c.found();
    c.one_line(&format!("{field}.{kind}"), name);
    let peer = offset.unwrap_or(default);
    let limit = MAX_THREADS as i32;
    if peer == 0 || !(-limit..=limit).contains(&peer) {
        c.fail(
            format!("{field}.{key}"),
            format!("must be another thread's offset from this one: a non-zero whole number from -{limit} to {limit} (got {peer})"),
        );
    }
    let wait = match op.wait_policy.as_deref().unwrap_or("spin") {
        "spin" => WaitPolicy::Spin,
        "yield" => WaitPolicy::Yield,
        "block" => WaitPolicy::Block,
        other => {
            c.fail(
                format!("{field}.wait_policy"),
                format!(
                    "must be \"spin\", \"yield\" or \"block\" (got \"{}\")",
                    crate::api::text::escape_controls(other)
                ),
            );
            WaitPolicy::Spin
        }
    };
    let spin = op.spin_us.as_ref().map_or(Dist::Fixed(0), |d| dist_of(d, &format!("{field}.spin_us"), c));
    match wait {
        WaitPolicy::Spin if op.spin_us.is_some() => c.fail(
            format!("{field}.spin_us"),
            "has no meaning with wait_policy \"spin\", which spins until the flag changes (use \"yield\" or \"block\" to bound the spin)",
        ),
        // A yielder spins between its sched_yield calls; with no spin it would
        // go round without taking time.
        WaitPolicy::Yield if matches!(spin, Dist::Fixed(0) | Dist::Uniform(0, _)) => c.fail(
            format!("{field}.spin_us"),
            "wait_policy \"yield\" needs a spin of at least 1 µs between its sched_yield calls",
        ),
        _ => {}
    }
    (c.found() == before).then(|| Op::Flag { name: name.clone(), side, peer, wait, spin })
}
