//! Built-in scenario presets. Each is a scenario file under
//! `wasm-core/presets/`, compiled into the native binaries (the CLI, the
//! tests). The page reads the same files as data (`src/engine/presets.ts`,
//! with the list `boundary_types.rs` generates from `editor::preset_infos`),
//! so the wasm module carries none. Plain data: the scenario format's tests
//! read it, so it reads nothing of the format.

pub struct Preset {
    pub name: &'static str,
    pub title: &'static str,
    pub json: &'static str,
}

/// A preset named like its file in `wasm-core/presets/`.
macro_rules! preset {
    ($name:literal, $title:literal) => {
        Preset { name: $name, title: $title, json: include_str!(concat!("../../presets/", $name, ".json")) }
    };
}

pub const PRESETS: &[Preset] = &[
    preset!("cfs-nice-levels", "CFS on one CPU: nice levels and a sleeper"),
    preset!("group-imbalance-make", "Group Imbalance: make -j64 + two R processes (Linux 4.1)"),
    preset!("group-imbalance-make-fixed", "Group Imbalance: make -j64 + two R processes (fixed)"),
    preset!("group-imbalance-lu", "Group Imbalance: a 60-thread lu + four R processes (Linux 4.1)"),
    preset!("group-imbalance-lu-fixed", "Group Imbalance: a 60-thread lu + four R processes (fixed)"),
    preset!("missing-domains-hotplug", "Missing Scheduling Domains: hotplug, then a 64-thread app (Linux 4.1)"),
    preset!("missing-domains-hotplug-fixed", "Missing Scheduling Domains: hotplug, then a 64-thread app (fixed)"),
    preset!("group-construction-numactl", "Scheduling Group Construction: an app on nodes 1 and 2 (Linux 4.1)"),
    preset!("group-construction-numactl-fixed", "Scheduling Group Construction: an app on nodes 1 and 2 (fixed)"),
    preset!("overload-on-wakeup-db", "Overload-on-Wakeup: 64 database workers (Linux 4.1)"),
    preset!("overload-on-wakeup-db-fixed", "Overload-on-Wakeup: 64 database workers (fixed)"),
    preset!("gi-colocation", "Group Identity: 8 online services + 8 offline jobs on one Xeon node"),
    preset!("o1-vs-cfs", "O(1) vs CFS: two hogs and an editor on one CPU (Linux 2.6.0-2.6.22)"),
    preset!("eevdf-vs-cfs", "EEVDF vs CFS: a short-slice latency task among three hogs"),
    preset!("context-switches", "Context switches: stress -c 10, then sysbench threads (voluntary vs involuntary)"),
    preset!("pipe-pingpong", "Scheduling cost: pipe ping-pong pinned to one CPU vs across CPUs"),
    preset!("greedy-threads", "Greedy threads: 1 thread vs 8 on 4 CPUs (CFS; try pfs / dw-cfs)"),
    preset!("rt-fifo-rr-throttling", "Real-time classes: FIFO, RR turns and throttling beside a fair hog (Linux 4.1)"),
    preset!("priority-inversion", "Priority inversion: a fair mutex owner, a FIFO waiter and a FIFO hog (Linux 4.1)"),
    preset!("priority-inheritance", "Priority inheritance: the same tasks with PI mutexes (Linux 4.1)"),
    // One task set twice, since one CPU cannot run both at once: 3 ms every 6 and 4 ms every 9 (0.944), worked by
    // hand in tests/it/edf_vs_fixed.rs.
    preset!(
        "edf-vs-fixed-priorities",
        "EDF vs fixed priorities: a periodic pair under SCHED_DEADLINE meets every deadline (Linux 4.1)"
    ),
    preset!(
        "edf-vs-fixed-priorities-rm",
        "EDF vs fixed priorities: the same pair under rate-monotonic SCHED_FIFO misses (Linux 4.1)"
    ),
];

pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}
