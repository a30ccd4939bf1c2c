//! `detach_tasks` worked by hand (Debian 6.12.117 fair.c 9616–9735; the
//! pass's loop limits from `sched_balance_rq`, 11811 and 11856). Lists are
//! written head first; the walk starts at the tail.

use super::*;

fn task(pid: u32, h_load: u64, util_est: u64) -> Candidate {
    Candidate { pid, h_load, util_est, fits_src_cpu: true }
}

fn pids(v: &[Candidate]) -> Vec<u32> {
    v.iter().map(|c| c.pid).collect()
}

/// A (1024), B (2048), C (512), D (1024) on the source, head to tail.
fn four() -> Vec<Candidate> {
    vec![task(1, 1024, 300), task(2, 2048, 600), task(3, 512, 150), task(4, 1024, 300)]
}

#[test]
fn load_is_taken_from_the_tail_while_it_fits_the_imbalance() {
    // Imbalance 1500, no failures: D (1024 ≤ 1500) goes, 476 left; C (512), B (2048) and A (1024) each
    // exceed 476 and move to the head in turn; the fifth look passes loop_max = min(32, 4) = 4.
    let mut env = DetachEnv::new(IdleType::NotIdle, MigrationType::Load, 1500, 0, 4);
    let mut list = four();
    let taken = detach_tasks(&mut env, &mut list, 4, |_| true);
    assert_eq!(pids(&taken), [4]);
    assert_eq!((env.imbalance, env.loop_count, env.need_break), (476, 5, false));
    assert_eq!(pids(&list), [1, 2, 3]);
    // After one failed pass each load counts half against the imbalance: D (512 ≤ 1500) leaves 476,
    // C (256 ≤ 476) leaves 476 − 512 = −36, and the pass stops.
    let mut env = DetachEnv::new(IdleType::NotIdle, MigrationType::Load, 1500, 1, 4);
    let mut list = four();
    assert_eq!(pids(&detach_tasks(&mut env, &mut list, 4, |_| true)), [4, 3]);
    assert_eq!(env.imbalance, -36);
}

#[test]
fn util_counts_the_estimated_utilization() {
    // Imbalance 700 in util: D (300) leaves 400, C (150) leaves 250, B (600 > 250) moves to the head,
    // A (300 > 250) too; loop_max is reached.
    let mut env = DetachEnv::new(IdleType::NotIdle, MigrationType::Util, 700, 0, 4);
    let mut list = four();
    assert_eq!(pids(&detach_tasks(&mut env, &mut list, 4, |_| true)), [4, 3]);
    assert_eq!(env.imbalance, 250);
    assert_eq!(pids(&list), [1, 2]);
}

#[test]
fn an_idle_balancer_leaves_the_source_one_task_and_a_newly_idle_one_takes_one() {
    // migrate_task, imbalance 3 on a source of 3 from an idle CPU: two go, then the source is down to one.
    let mut env = DetachEnv::new(IdleType::Idle, MigrationType::Task, 3, 0, 3);
    let mut list = four()[1..].to_vec();
    assert_eq!(pids(&detach_tasks(&mut env, &mut list, 3, |_| true)), [4, 3]);
    assert_eq!(env.imbalance, 1);
    // A busy balancer is not held back by that rule: the third goes too.
    let mut env = DetachEnv::new(IdleType::NotIdle, MigrationType::Task, 3, 0, 3);
    let mut list = four()[1..].to_vec();
    assert_eq!(pids(&detach_tasks(&mut env, &mut list, 3, |_| true)), [4, 3, 2]);
    // Newly idle under CONFIG_PREEMPTION: one task, whatever is left of the imbalance.
    let mut env = DetachEnv::new(IdleType::NewlyIdle, MigrationType::Task, 3, 0, 4);
    let mut list = four();
    assert_eq!(pids(&detach_tasks(&mut env, &mut list, 4, |_| true)), [4]);
    assert_eq!(env.imbalance, 2);
}

#[test]
fn unmovable_tasks_rotate_and_the_walk_ends_at_loop_max_without_a_break() {
    // D cannot go (pinned, running or cache-hot): it moves to the head, and C is taken next.
    let mut env = DetachEnv::new(IdleType::NotIdle, MigrationType::Task, 1, 0, 4);
    let mut list = four();
    let (mut asked, mut detached) = (Vec::new(), Vec::new());
    let taken = detach_tasks(&mut env, &mut list, 4, |probe| match probe {
        Probe::CanMigrate(p) => {
            asked.push(p.pid);
            p.pid != 4
        }
        Probe::Detach(p) => {
            detached.push(p.pid);
            true
        }
    });
    assert_eq!((pids(&taken), asked, detached), (vec![3], vec![4, 3], vec![3]));
    assert_eq!(pids(&list), [4, 1, 2]);
    // 40 tasks, none movable: loop_max = min(32, 40) = 32 = loop_break, so the walk ends at its 33rd
    // look by loop_max, before the breather's test: LBF_NEED_BREAK is never set with the default sysctl.
    let mut env = DetachEnv::new(IdleType::NotIdle, MigrationType::Task, 5, 0, 40);
    let mut list: Vec<Candidate> = (0..40).map(|i| task(i, 1024, 300)).collect();
    assert!(detach_tasks(&mut env, &mut list, 40, |_| false).is_empty());
    assert_eq!((env.loop_count, env.need_break), (33, false));
}

#[test]
fn a_misfit_pass_takes_the_first_task_that_does_not_fit_and_stops() {
    let mut env = DetachEnv::new(IdleType::NotIdle, MigrationType::Misfit, 1, 0, 4);
    let mut list = four();
    list[1].fits_src_cpu = false;
    // D, C fit the source and move to the head; B does not: it goes and the imbalance is spent.
    assert_eq!(pids(&detach_tasks(&mut env, &mut list, 4, |_| true)), [2]);
    assert_eq!(env.imbalance, 0);
    assert_eq!(pids(&list), [3, 4, 1]);
}

#[test]
fn nothing_is_detached_from_a_lone_task_or_without_an_imbalance() {
    let mut env = DetachEnv::new(IdleType::NotIdle, MigrationType::Load, 1500, 0, 1);
    assert!(detach_tasks(&mut env, &mut four()[..1].to_vec(), 1, |_| true).is_empty());
    let mut env = DetachEnv::new(IdleType::NotIdle, MigrationType::Load, 0, 0, 4);
    assert!(detach_tasks(&mut env, &mut four(), 4, |_| true).is_empty());
    assert_eq!(env.loop_count, 0);
}

/// The load weighed is the one the caller reads as the walk reaches the task
/// (`task_h_load` after the earlier detaches): tail first, C (500 of 1000)
/// leaves 500, B (300) leaves 200, A (600 > 200) goes to the head.
#[test]
fn the_load_weighed_is_read_when_the_walk_reaches_the_task() {
    let mut env = DetachEnv::new(IdleType::NotIdle, MigrationType::Load, 1000, 0, 3);
    let mut list = vec![task(1, 0, 0), task(2, 0, 0), task(3, 0, 0)];
    let loads = [0, 600, 300, 500];
    let taken = detach_tasks(&mut env, &mut list, 3, |probe| match probe {
        Probe::CanMigrate(p) => {
            p.h_load = loads[p.pid as usize];
            true
        }
        Probe::Detach(_) => true,
    });
    assert_eq!(pids(&taken), [3, 2]);
    assert_eq!(env.imbalance, 200);
    assert_eq!(pids(&list), [1]);
}
