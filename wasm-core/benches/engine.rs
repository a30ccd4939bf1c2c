//! Engine micro-benchmarks (`cargo bench`): the red-black tree's operations,
//! one load_balance pass and one tick period (4 ms of events) on 64 CPUs,
//! 1,000 events on a 16- and a 1,024-CPU node, one balancing pass over 1,024
//! CPUs, measured with Criterion.
//! `npm run bench` measures whole runs; these isolate the hot pieces.

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion};
use schedlab_core::api::presets;
use schedlab_core::api::scenario::load_scenario;
use schedlab_core::rbtree::RbTree;
use schedlab_core::sim::Simulator;
use schedlab_core::time::{CpuId, SimTime};

/// Keys spread like vruntimes: distinct, in no particular order.
fn keys(n: u64) -> Vec<u64> {
    (0..n).map(|i| (i * 2_654_435_761) % 1_000_003 * 1_000 + i).collect()
}

fn rbtree(c: &mut Criterion) {
    let ks = keys(1_000);
    c.bench_function("rbtree: insert 1000 entities", |b| {
        b.iter(|| {
            let mut t: RbTree<u64, u32> = RbTree::without_rotation_log();
            for (i, &k) in ks.iter().enumerate() {
                t.insert(k, i as u32);
            }
            black_box(t.len())
        })
    });
    let mut full: RbTree<u64, u32> = RbTree::without_rotation_log();
    for (i, &k) in ks.iter().enumerate() {
        full.insert(k, i as u32);
    }
    c.bench_function("rbtree: pick leftmost and re-insert (one schedule), 1000 queued", |b| {
        b.iter_batched(
            || full.clone(),
            // The tree is returned so that freeing it is not timed.
            |mut t| {
                let (k, v) = t.first().expect("queued");
                t.remove(k);
                t.insert(k + 3_000_000, v);
                t
            },
            BatchSize::SmallInput,
        )
    });
}

/// group-imbalance-make on the 64-CPU Opteron, 1 simulated second in.
fn opteron_at_one_second() -> Simulator {
    let p = presets::find("group-imbalance-make").expect("preset");
    let mut sim = Simulator::new(&load_scenario(p.json).expect("valid preset"));
    sim.run_until(SimTime(1_000_000_000));
    sim
}

fn balancing_and_tick(c: &mut Criterion) {
    let sim = opteron_at_one_second();
    // A full pass at the top (NUMA) level: the first CPU that is its group's
    // designated balancer there (others stop at once, "not its turn").
    use schedlab_core::balance::decision::Outcome;
    let (cpu, top) = (0..sim.rqs().len() as u32)
        .map(|cpu| (cpu, sim.rqs()[cpu as usize].domains.len() - 1))
        .find(|&(cpu, top)| {
            let mut probe = sim.clone();
            probe.balance_pass(CpuId(cpu), top);
            !matches!(probe.decisions().back().map(|d| &d.outcome), Some(Outcome::NotDesignated { .. }) | None)
        })
        .expect("some CPU balances the top level");
    let mut probe = sim.clone();
    probe.balance_pass(CpuId(cpu), top);
    println!("the pass measured: {}", probe.decisions().back().expect("recorded").explain());
    c.bench_function("load_balance: one NUMA-level pass on 64 CPUs", |b| {
        // The simulator is returned so that freeing it is not timed.
        b.iter_batched(
            || sim.clone(),
            |mut s| {
                black_box(s.balance_pass(CpuId(cpu), top));
                s
            },
            BatchSize::LargeInput,
        )
    });
    let tick = sim.tick_ns();
    c.bench_function("tick period: every event of the next 4 ms (one HZ-250 tick) on 64 CPUs", |b| {
        b.iter_batched(
            || sim.clone(),
            |mut s| {
                let t = s.now().ns() + tick;
                s.run_until(SimTime(t));
                s
            },
            BatchSize::LargeInput,
        )
    });
}

/// Issue 16's workload (two run/sleep threads per CPU) on one node of `cpus`
/// cores, 100 simulated ms in.
fn scaling_at_100ms(cpus: u32) -> Simulator {
    let text = format!(
        r#"{{"version":1,"name":"s","duration_ms":2000,"hz":1000,
          "machine":{{"nodes":1,"cores_per_node":{cpus},"threads_per_core":1}},
          "processes":[{{"name":"hog","threads":{},"program":[{{"body":[{{"run_us":{{"exp":3000}}}},{{"sleep_us":{{"exp":1000}}}}]}}]}}]}}"#,
        2 * cpus
    );
    let mut sim = Simulator::new(&load_scenario(&text).expect("valid"));
    sim.run_until(SimTime(100_000_000));
    sim
}

/// The hot paths issue 16 made independent of the machine's size: an event's
/// accounting, the NOHZ kick test, wakeup placement (the index instead of a
/// pass over every CPU). 1,000 events cost about the same on 16 and 1,024
/// CPUs, apart from the kernel's own scans (balancing passes over a domain).
fn events_by_machine_size(c: &mut Criterion) {
    for cpus in [16, 1024] {
        let sim = scaling_at_100ms(cpus);
        c.bench_function(&format!("1,000 events of run/sleep threads on one {cpus}-CPU node"), |b| {
            b.iter_batched(
                || sim.clone(),
                |mut s| {
                    for _ in 0..1000 {
                        s.step_event();
                    }
                    s
                },
                BatchSize::LargeInput,
            )
        });
    }
    // A balancing pass over a 1,024-group domain (the kernel's own scan),
    // redone while the busiest CPUs have nothing to give (balance/search.rs).
    let sim = scaling_at_100ms(1024);
    let cpu = (0..1024).find(|&c| sim.rqs()[c as usize].curr().is_none()).unwrap_or(0);
    c.bench_function("load_balance: one pass (with redos) over a 1,024-CPU node", |b| {
        b.iter_batched(
            || sim.clone(),
            |mut s| {
                black_box(s.balance_pass(CpuId(cpu), 0));
                s
            },
            BatchSize::LargeInput,
        )
    });
}

criterion_group!(benches, rbtree, balancing_and_tick, events_by_machine_size);
criterion_main!(benches);
