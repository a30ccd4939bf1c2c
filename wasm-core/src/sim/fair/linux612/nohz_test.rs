//! 6.12's NOHZ decisions worked by hand against fair.c: which flags
//! `nohz_balancer_kick` (12429–12543) raises for a ticking CPU, which CPU
//! `find_new_ilb` (12362–12380) kicks, when `kick_ilb` (12387–12423) sends
//! an IPI, what `update_nohz_stats` (12652–12668) does for an idle CPU, when
//! `nohz_newidle_balance` (12824–12849) asks for a stats pass, and when the
//! next one is due (`nohz.next_blocked`, 12764–12766).

use super::*;

/// A CPU ticking at jiffy 100 with one task, one tickless CPU about, no
/// blocked load, `nohz.next_balance` due, nothing to collate, alone busy in its LLC.
fn quiet() -> KickView {
    KickView {
        jiffies: 100,
        nr_idle: 1,
        has_blocked: false,
        next_blocked: 0,
        next_balance: 100,
        needs_update: false,
        nr_running: 1,
        llc_busy: Some(1),
    }
}

#[test]
fn nohz_balancer_kick_flags_by_rq_state() {
    let k = |f: fn(&mut KickView)| {
        let mut v = quiet();
        f(&mut v);
        balancer_kick_flags(&v)
    };
    assert_eq!(k(|_| {}), 0, "one task, one busy CPU in the LLC: nothing to balance");
    // `nohz.nr_cpus` is 0: no tickless CPU, no kick whatever else holds (12450–12451).
    assert_eq!(k(|v| (v.nr_idle, v.nr_running) = (0, 3)), 0);
    // rq->nr_running >= 2 (12460–12463).
    assert_eq!(k(|v| v.nr_running = 2), NOHZ_STATS_KICK | NOHZ_BALANCE_KICK);
    // sds->nr_busy_cpus > 1 (12525–12533); no LLC domain, no such reason.
    assert_eq!(k(|v| v.llc_busy = Some(2)), NOHZ_STATS_KICK | NOHZ_BALANCE_KICK);
    assert_eq!(k(|v| v.llc_busy = None), 0);
    // Before nohz.next_balance (jiffy 101), two tasks do not kick (12457–12458).
    assert_eq!(k(|v| (v.next_balance, v.nr_running) = (101, 2)), 0);
    // Blocked load and next_blocked passed (time_after: strictly): STATS alone, even before next_balance.
    assert_eq!(k(|v| (v.has_blocked, v.next_blocked, v.next_balance) = (true, 99, 101)), NOHZ_STATS_KICK);
    assert_eq!(k(|v| (v.has_blocked, v.next_blocked) = (true, 100)), 0, "next_blocked is jiffy 100: not yet");
    // nohz.needs_update adds NEXT to whatever else (12538–12539), on its own too.
    assert_eq!(k(|v| v.needs_update = true), NOHZ_NEXT_KICK);
    assert_eq!(k(|v| (v.needs_update, v.nr_running) = (true, 2)), NOHZ_STATS_KICK | NOHZ_BALANCE_KICK | NOHZ_NEXT_KICK);
}

#[test]
fn find_new_ilb_takes_the_first_idle_tickless_cpu_not_the_kicker() {
    let mask = CpuMask::from_cpus([CpuId(1), CpuId(3), CpuId(5)]);
    // CPU 1 is the kicker; CPU 3 has woken a task (still in the mask until its first busy tick): 5.
    assert_eq!(find_new_ilb(&mask, CpuId(1), |c| c != CpuId(3)), Some(CpuId(5)));
    assert_eq!(find_new_ilb(&mask, CpuId(0), |_| true), Some(CpuId(1)));
    assert_eq!(find_new_ilb(&mask, CpuId(0), |_| false), None, "none idle: no kick");
}

#[test]
fn kick_ilb_sends_one_ipi_for_new_work() {
    let sb = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
    assert_eq!(ilb_kick(0, sb), (sb, true), "nothing pending: the flags go with an IPI");
    assert_eq!(ilb_kick(sb, NOHZ_STATS_KICK), (sb, false), "already pending: nothing to add");
    // An IPI carrying STATS is on its way: BALANCE joins it without another IPI.
    assert_eq!(ilb_kick(NOHZ_STATS_KICK, sb), (sb, false));
    // NEWILB is not an IPI's flag: a CPU marked for its own stats pass still takes an IPI.
    assert_eq!(ilb_kick(NOHZ_NEWILB_KICK, NOHZ_STATS_KICK), (NOHZ_NEWILB_KICK | NOHZ_STATS_KICK, true));
}

#[test]
fn update_nohz_stats_steps() {
    assert_eq!(nohz_stats_step(false, true, 10, 0), StatsStep::Clean, "no blocked load left");
    assert_eq!(nohz_stats_step(true, false, 10, 0), StatsStep::Clean, "no longer in idle_cpus_mask");
    // Updated at jiffy 10 already (time_after is strict): counted blocked, not updated again.
    assert_eq!(nohz_stats_step(true, true, 10, 10), StatsStep::Pending);
    assert_eq!(nohz_stats_step(true, true, 11, 10), StatsStep::Update);
}

#[test]
fn nohz_newidle_balance_gate() {
    // sysctl_sched_migration_cost 0.5 ms; next_blocked at jiffy 40 (time_before: due at 40 itself).
    assert!(newidle_wants_stats(500_000, 500_000, true, 40, 40));
    assert!(!newidle_wants_stats(499_999, 500_000, true, 40, 40), "will wake up very soon");
    assert!(!newidle_wants_stats(900_000, 500_000, false, 40, 40), "no blocked load about");
    assert!(!newidle_wants_stats(900_000, 500_000, true, 39, 40), "not yet due");
}

#[test]
fn next_blocked_is_load_avg_period_later() {
    // msecs_to_jiffies(32), rounded up: 32 at HZ=1000, 8 at 250, 9.6 → 10 at 300, 3.2 → 4 at 100.
    assert_eq!(next_blocked_after(1000, 1000), 1032);
    assert_eq!(next_blocked_after(1000, 250), 1008);
    assert_eq!(next_blocked_after(1000, 300), 1010);
    assert_eq!(next_blocked_after(1000, 100), 1004);
}

#[test]
fn nohz_idle_balance_starts_after_the_balancer_and_ends_with_it() {
    let mask = CpuMask::from_cpus([0, 2, 5, 7].map(CpuId));
    // The balancer is CPU 2: for_each_cpu_wrap(…, 3).
    assert_eq!(wrap_order(&mask, 3), [5, 7, 0, 2].map(CpuId));
    assert_eq!(wrap_order(&mask, 8), [0, 2, 5, 7].map(CpuId));
}

#[test]
fn cfs_rq_has_blocked_reads_load_and_util() {
    let mut sa = SchedAvg::default();
    assert!(!cfs_rq_has_blocked(&sa));
    sa.runnable_avg = 3;
    assert!(!cfs_rq_has_blocked(&sa), "runnable alone does not keep the updates going");
    sa.util_avg = 1;
    assert!(cfs_rq_has_blocked(&sa));
}
