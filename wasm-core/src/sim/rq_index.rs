//! What the whole-machine readers need to know about every runqueue, kept up
//! to date where runqueues change instead of by a pass over every CPU.
//!
//! Each event touches a few CPUs. Whatever may change a runqueue's length,
//! load, running task, online state or the tasks queued on it marks that CPU
//! (`Simulator::touch`); the index then refreshes only the marked CPUs'
//! entries (`Simulator::sync_index`) before a reader looks:
//!
//! ```text
//!   enqueue / dequeue / pick / hotplug ... ──touch(cpu)──► dirty lists
//!   sync_index: for each dirty CPU, re-read it and adjust the totals
//!   readers: accounting (wasted core time, rq-change trace, load average),
//!            idle_balance's "some CPU is overloaded", the NOHZ kick test
//! ```
//!
//! Marking more than changed is harmless (a CPU re-read equal changes
//! nothing); marking less would be a bug, which `Simulator::check_index`
//! (turned on by `set_index_check`, used by the tests) finds by comparing the
//! index with a full scan after every event.

use crate::task::TaskState;
use crate::time::CpuId;
use crate::topology::cpumask::CpuMask;
use std::collections::{BTreeSet, HashMap};

/// A set of CPUs in the order they were marked, each at most once.
#[derive(Clone, Debug, Default)]
pub struct DirtyList {
    list: Vec<CpuId>,
    marked: Vec<bool>,
}

impl DirtyList {
    fn mark(&mut self, cpu: CpuId) {
        let i = cpu as usize;
        if i >= self.marked.len() {
            self.marked.resize(i + 1, false);
        }
        if !self.marked[i] {
            self.marked[i] = true;
            self.list.push(cpu);
        }
    }

    /// Takes the marked CPUs out into `out` (cleared first), in CPU order.
    pub fn drain_sorted_into(&mut self, out: &mut Vec<CpuId>) {
        out.clear();
        std::mem::swap(out, &mut self.list);
        out.sort_unstable();
        for &c in out.iter() {
            self.marked[c as usize] = false;
        }
    }

    pub fn is_marked(&self, cpu: CpuId) -> bool {
        self.marked.get(cpu as usize).copied().unwrap_or(false)
    }
}

/// One CPU as the index last read it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuEntry {
    /// Online and idle (`idle_cpu`: nothing running, nothing queued).
    pub idle: bool,
    /// `rq->nr_running`.
    pub nr_running: u32,
    /// Queued tasks not running.
    pub waiting: u32,
    /// Online with more than one task (what `rd->overload` stands for).
    pub overloaded: bool,
    /// While idle: its `next_balance` (the NOHZ kick test's key).
    pub due_key: Option<u64>,
    /// The affinity masks (ids) of its queued tasks in state Runnable.
    pub masks: Vec<u32>,
}

#[derive(Clone, Debug, Default)]
pub struct RqIndex {
    /// CPUs to re-read at the next sync.
    sync_dirty: DirtyList,
    /// CPUs whose runqueue change the trace has not recorded yet.
    pub(crate) note_dirty: DirtyList,
    /// CPUs whose root tree may hold rotations not yet collected.
    pub(crate) rot_dirty: DirtyList,
    /// Reused buffers: a drained dirty list, a CPU's mask ids.
    pub(crate) scratch: Vec<CpuId>,
    spare_masks: Vec<u32>,
    entries: Vec<CpuEntry>,
    /// Online idle CPUs.
    pub idle: CpuMask,
    pub nr_running: u64,
    pub waiting: u64,
    pub overloaded: u32,
    /// Idle CPUs by (next_balance, cpu).
    pub idle_due: BTreeSet<(u64, CpuId)>,
    /// Distinct affinity masks, interned.
    masks: Vec<CpuMask>,
    mask_ids: HashMap<CpuMask, u32>,
    /// Each task's mask id (u32::MAX: not interned yet).
    task_mask: Vec<u32>,
    /// Per mask id: how many waiting (Runnable, queued) tasks have it.
    mask_waiting: Vec<u32>,
    /// The union of the masks of waiting tasks (stale: recompute).
    usable: CpuMask,
    usable_stale: bool,
    /// Whether the idle set, the usable set or "some task waits" may have
    /// changed since the wasted set was last derived.
    pub(crate) wasted_inputs_changed: bool,
}

impl RqIndex {
    pub fn new(nr_cpus: usize) -> RqIndex {
        RqIndex { entries: vec![CpuEntry::default(); nr_cpus], ..Default::default() }
    }

    pub fn touch(&mut self, cpu: CpuId) {
        self.sync_dirty.mark(cpu);
        self.note_dirty.mark(cpu);
        self.rot_dirty.mark(cpu);
    }

    /// The task's affinity changed: intern it again when next seen.
    pub fn forget_task_mask(&mut self, pid: u32) {
        if let Some(m) = self.task_mask.get_mut(pid as usize) {
            *m = u32::MAX;
        }
    }

    fn mask_id(&mut self, pid: u32, allowed: &CpuMask) -> u32 {
        let i = pid as usize;
        if i >= self.task_mask.len() {
            self.task_mask.resize(i + 1, u32::MAX);
        }
        if self.task_mask[i] == u32::MAX {
            let next = self.masks.len() as u32;
            let id = *self.mask_ids.entry(allowed.clone()).or_insert(next);
            if id == next {
                self.masks.push(allowed.clone());
                self.mask_waiting.push(0);
            }
            self.task_mask[i] = id;
        }
        self.task_mask[i]
    }

    /// The CPUs some waiting task may run on.
    pub fn usable(&mut self) -> &CpuMask {
        if self.usable_stale {
            let mut u = CpuMask::new();
            for (m, &n) in self.masks.iter().zip(&self.mask_waiting) {
                if n > 0 {
                    u.or_with(m);
                }
            }
            self.usable = u;
            self.usable_stale = false;
        }
        &self.usable
    }

    /// Stores the CPU's new entry, adjusting the totals; returns the old one.
    fn set_entry(&mut self, cpu: CpuId, new: CpuEntry) -> CpuEntry {
        let i = cpu as usize;
        if i >= self.entries.len() {
            self.entries.resize(i + 1, CpuEntry::default());
        }
        let old = &self.entries[i];
        if old.idle != new.idle {
            if new.idle {
                self.idle.set(cpu);
            } else {
                self.idle.clear(cpu);
            }
            self.wasted_inputs_changed = true;
        }
        self.nr_running = self.nr_running + new.nr_running as u64 - old.nr_running as u64;
        if (self.waiting == 0) != (self.waiting + new.waiting as u64 - old.waiting as u64 == 0) {
            self.wasted_inputs_changed = true;
        }
        self.waiting = self.waiting + new.waiting as u64 - old.waiting as u64;
        self.overloaded = self.overloaded + new.overloaded as u32 - old.overloaded as u32;
        if old.due_key != new.due_key {
            if let Some(k) = old.due_key {
                self.idle_due.remove(&(k, cpu));
            }
            if let Some(k) = new.due_key {
                self.idle_due.insert((k, cpu));
            }
        }
        if old.masks != new.masks {
            for &m in &old.masks {
                self.mask_waiting[m as usize] -= 1;
                if self.mask_waiting[m as usize] == 0 {
                    self.usable_stale = true;
                    self.wasted_inputs_changed = true;
                }
            }
            for &m in &new.masks {
                self.mask_waiting[m as usize] += 1;
                if self.mask_waiting[m as usize] == 1 && !self.usable_stale {
                    self.usable.or_with(&self.masks[m as usize]);
                    self.wasted_inputs_changed = true;
                }
            }
        }
        std::mem::replace(&mut self.entries[i], new)
    }

    pub fn entry(&self, cpu: CpuId) -> Option<&CpuEntry> {
        self.entries.get(cpu as usize)
    }
}

impl super::Simulator {
    /// Marks `cpu`'s runqueue as possibly changed.
    pub(crate) fn touch(&mut self, cpu: CpuId) {
        self.index.touch(cpu);
    }

    /// What the index keeps of `cpu`, read from the runqueue now.
    fn read_entry(&mut self, cpu: CpuId, reuse: Vec<u32>) -> CpuEntry {
        let rq = &self.rqs[cpu as usize];
        let nr_running = rq.nr_running();
        let idle = rq.online && rq.is_idle();
        let mut masks = reuse;
        masks.clear();
        for &pid in &rq.cfs_tasks {
            let task = &self.tasks[pid as usize];
            if task.state == TaskState::Runnable {
                masks.push(self.index.mask_id(pid, &task.allowed));
            }
        }
        masks.sort_unstable();
        CpuEntry {
            idle,
            nr_running,
            waiting: nr_running.saturating_sub(u32::from(rq.curr().is_some())),
            overloaded: rq.online && nr_running > 1,
            due_key: idle.then_some(rq.next_balance),
            masks,
        }
    }

    /// Re-reads the CPUs touched since the last sync.
    pub(crate) fn sync_index(&mut self) {
        let mut dirty = std::mem::take(&mut self.index.scratch);
        self.index.sync_dirty.drain_sorted_into(&mut dirty);
        for &cpu in &dirty {
            let buf = std::mem::take(&mut self.index.spare_masks);
            let entry = self.read_entry(cpu, buf);
            self.index.spare_masks = self.index.set_entry(cpu, entry).masks;
        }
        self.index.scratch = dirty;
    }

    /// Whether some online CPU has more than one task (idle_balance's
    /// `rd->overload` test).
    pub(crate) fn some_cpu_overloaded(&mut self) -> bool {
        self.sync_index();
        self.index.overloaded > 0
    }

    /// Turns on the index self-check: after every event, the index is
    /// compared with a full scan of the runqueues (slow; for tests).
    pub fn set_index_check(&mut self, on: bool) {
        self.index_check = on;
    }

    /// Panics if the index disagrees with a full scan (tests only).
    pub(crate) fn check_index(&mut self) {
        self.sync_index();
        for cpu in 0..self.rqs.len() as CpuId {
            let fresh = self.read_entry(cpu, Vec::new());
            let kept = self.index.entry(cpu).cloned().unwrap_or_default();
            assert_eq!(kept, fresh, "index entry of CPU {cpu} at {:?} after event {}", self.now, self.events);
            let rq = &self.rqs[cpu as usize];
            if !self.index.note_dirty.is_marked(cpu) {
                assert_eq!(
                    self.trace.rq_last(cpu),
                    (rq.nr_running(), rq.weighted_cpuload()),
                    "CPU {cpu} changed unmarked at {:?}",
                    self.now
                );
            }
            if !self.index.rot_dirty.is_marked(cpu) {
                assert!(!rq.cfs.tree.has_rotations(), "CPU {cpu} rotated unmarked");
            }
        }
    }
}
