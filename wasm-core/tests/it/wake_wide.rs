//! `record_wakee` as 4.1.15 writes it: a waker counts a flip each time it
//! wakes another task than last time, and halves the count (not wipes it)
//! once more than HZ jiffies have passed since the last halving.
//!
//! Hand-worked: a waker wakes a and b in turn every 5 ms (200 flips a second,
//! HZ 1000, each on its own CPU). The first wakeup after more than a second
//! since the last halving halves the count (at 1,005 ms: 200 → 100, then
//! +1), so at 2,012 ms the count holds 4.1's history where a wipe would
//! not; `by_hand` replays 4.1.15's rule on the wakeup times.

use schedlab_core::api::scenario::load_scenario;
use schedlab_core::sim::Simulator;
use schedlab_core::time::SimTime;

fn flips_at(ms: u64) -> u32 {
    let text = r#"{"version":1,"name":"flips","duration_ms":3000,"hz":1000,"autogroup":false,
      "machine":{"preset":"laptop-2c4t"},
      "costs":{"context_switch_ns":0,"wakeup_ipi_ns":0,"migration_cold_ns":0,"migration_cold_remote_ns":0},
      "processes":[
        {"name":"waker","cpus":"0","program":[{"body":[{"sleep_us":5000},{"wake":"a"},{"sleep_us":5000},{"wake":"b"}]}]},
        {"name":"a","cpus":"1","program":[{"body":[{"wait":true}]}]},
        {"name":"b","cpus":"2","program":[{"body":[{"wait":true}]}]}]}"#;
    let mut sim = Simulator::new(&load_scenario(text).unwrap());
    sim.run_until(SimTime(ms * 1_000_000));
    let waker = sim.processes().iter().find(|p| p.name == "waker").unwrap().threads[0];
    sim.tasks()[waker.idx()].wakee_flips
}

/// Replays 4.1.15's record_wakee on the waker's wakeup times (every 5 ms, alternating a and b, the first at
/// 5 ms) up to `ms`: the count the model must hold.
fn by_hand(ms: u64) -> u32 {
    let (mut flips, mut decay_ts, mut last) = (0u32, 0u64, None);
    let mut t = 5;
    let mut k = 0;
    while t <= ms {
        if t > decay_ts + 1000 {
            flips >>= 1;
            decay_ts = t;
        }
        let wakee = k % 2;
        if last != Some(wakee) {
            last = Some(wakee);
            flips += 1;
        }
        t += 5;
        k += 1;
    }
    flips
}

#[test]
fn flips_halve_each_second_instead_of_being_wiped() {
    // Between wakeups (each runs 1 ns late per step: the woken waker needs the CPU to make its call).
    for ms in [502, 1002, 1007, 1502, 2012, 2992] {
        assert_eq!(flips_at(ms), by_hand(ms), "at {ms} ms");
    }
    // The halving keeps history: a second after the first halving the count is not back to one second's worth.
    assert!(by_hand(2010) > 200 / 2, "{}", by_hand(2010));
}
