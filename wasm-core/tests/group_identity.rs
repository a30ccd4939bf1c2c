//! Group Identity (seed 002, kernel-model.md 7.1): identities per cgroup,
//! the underclass tree, highclass wakeup preemption, the SMT expeller, and
//! the gi-colocation comparison.

use schedlab_core::api::scenario::load_scenario;
use schedlab_core::api::sweep::gi_colocation_point;
use schedlab_core::sim::Simulator;

/// A scenario with two cgroups "a" and "b" (identities given) and processes.
fn scenario(machine: &str, gi: bool, a: &str, b: &str, processes: &str) -> Simulator {
    let text = format!(
        r#"{{"version":1,"name":"gi","duration_ms":2000,"hz":1000,"autogroup":false,"machine":{{"preset":"{machine}"}},
        "policy":{{"kind":"cfs","group_identity":{gi}}},
        "cgroups":[{{"name":"a",{a}}},{{"name":"b",{b}}}],"processes":[{processes}]}}"#
    );
    let cfg = load_scenario(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut sim = Simulator::new(&cfg);
    sim.run_to_end();
    sim
}

fn cpu_ms(sim: &Simulator, name: &str) -> f64 {
    let p = sim.processes().iter().find(|p| p.name == name).unwrap();
    p.threads.iter().map(|&t| sim.tasks()[t as usize].se.sum_exec_runtime).sum::<u64>() as f64 / 1e6
}

fn max_wakeup_us(sim: &Simulator, name: &str) -> f64 {
    let p = sim.processes().iter().find(|p| p.name == name).unwrap();
    p.wakeup_latency.max() as f64 / 1e3
}

const HOG: &str = r#"[{"body":[{"run_us":100000}]}]"#;

/// Mechanism: underclass entities sit in their own tree, looked at only when
/// the normal tree is empty, and a running underclass entity yields at the
/// next tick once something else is runnable. So an underclass hog gets no
/// CPU next to a normal hog, and exactly the idle time next to a sleeper.
#[test]
fn underclass_runs_only_when_nothing_else_is_runnable() {
    let hogs = format!(
        r#"{{"name":"normal","cgroup":"a","program":{HOG}}},{{"name":"offline","cgroup":"b","program":{HOG}}}"#
    );
    let sim = scenario("uniprocessor", true, r#""identity":"normal""#, r#""identity":"underclass""#, &hogs);
    assert!(cpu_ms(&sim, "offline") < 2.0, "underclass hog ran {} ms beside a normal hog", cpu_ms(&sim, "offline"));
    let off = scenario("uniprocessor", false, r#""identity":"normal""#, r#""identity":"underclass""#, &hogs);
    assert!(cpu_ms(&off, "offline") > 900.0, "identities off: plain CFS shares ({} ms)", cpu_ms(&off, "offline"));

    let sleeper = format!(
        r#"{{"name":"normal","cgroup":"a","program":[{{"body":[{{"run_us":3000}},{{"sleep_us":7000}}]}}]}},{{"name":"offline","cgroup":"b","program":{HOG}}}"#
    );
    let sim = scenario("uniprocessor", true, r#""identity":"normal""#, r#""identity":"underclass""#, &sleeper);
    let (n, o) = (cpu_ms(&sim, "normal"), cpu_ms(&sim, "offline"));
    assert!((n - 600.0).abs() < 15.0, "the sleeper gets its full 30%: {n} ms");
    assert!(o > 1350.0, "the underclass hog soaks up the idle 70%: {o} ms");
}

/// Mechanism: a highclass wakee preempts a normal curr at once, without the
/// wakeup_granularity test; under plain CFS a sleeper whose vruntime is not
/// far enough behind the hog's waits for the hog's tick.
#[test]
fn highclass_wakeup_preempts_regardless_of_granularity() {
    let procs = format!(
        r#"{{"name":"online","cgroup":"a","program":[{{"body":[{{"run_us":2000}},{{"sleep_us":{{"exp":2000}}}}]}}]}},{{"name":"batch","cgroup":"b","program":{HOG}}}"#
    );
    let gi = scenario("uniprocessor", true, r#""identity":"highclass""#, r#""identity":"normal""#, &procs);
    let cfs = scenario("uniprocessor", false, r#""identity":"highclass""#, r#""identity":"normal""#, &procs);
    // A wakeup latency counts the switch into the task, nothing more.
    let switch_us = gi.costs().context_switch_ns as f64 / 1e3;
    assert!(max_wakeup_us(&gi, "online") <= switch_us, "highclass never waits for a normal task");
    assert!(max_wakeup_us(&cfs, "online") > 500.0, "plain CFS: max wait {} us", max_wakeup_us(&cfs, "online"));
}

/// Mechanism: while an SMT expeller runs on CPU 0, underclass work may not
/// run on its sibling CPU 1 (laptop-2c4t: CPUs 0 and 1 share a core); CPU 2
/// on the other core is unaffected. An expeller that runs 30% of the time
/// leaves the sibling's underclass hog about 70%.
#[test]
fn smt_expeller_keeps_underclass_off_the_sibling() {
    let procs = r#"{"name":"online","cgroup":"a","cpus":"0","program":[{"body":[{"run_us":3000},{"sleep_us":7000}]}]},
        {"name":"sibling","cgroup":"b","cpus":"1","program":[{"body":[{"run_us":100000}]}]},
        {"name":"other-core","cgroup":"b","cpus":"2","program":[{"body":[{"run_us":100000}]}]}"#;
    let expel = scenario(
        "laptop-2c4t",
        true,
        r#""identity":"highclass","smt_expeller":true"#,
        r#""identity":"underclass""#,
        procs,
    );
    let keep = scenario("laptop-2c4t", true, r#""identity":"highclass""#, r#""identity":"underclass""#, procs);
    let (s, o) = (cpu_ms(&expel, "sibling"), cpu_ms(&expel, "other-core"));
    assert!((1300.0..1440.0).contains(&s), "sibling hog runs only while the expeller sleeps: {s} ms");
    assert!(o > 1990.0, "the other core is not expelled: {o} ms");
    assert!(cpu_ms(&keep, "sibling") > 1990.0, "without the expeller bit the sibling runs freely");
}

/// Mechanism (gi-colocation, seed 002 set-up): with plain colocation an
/// online wakee landing behind an offline hog must out-vruntime it by the
/// (group-weight-scaled) wakeup granularity, so it often waits; pinning
/// offline to 4 cores leaves most online wakeups idle CPUs but some still
/// queue there; Group Identity preempts offline at once and counts CPUs
/// running only offline as idle, so online never queues — but it lands
/// beside offline work on the other hardware thread, and SMT contention
/// (the preset's `smt_sibling_speed_pct` 65) slows its switch in and its
/// requests. Measured (seed 1), us: p99 plain 1922 > pinned 2.3 = GI 2.3 =
/// none 2.3; p99.9 pinned 112.7 > GI 2.3; p50 GI 2.3 > none 1.5; mean GI
/// 2.05 > none 1.60; online CPU time GI 18.1 s > none 16.0 s for the same
/// requests. The article's p99 order shows here only across percentiles:
/// at p99 pinned, GI and none all sit at one contended switch.
#[test]
fn gi_colocation_online_latency_orders_plain_pinned_gi() {
    let [none, plain, pinned, gi] = ["none", "plain", "pinned", "gi"].map(gi_colocation_point);
    let pct = |r: &schedlab_core::api::sweep::ColocationRow, i: usize| r.online_wakeup_us[i];
    assert!(pct(&plain, 2) > 500.0 && pct(&plain, 2) > pct(&pinned, 2), "plain {plain:?} vs pinned {pinned:?}");
    assert!(pct(&pinned, 3) > pct(&gi, 3) && pinned.online_waited > gi.online_waited, "pinned {pinned:?} vs gi {gi:?}");
    assert!(gi.online_waited < 0.001, "GI: online never queues behind offline: {gi:?}");
    assert!(
        pct(&gi, 0) > pct(&none, 0) && gi.online_wakeup_mean_us > none.online_wakeup_mean_us,
        "GI pays SMT contention that no colocation does not: {gi:?} vs {none:?}"
    );
    assert!(gi.online_cpu_ms > 1.05 * none.online_cpu_ms, "the same requests cost more CPU time beside offline work");
    // GI's price: the offline jobs lose the CPU the expeller and preemption take.
    assert!(gi.offline_cpu_ms < plain.offline_cpu_ms, "{gi:?} vs {plain:?}");
}
