//! A real trace at the lab's cursor, in the shapes the page draws a
//! simulation from (`api::views::view`, `api::report`, `api::views::topology`): so the
//! lanes, heatmaps, topology, metrics, event log and task table show a real
//! run unchanged. What a trace cannot say (runqueue trees, vruntime, PELT,
//! balancing decisions, schedstats) is left empty, and the page says why.

use super::replay::Replay;
use super::replay_cursor::Thread;
use super::trace_text::Event;
use crate::api::report::{CpuReport, Report};
use crate::api::views::event_args::EventArgs;
use crate::api::views::metrics::LatencyCdf;
use crate::api::views::topology::{CpuPlace, MigrationView, TopologyView};
use crate::api::views::view::{CpuView, EventView, SimView, TaskList, TaskView, TreeView};
use crate::sched::entity::task_ent_id;
use crate::time::{CpuId, Pid};

impl Replay {
    /// `SimView` at `now`: every CPU's current task and queue length; no trees (a trace has none).
    pub fn frame_at(&self, now: u64) -> SimView {
        let a = self.at(now);
        let mut queued = vec![0u32; self.nr_cpus as usize];
        for th in a.threads.values().filter(|th| th.state == "runnable") {
            if let Some(q) = queued.get_mut(th.cpu as usize) {
                *q += 1;
            }
        }
        let cpus = (0..self.nr_cpus as usize)
            .map(|c| {
                let curr = a.curr[c].filter(|&p| p != 0).and_then(|p| self.task_of(p)).map(Pid);
                CpuView {
                    cpu: CpuId(c as u32),
                    online: true,
                    curr,
                    root_curr: curr.map(task_ent_id),
                    nr_running: queued[c] + u32::from(curr.is_some()),
                    min_vruntime: 0,
                    load_weight: 0,
                    load: 0,
                    tree: TreeView { root: None, nodes: Vec::new() },
                    groups: Vec::new(),
                    under: None,
                    o1: None,
                    eevdf: None,
                    rt: None,
                    dl: None,
                    // A trace's classes are its tasks' prios, not read here; it records no stopper's works.
                    classes: None,
                    stop_works: Vec::new(),
                    // A trace records no load history or tick state.
                    cpu_load: None,
                    tick_stopped: false,
                }
            })
            .collect();
        SimView {
            now_ns: now,
            events: self.events_at(now) as u64,
            finished: now >= self.duration_ns,
            cpus,
            tasks: Vec::new(),
            rotations: Vec::new(),
        }
    }

    /// The task table at `now` (`TaskList`): live threads first, at most `max` rows.
    pub fn tasks_at(&self, now: u64, max: usize) -> TaskList {
        let a = self.at(now);
        let mut rows: Vec<(u32, &Thread)> =
            a.threads.iter().filter_map(|(tid, th)| Some((self.task_of(tid)?, th))).collect();
        rows.sort_by_key(|(i, th)| (th.state == "exited", *i));
        let total = rows.len();
        let rows = rows
            .into_iter()
            .take(max)
            .map(|(i, th)| {
                let nice = (th.prio - 120).clamp(-20, 19);
                TaskView {
                    pid: Pid(i),
                    tgid: self.tids[i as usize],
                    name: self.names[i as usize].clone(),
                    nice,
                    // A trace's prio below 100 is real-time; it does not say FIFO or RR.
                    policy: if th.prio < 100 { "rt" } else { "normal" },
                    rt_priority: if th.prio < 100 { (99 - th.prio).clamp(0, 99) as u32 } else { 0 },
                    weight: crate::sched::weights::nice_to_weight(nice),
                    state: if th.state.is_empty() { "sleeping" } else { th.state },
                    cpu: CpuId(th.cpu),
                    vruntime: 0,
                    sum_exec_ns: th.sum_exec_ns,
                    wait_ns: th.wait_ns,
                    nvcsw: th.nvcsw,
                    nivcsw: th.nivcsw,
                }
            })
            .collect();
        TaskList { rows, total }
    }

    fn named(&self, tid: u32) -> String {
        match self.task_of(tid) {
            Some(i) if tid != 0 => format!("{}[{tid}]", self.names[i as usize]),
            _ if tid == 0 => String::new(),
            _ => format!("tid {tid}[{tid}]"),
        }
    }

    /// The `n` last records at or before `now` the event log words (`EventView[]`, oldest first).
    pub fn events_before(&self, now: u64, n: usize) -> Vec<EventView> {
        let mut out = Vec::new();
        for r in self.records[..self.events_at(now)].iter().rev() {
            if out.len() == n {
                break;
            }
            let mut args = EventArgs::default();
            let kind = match &r.event {
                Event::Switch { prev_pid, prev_state, next_pid, .. } => {
                    args.insert("prev", self.named(*prev_pid));
                    args.insert("prev_state", state_word(prev_state).to_string());
                    args.insert("next", self.named(*next_pid));
                    "sched_switch"
                }
                Event::Wakeup { pid, .. } => {
                    args.insert("task", self.named(*pid));
                    "sched_wakeup"
                }
                Event::WakeupNew { pid, .. } => {
                    args.insert("task", self.named(*pid));
                    "sched_wakeup_new"
                }
                Event::Migrate { pid, orig_cpu, dest_cpu } => {
                    args.insert("task", self.named(*pid));
                    args.insert("from", orig_cpu.to_string());
                    args.insert("to", dest_cpu.to_string());
                    args.insert("cause", "unknown".to_string());
                    "sched_migrate_task"
                }
                Event::Exit { pid } => {
                    args.insert("task", self.named(*pid));
                    "exit"
                }
                Event::Waking { .. } | Event::Fork { .. } | Event::Marker(_) => continue,
            };
            let text = args.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ");
            out.push(EventView { t_ns: r.ts_ns, cpu: CpuId(r.cpu), kind, text: format!("{kind}: {text}"), args });
        }
        out.reverse();
        out
    }

    /// Up to `n` migrations in [since, now] (`MigrationView[]`): the topology's arrows.
    pub fn migrations_between(&self, since: u64, now: u64, n: usize) -> Vec<MigrationView> {
        let end = self.events_at(now);
        let from = self.records.partition_point(|r| r.ts_ns < since).min(end);
        let mut list: Vec<MigrationView> = self.records[from..end]
            .iter()
            .filter_map(|r| match r.event {
                Event::Migrate { pid, orig_cpu, dest_cpu } if orig_cpu < self.nr_cpus && dest_cpu < self.nr_cpus => {
                    let pid = self.task_of(pid)?;
                    Some(MigrationView {
                        t_ns: r.ts_ns,
                        pid: Pid(pid),
                        from: CpuId(orig_cpu),
                        to: CpuId(dest_cpu),
                        cause: "unknown",
                    })
                }
                _ => None,
            })
            .collect();
        list.drain(..list.len().saturating_sub(n));
        list
    }

    /// Flat quads [cpu, task, start, end] of slices on CPUs `lo..hi` overlapping [t0, t1] and begun by
    /// `now` (clipped there); as `api::views::view::slices`, those shorter than `bucket_ns` come once per bucket.
    pub fn slices_in(&self, now: u64, t0: u64, t1: u64, bucket_ns: u64, lo: u32, hi: u32) -> Vec<f64> {
        let mut out = Vec::new();
        for lane in self.slices.iter().skip(lo as usize).take(hi.saturating_sub(lo) as usize) {
            let first = lane.partition_point(|s| s.end_ns < t0);
            let mut last_bucket = u64::MAX;
            for s in lane[first..].iter().take_while(|s| s.start_ns <= t1.min(now)) {
                let end = s.end_ns.min(now);
                if bucket_ns == 0 || end - s.start_ns >= bucket_ns {
                    out.extend([s.cpu as f64, s.task as f64, s.start_ns as f64, end as f64]);
                    continue;
                }
                let b = s.start_ns / bucket_ns;
                if b != last_bucket {
                    last_bucket = b;
                    out.extend([s.cpu as f64, s.task as f64, (b * bucket_ns) as f64, ((b + 1) * bucket_ns) as f64]);
                }
            }
        }
        out
    }

    /// The lab's `Report` of the whole recorded window (a trace is read whole; the cursor moves the views, not
    /// the figures), with the sanity checker's violations. The kernel, the format and the lost events are the
    /// trace's report's (`real_report_json`).
    pub fn page_report(&self) -> Report {
        let r = &self.report;
        Report {
            scenario: r.scenario.clone(),
            seed: r.seed,
            sim_time_ns: r.window_ns,
            events: self.records.len() as u64,
            trace_hash: String::new(),
            wasted_core_ns: self.wasted_core_ns,
            longest_wasted_idle: None,
            event_budget_stop_ns: None,
            notes: Vec::new(),
            loadavg: [0.0; 3],
            jain_fairness_threads: r.jain_fairness_threads,
            migrations: r.migrations,
            balance_decisions: 0,
            sanity_violations: self.violations.clone(),
            sanity_violations_total: self.violations_total,
            cpus: r
                .cpus
                .iter()
                .map(|c| CpuReport { cpu: CpuId(c.cpu), busy_ns: c.busy_ns, idle_ns: c.idle_ns })
                .collect(),
            processes: r.processes.clone(),
            schedstat: Vec::new(),
            exercise: None,
        }
    }

    /// Each woken workload process's wakeup latency quantiles (as `api::views::metrics::latency_cdfs`).
    pub fn latency_cdfs(&self, points: usize) -> Vec<LatencyCdf> {
        let points = points.clamp(1, 1000);
        self.report
            .processes
            .iter()
            .zip(&self.latency)
            .filter(|(_, lat)| !lat.is_empty())
            .map(|(p, lat)| LatencyCdf {
                tgid: p.tgid,
                name: p.name.clone(),
                samples: lat.len() as usize,
                quantiles: lat.cdf(points),
            })
            .collect()
    }

    /// The machine as far as a trace tells it: its CPUs, one node in one package, no SMT known.
    pub fn topology(&self) -> TopologyView {
        let n = self.nr_cpus;
        let cpus = (0..n).map(|c| CpuPlace { cpu: CpuId(c), package: 0, node: 0, core: c, thread: 0, online: true });
        TopologyView {
            name: format!("recorded ({n} CPUs)"),
            nodes: 1,
            cores_per_node: n,
            threads_per_core: 1,
            nodes_per_package: 1,
            distance: vec![vec![10]],
            hops: vec![vec![0]],
            cpus: cpus.collect(),
        }
    }
}

/// A trace's `prev_state` in the event log's words.
fn state_word(s: &str) -> &'static str {
    match s.chars().next() {
        Some('R') => "runnable",
        Some('X' | 'Z') => "exited",
        _ => "sleeping",
    }
}
