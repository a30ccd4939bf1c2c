//! Sampled history of every CPU's runqueue length and load, for the
//! heatmaps (the paper's figure 2). Memory stays bounded on any run length:
//! samples go into fixed-width time buckets, and when the bucket cap is
//! reached neighbouring buckets merge pairwise (the width doubles, the
//! resolution halves).
//!
//! The sampler only reads the simulator (between events), so it cannot
//! change a scheduling decision or the trace hash.
//!
//! ```text
//!   bucket k covers [k·width, (k+1)·width); its value is the state that held
//!   at the bucket's start (the state before the first event at or after it)
//!   cap reached:  [a b][c d][e f] … → [avg(a,b)][avg(c,d)] …, width × 2
//! ```

use crate::sim::Simulator;
use crate::time::SimTime;

/// Buckets kept before merging (thousands of columns for the canvas).
pub const MAX_BUCKETS: usize = 2048;
/// The first bucket width: 1 ms, finer than any tick.
pub const FIRST_WIDTH_NS: u64 = 1_000_000;

#[derive(Clone, Debug)]
pub struct LoadHistory {
    nr_cpus: usize,
    width_ns: u64,
    /// Buckets filled so far.
    len: usize,
    /// Per bucket and CPU (row-major, bucket × nr_cpus): mean nr_running.
    nr_running: Vec<f32>,
    /// Per bucket and CPU: mean PELT load (`weighted_cpuload`).
    load: Vec<f32>,
    /// Per bucket: tasks migrated during it.
    migrations: Vec<u32>,
    /// Per bucket: wasted core time (ns) accounted during it.
    wasted: Vec<u64>,
    /// Wasted core time accounted up to the last sample.
    wasted_seen: u64,
    /// Migrations counted up to the last sample (all tasks' `nr_migrations`).
    migrations_seen: u64,
}

impl LoadHistory {
    pub fn new(nr_cpus: usize) -> LoadHistory {
        LoadHistory {
            nr_cpus,
            width_ns: FIRST_WIDTH_NS,
            len: 0,
            nr_running: Vec::new(),
            load: Vec::new(),
            migrations: Vec::new(),
            migrations_seen: 0,
            wasted: Vec::new(),
            wasted_seen: 0,
        }
    }

    /// Called with the simulator between events, before it processes an
    /// event at `next`: every bucket starting at or before `next` that is not
    /// yet filled gets the current state. Cheap when no bucket starts (one
    /// comparison). A replay after a rewind finds its buckets already filled.
    pub fn observe(&mut self, sim: &Simulator, next: SimTime) {
        if next.ns() < self.next_start() {
            return;
        }
        // Migrations since the last sample happened in the last filled
        // bucket: every event processed since then was earlier than its end.
        let migrated = sim.machine_stats().migrations;
        let wasted = sim.machine_stats().wasted_core_ns;
        if self.len > 0 {
            self.migrations[self.len - 1] += migrated.saturating_sub(self.migrations_seen) as u32;
            self.wasted[self.len - 1] += wasted.saturating_sub(self.wasted_seen);
        }
        self.migrations_seen = self.migrations_seen.max(migrated);
        self.wasted_seen = self.wasted_seen.max(wasted);
        while next.ns() >= self.next_start() {
            if self.len == MAX_BUCKETS {
                self.halve();
            }
            for rq in sim.rqs() {
                self.nr_running.push(rq.nr_running() as f32);
                self.load.push(rq.weighted_cpuload() as f32);
            }
            self.migrations.push(0);
            self.wasted.push(0);
            self.len += 1;
        }
    }

    fn next_start(&self) -> u64 {
        self.len as u64 * self.width_ns
    }

    /// Merges buckets pairwise (MAX_BUCKETS is even): averages of the CPU
    /// values, sums of the migrations.
    fn halve(&mut self) {
        let n = self.nr_cpus;
        let keep = self.len / 2;
        for b in 0..keep {
            let (i, j) = (2 * b, 2 * b + 1);
            for c in 0..n {
                let (x, y) = (i * n + c, j * n + c);
                self.nr_running[b * n + c] = (self.nr_running[x] + self.nr_running[y]) / 2.0;
                self.load[b * n + c] = (self.load[x] + self.load[y]) / 2.0;
            }
            self.migrations[b] = self.migrations[i] + self.migrations[j];
            self.wasted[b] = self.wasted[i] + self.wasted[j];
        }
        self.len = keep;
        self.nr_running.truncate(keep * n);
        self.load.truncate(keep * n);
        self.migrations.truncate(keep);
        self.wasted.truncate(keep);
        self.width_ns *= 2;
    }

    pub fn width_ns(&self) -> u64 {
        self.width_ns
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn nr_cpus(&self) -> usize {
        self.nr_cpus
    }
    pub fn nr_running(&self) -> &[f32] {
        &self.nr_running
    }
    pub fn load(&self) -> &[f32] {
        &self.load
    }
    pub fn migrations(&self) -> &[u32] {
        &self.migrations
    }
    /// Wasted core time (ns) per bucket; the accounting happens at events, so
    /// a bucket holds what was accounted at the events inside it.
    pub fn wasted(&self) -> &[u64] {
        &self.wasted
    }
}
