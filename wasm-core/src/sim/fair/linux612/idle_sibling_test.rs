//! `select_idle_sibling` worked by hand (Debian 6.12.117 fair.c:
//! `select_idle_core` 7723–7750, `select_idle_smt` 7754–7772,
//! `select_idle_cpu` 7802–7866, `select_idle_sibling` 7937–8062). One LLC of
//! eight CPUs in four two-thread cores, numbered as x86 numbers them:
//! cores {0,4}, {1,5}, {2,6}, {3,7}.

use super::*;

struct Machine {
    smt: Vec<CpuMask>,
    llc_id: Vec<u32>,
    llc: CpuMask,
    all: CpuMask,
    none: CpuMask,
}

fn machine() -> Machine {
    let smt = (0..8u32).map(|c| CpuMask::from_cpus([CpuId(c % 4), CpuId(c % 4 + 4)])).collect();
    Machine {
        smt,
        llc_id: vec![0; 8],
        llc: CpuMask::from_range(0..8),
        all: CpuMask::from_range(0..8),
        none: CpuMask::new(),
    }
}

fn mask(cpus: &[u32]) -> CpuMask {
    CpuMask::from_cpus(cpus.iter().map(|&c| CpuId(c)))
}

fn view<'a>(m: &'a Machine, idle: &'a CpuMask) -> IdleView<'a> {
    IdleView {
        idle,
        sched_idle: &m.none,
        smt: &m.smt,
        llc_id: &m.llc_id,
        llc_span: Some(&m.llc),
        smt_active: true,
        sis_util: true,
    }
}

/// Places a task woken towards `target` that ran on `prev`; returns (CPU, recent_used_cpu after, the hint after).
fn place(m: &Machine, idle: &[u32], shared: LlcShared, recent: u32, prev: u32, target: u32) -> (u32, u32, bool) {
    let idle = mask(idle);
    let (mut shared, mut recent) = (shared, CpuId(recent));
    let cpu = select_idle_sibling(&view(m, &idle), &mut shared, &m.all, &mut recent, CpuId(prev), CpuId(target));
    (cpu.0, recent.0, shared.has_idle_cores)
}

const SCAN_ALL: LlcShared = LlcShared { has_idle_cores: false, nr_idle_scan: 8 };
const IDLE_CORES: LlcShared = LlcShared { has_idle_cores: true, nr_idle_scan: 8 };

#[test]
fn the_target_then_prev_then_the_recently_used_cpu() {
    let m = machine();
    assert_eq!(place(&m, &[0, 3], SCAN_ALL, 3, 2, 0).0, 0);
    // Target 0 busy, prev 2 idle in the same LLC.
    assert_eq!(place(&m, &[2, 3], SCAN_ALL, 3, 2, 0).0, 2);
    // Both busy: the recently used CPU 3 is idle and allowed; the task's recent_used_cpu becomes prev.
    assert_eq!(place(&m, &[3], SCAN_ALL, 3, 2, 0), (3, 2, false));
}

#[test]
fn a_scan_for_an_idle_core_returns_its_first_cpu_after_the_target() {
    let m = machine();
    // Idle {1, 5, 6}: from CPU 1, core {1,5} is wholly idle.
    assert_eq!(place(&m, &[1, 5, 6], IDLE_CORES, 0, 0, 0), (1, 0, true));
    // Idle {2, 5, 6}: core {1,5} is half busy (5 is kept as the idle CPU seen first, and 1, 5 leave the
    // scan); core {2,6} is wholly idle: 2.
    assert_eq!(place(&m, &[2, 5, 6], IDLE_CORES, 0, 0, 0).0, 2);
    // Idle {5, 6}: no core is wholly idle. The scan keeps 5 (the first idle thread after the target),
    // clears the LLC's has_idle_cores hint and returns 5.
    assert_eq!(place(&m, &[5, 6], IDLE_CORES, 0, 0, 0), (5, 0, false));
}

#[test]
fn without_an_idle_core_an_idle_sibling_of_prev_comes_first() {
    let m = machine();
    // Target 1 and prev 4 busy; prev's sibling 0 is idle: select_idle_smt returns it before any scan
    // (which would have found 2 first after the target).
    assert_eq!(place(&m, &[0, 2], SCAN_ALL, 4, 4, 1).0, 0);
    // While the hint says an idle core exists, the sibling rule is skipped: the core scan from CPU 2
    // finds {2,6} wholly idle.
    assert_eq!(place(&m, &[0, 2, 6], IDLE_CORES, 4, 4, 1).0, 2);
}

#[test]
fn sis_util_looks_at_nr_idle_scan_cpus_and_no_more() {
    let m = machine();
    // Only CPU 6 is idle (and not prev's sibling 4). From target 0 the scan looks at 1, 2, 3, 4, 5, 6: it
    // needs a budget of 6 to reach it.
    let with = |nr: u32| place(&m, &[6], LlcShared { has_idle_cores: false, nr_idle_scan: nr }, 0, 0, 0).0;
    assert_eq!(with(6), 6);
    assert_eq!(with(5), 0);
    // A budget of 0 (an overloaded LLC) scans nothing: the target.
    assert_eq!(with(0), 0);
}

#[test]
fn cpus_of_another_llc_or_not_allowed_are_not_taken() {
    let mut m = machine();
    // Split the LLC: CPUs 2, 3, 6, 7 are another cache. prev 2 is idle but does not share the target's.
    for c in [2, 3, 6, 7] {
        m.llc_id[c] = 1;
    }
    m.llc = mask(&[0, 1, 4, 5]);
    assert_eq!(place(&m, &[2, 5], SCAN_ALL, 2, 2, 0).0, 5);
    // An idle recently used CPU the task may not run on is passed over too.
    let m = machine();
    let (idle, allowed) = (mask(&[3]), mask(&[0, 1, 2, 4, 5, 6, 7]));
    let (mut shared, mut recent) = (SCAN_ALL, CpuId(3));
    let cpu = select_idle_sibling(&view(&m, &idle), &mut shared, &allowed, &mut recent, CpuId(2), CpuId(0));
    assert_eq!(cpu, CpuId(0));
}
