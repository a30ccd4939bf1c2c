//! The kept and saved states give what a replay from the start gives, at any cursor in any order.

use super::*;
use crate::trace_import::import::Choices;
use crate::trace_import::replay::{open, Replay};
use proptest::prelude::*;
use std::fmt::Write;

/// A foreign ftrace text of `n` switches and wakeups over 4 CPUs and 12 threads (a fixed pseudo-random walk).
fn trace_text(n: usize) -> String {
    let (mut text, mut x, mut curr) = (String::new(), 7u64, [0u32; 4]);
    for i in 0..n {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let cpu = (x >> 33) as usize % 4;
        let pid = 100 + (x >> 40) as u32 % 12;
        let (s, us) = (10 + i / 100_000, (i % 100_000) * 10);
        if x >> 60 < 3 {
            let _ = writeln!(
                text,
                "waker-1 [{cpu:03}] d..3. {s}.{us:06}: sched_wakeup: comm=t{pid} pid={pid} prio=120 target_cpu={cpu:03}"
            );
        } else {
            let prev = curr[cpu];
            let state = if x >> 62 == 0 { "S" } else { "R" };
            let _ = writeln!(
                text,
                "t{prev}-{prev} [{cpu:03}] d..2. {s}.{us:06}: sched_switch: prev_comm=t{prev} prev_pid={prev} \
                 prev_prio=120 prev_state={state} ==> next_comm=t{pid} next_pid={pid} next_prio=120"
            );
            curr[cpu] = pid;
        }
    }
    text
}

/// A trace of 40,000 records, so the saves (every 16,384) are passed and jumped back to.
fn replay() -> Replay {
    open(&trace_text(40_000), "walk", &Choices { cpus: None, comms: None }).unwrap()
}

#[test]
fn the_trace_is_long_enough_to_save() {
    let r = replay();
    assert!(r.records.len() > 2 * checkpoint_every(r.records.len()), "{} records", r.records.len());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn any_cursor_order_gives_the_replay_from_the_start(cursors in prop::collection::vec(0u64..=1_000, 1..10)) {
        // A fresh replay per case: its cache starts empty, and each case's cursors move it forward and back.
        let r = open(&trace_text(40_000), "walk", &Choices { cpus: None, comms: None }).unwrap();
        let span = r.duration_ns;
        let start = r.records[0].ts_ns.saturating_sub(1);
        for c in cursors {
            let now = start + (span as u128 * c as u128 / 1_000) as u64;
            prop_assert_eq!(&*r.at(now), &r.at_from_start(now), "at {} ns", now);
        }
    }
}
