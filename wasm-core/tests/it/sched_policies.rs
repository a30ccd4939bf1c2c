//! Scheduling policies in scenarios: what `sched_setattr` would refuse is
//! refused with its field and reason (real-time priorities, deadline
//! parameters, pinned deadline tasks, admission control), and what it takes
//! reaches the engine.

use schedlab_core::api::scenario::load_scenario;

fn scenario(cpus: &str, processes: &str) -> String {
    format!(r#"{{"version":1,"name":"t","duration_ms":100,"machine":{{"preset":"{cpus}"}},"processes":[{processes}]}}"#)
}

fn dl(name: &str, runtime: u64, deadline: u64, threads: u32) -> String {
    format!(
        r#"{{"name":"{name}","threads":{threads},"sched_policy":"deadline","dl_runtime_us":{runtime},"dl_deadline_us":{deadline},"program":[{{"run_us":100}}]}}"#
    )
}

fn problems(text: &str) -> Vec<String> {
    load_scenario(text).err().unwrap_or_default().iter().map(ToString::to_string).collect()
}

/// 40 % + 40 % fit one CPU's 95 %; a third thread of 40 % does not, and the
/// refusal names it and the sums.
#[test]
fn admission_control_refuses_the_first_reservation_past_95_percent() {
    assert!(problems(&scenario("uniprocessor", &dl("a", 4000, 10000, 2))).is_empty());
    let p = problems(&scenario("uniprocessor", &dl("a", 4000, 10000, 3)));
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(p[0].starts_with("processes[0].sched_policy"), "{}", p[0]);
    assert!(p[0].contains("thread 2") && p[0].contains("80.0 %") && p[0].contains("95.0 %"), "{}", p[0]);
    // Four CPUs admit 3.8 CPUs' worth.
    assert!(problems(&scenario("laptop-2c4t", &dl("a", 9000, 10000, 4))).is_empty());
    assert_eq!(problems(&scenario("laptop-2c4t", &dl("a", 9600, 10000, 4))).len(), 1);
}

#[test]
fn deadline_parameters_are_checked_as_checkparam_dl_does() {
    let p = problems(&scenario("uniprocessor", &dl("a", 5000, 4000, 1)));
    assert!(p[0].contains("runtime ≤ deadline ≤ period"), "{p:?}");
    let pinned =
        r#"{"name":"a","cpus":"0","sched_policy":"deadline","dl_runtime_us":10,"dl_deadline_us":100,"program":[]}"#;
    assert!(problems(&scenario("laptop-2c4t", pinned))[0].contains("may not be pinned"));
    let missing = r#"{"name":"a","sched_policy":"deadline","dl_runtime_us":10,"program":[]}"#;
    assert!(problems(&scenario("uniprocessor", missing))[0].contains("needs dl_runtime_us and dl_deadline_us"));
    let stray = r#"{"name":"a","dl_runtime_us":10,"program":[]}"#;
    assert!(problems(&scenario("uniprocessor", stray))[0].contains("applies to sched_policy 'deadline' only"));
}

#[test]
fn real_time_priorities_are_checked() {
    let no_prio = r#"{"name":"a","sched_policy":"fifo","program":[]}"#;
    assert!(problems(&scenario("uniprocessor", no_prio))[0].contains("needs a real-time priority"));
    let fair_prio = r#"{"name":"a","rt_priority":5,"program":[]}"#;
    assert!(problems(&scenario("uniprocessor", fair_prio))[0].contains("applies to the real-time policies"));
    let on_612 = r#"{"name":"a","sched_policy":"rr","rt_priority":5,"program":[]}"#;
    let text = scenario("uniprocessor", on_612).replacen('{', r#"{"kernel":"6.12","#, 1);
    assert!(problems(&text).is_empty(), "6.12 runs real-time tasks beside its fair server");
}

/// 6.12's fair servers hold 5 % of each CPU from boot: a reservation of 91 % fits under 4.1's 95 % and not
/// under 6.12's 90 % left.
#[test]
fn on_612_admission_counts_the_fair_servers() {
    let d = dl("d", 91_000, 100_000, 1);
    assert!(problems(&scenario("uniprocessor", &d)).is_empty());
    let text = scenario("uniprocessor", &d).replacen('{', r#"{"kernel":"6.12","#, 1);
    let why = problems(&text);
    assert!(why[0].contains("admission control refuses thread 0") && why[0].contains("fair servers"), "{why:?}");
    let fits = scenario("uniprocessor", &dl("d", 89_000, 100_000, 1)).replacen('{', r#"{"kernel":"6.12","#, 1);
    assert!(problems(&fits).is_empty());
}

#[test]
fn accepted_policies_reach_the_engine() {
    let procs = [dl("d", 1000, 10000, 1), r#"{"name":"f","sched_policy":"fifo","rt_priority":7,"program":[]}"#.into()];
    let cfg = load_scenario(&scenario("laptop-2c4t", &procs.join(","))).expect("valid");
    assert!(cfg.processes[0].sched_policy.is_dl());
    assert_eq!(cfg.processes[0].dl.map(|d| (d.runtime_ns, d.period_ns)), Some((1_000_000, 10_000_000)));
    assert_eq!((cfg.processes[1].sched_policy.name(), cfg.processes[1].rt_priority), ("fifo", 7));
}
