//! What the whole-machine readers need to know about every runqueue, kept up
//! to date where runqueues change instead of by a pass over every CPU.
//!
//! Each event touches a few CPUs and tasks. Whatever may change a runqueue's
//! length, load, running task, idle stamp or online state marks that CPU
//! (`Simulator::touch`); whatever may change whether a task waits (queued,
//! not running) or its affinity marks the task (`RqIndex::touch_task`). The
//! index then re-reads only what was marked (`Simulator::sync_index`) before
//! a reader looks:
//!
//! ```text
//!   enqueue / dequeue / pick / hotplug ... ──touch(cpu), touch_task(pid)──► dirty lists
//!   sync_index: re-read each dirty CPU and task, adjust the totals
//!   readers: accounting (wasted core time, rq-change trace, load average),
//!            the NOHZ kick test and balancer, select_idle_sibling and the Overload-on-Wakeup fix
//! ```
//!
//! Marking more than changed is harmless (a re-read equal changes nothing);
//! marking less would be a bug, which `Simulator::check_index` (turned on by
//! `set_index_check`, used by the tests) finds by comparing the index with a
//! full scan after every event.

use crate::task::TaskState;
use crate::time::{CpuId, Pid};
use crate::topology::cpumask::CpuMask;
use std::collections::{BTreeSet, HashMap};

/// A set of tasks in the order they were marked, each at most once.
#[derive(Clone, Debug, Default)]
pub struct DirtyList {
    list: Vec<Pid>,
    marked: Vec<bool>,
}

impl DirtyList {
    /// Inlined down to the test of the task's flag: most marks find it set.
    #[inline]
    fn mark(&mut self, id: Pid) {
        if !self.marked.get(id.idx()).copied().unwrap_or(false) {
            self.mark_new(id);
        }
    }

    #[inline(never)]
    fn mark_new(&mut self, id: Pid) {
        let i = id.idx();
        if i >= self.marked.len() {
            self.marked.resize(i + 1, false);
        }
        self.marked[i] = true;
        self.list.push(id);
    }

    fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Takes the marked ids out into `out` (cleared first), in the order they
    /// were marked.
    pub fn drain_into(&mut self, out: &mut Vec<Pid>) {
        out.clear();
        std::mem::swap(out, &mut self.list);
        for &c in out.iter() {
            self.marked[c.idx()] = false;
        }
    }
}

/// One CPU as the index last read it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CpuEntry {
    /// Online and idle (`idle_cpu`: nothing running, nothing queued).
    pub idle: bool,
    /// Online and idle for the wasted-core readers (`Core::runs_idle`).
    pub runs_idle: bool,
    /// `rq->nr_running`.
    pub nr_running: u32,
    /// Queued tasks not running.
    pub waiting: u32,
    /// While idle: when it went idle (u64::MAX if unknown), the
    /// Overload-on-Wakeup fix's longest-idle key.
    pub stamp_key: Option<u64>,
}

/// Three sets of CPUs marked together (`RqIndex::touch`), one flag byte each.
#[derive(Clone, Debug, Default)]
pub struct CpuMarks {
    marks: Vec<u8>,
    lists: [Vec<CpuId>; 3],
}

/// The sets of `CpuMarks`: to re-read at the next sync; whose runqueue
/// change the trace has not recorded yet; whose root tree may hold
/// rotations not yet collected.
pub const SYNC: usize = 0;
pub const NOTE: usize = 1;
pub const ROT: usize = 2;

impl CpuMarks {
    fn new(nr_cpus: usize) -> CpuMarks {
        CpuMarks { marks: vec![0; nr_cpus], lists: Default::default() }
    }

    /// Inlined down to the test of the CPU's flags: most marks (every load
    /// change of an event marks its CPU) find them all set.
    #[inline]
    fn mark(&mut self, cpu: CpuId) {
        if self.marks[cpu.idx()] != 0b111 {
            self.mark_new(cpu);
        }
    }

    #[inline(never)]
    fn mark_new(&mut self, cpu: CpuId) {
        let m = &mut self.marks[cpu.idx()];
        for (set, list) in self.lists.iter_mut().enumerate() {
            if *m & (1 << set) == 0 {
                list.push(cpu);
            }
        }
        *m = 0b111;
    }

    pub fn is_empty(&self, set: usize) -> bool {
        self.lists[set].is_empty()
    }

    /// Takes set `set`'s CPUs out into `out` (cleared first), in the order
    /// they were marked.
    pub fn drain_into(&mut self, set: usize, out: &mut Vec<CpuId>) {
        out.clear();
        std::mem::swap(out, &mut self.lists[set]);
        for &c in out.iter() {
            self.marks[c.idx()] &= !(1 << set);
        }
    }

    /// As `drain_into`, in CPU order (for readers whose output follows it).
    pub fn drain_sorted_into(&mut self, set: usize, out: &mut Vec<CpuId>) {
        self.drain_into(set, out);
        out.sort_unstable();
    }

    pub fn is_marked(&self, set: usize, cpu: CpuId) -> bool {
        self.marks.get(cpu.idx()).is_some_and(|m| m & (1 << set) != 0)
    }
}

#[derive(Clone, Debug, Default)]
pub struct RqIndex {
    /// CPUs touched since each reader last looked (SYNC, NOTE, ROT).
    pub(crate) cpus: CpuMarks,
    /// Tasks to re-read at the next sync.
    task_dirty: DirtyList,
    /// Reused buffers for draining the dirty CPUs and the dirty tasks.
    pub(crate) scratch: Vec<CpuId>,
    task_scratch: Vec<Pid>,
    entries: Vec<CpuEntry>,
    /// Online idle CPUs (`idle_cpu`).
    pub idle: CpuMask,
    /// The idle CPUs of wasted core time and of the sanity checker
    /// (`Core::runs_idle`), which judge by what runs.
    pub runs_idle: CpuMask,
    pub nr_running: u64,
    pub waiting: u64,
    /// Idle CPUs by (idle since, cpu): the longest idle first.
    pub idle_since: BTreeSet<(u64, CpuId)>,
    /// Distinct affinity masks, interned.
    masks: Vec<CpuMask>,
    mask_ids: HashMap<CpuMask, u32>,
    /// Per task: the mask id it is counted under while it waits (queued and
    /// Runnable), u32::MAX while it does not.
    counted: Vec<u32>,
    /// Per task: its affinity's mask id, once interned (u32::MAX: not yet;
    /// forgotten when the affinity changes).
    task_mask: Vec<u32>,
    /// Per mask id: how many waiting tasks have it.
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
        RqIndex { entries: vec![CpuEntry::default(); nr_cpus], cpus: CpuMarks::new(nr_cpus), ..Default::default() }
    }

    /// The runqueue's length, load, running task, tree or idle stamp may have changed.
    #[inline]
    pub fn touch(&mut self, cpu: CpuId) {
        self.cpus.mark(cpu);
    }

    /// Whether the task waits may have changed.
    #[inline]
    pub fn touch_task(&mut self, pid: Pid) {
        self.task_dirty.mark(pid);
    }

    /// The task's affinity changed.
    pub fn forget_task_mask(&mut self, pid: Pid) {
        if let Some(m) = self.task_mask.get_mut(pid.idx()) {
            *m = u32::MAX;
        }
        self.touch_task(pid);
    }

    /// The task's mask id (interned at first sight).
    fn task_mask_id(&mut self, pid: Pid, allowed: &CpuMask) -> u32 {
        let i = pid.idx();
        if i >= self.task_mask.len() {
            self.task_mask.resize(i + 1, u32::MAX);
        }
        if self.task_mask[i] == u32::MAX {
            self.task_mask[i] = self.intern(allowed);
        }
        self.task_mask[i]
    }

    fn intern(&mut self, allowed: &CpuMask) -> u32 {
        if let Some(&id) = self.mask_ids.get(allowed) {
            return id;
        }
        let id = self.masks.len() as u32;
        self.mask_ids.insert(allowed.clone(), id);
        self.masks.push(allowed.clone());
        self.mask_waiting.push(0);
        id
    }

    /// Counts the task under `now` (a mask id, or u32::MAX: not waiting).
    fn count_task(&mut self, pid: Pid, now: u32) {
        let i = pid.idx();
        if i >= self.counted.len() {
            self.counted.resize(i + 1, u32::MAX);
        }
        let was = std::mem::replace(&mut self.counted[i], now);
        if was == now {
            return;
        }
        if was != u32::MAX {
            self.mask_waiting[was as usize] -= 1;
            if self.mask_waiting[was as usize] == 0 {
                self.usable_stale = true;
                self.wasted_inputs_changed = true;
            }
        }
        if now != u32::MAX {
            self.mask_waiting[now as usize] += 1;
            if self.mask_waiting[now as usize] == 1 && !self.usable_stale {
                self.usable.or_with(&self.masks[now as usize]);
                self.wasted_inputs_changed = true;
            }
        }
    }

    /// The CPUs some waiting task may run on.
    pub fn usable(&mut self) -> &CpuMask {
        if self.usable_stale {
            // Rebuilt in place: emptied (as a new mask), then the union.
            self.usable.clone_from(&CpuMask::new());
            for (m, &n) in self.masks.iter().zip(&self.mask_waiting) {
                if n > 0 {
                    self.usable.or_with(m);
                }
            }
            self.usable_stale = false;
        }
        &self.usable
    }

    /// Stores the CPU's new entry, adjusting the totals.
    fn set_entry(&mut self, cpu: CpuId, new: CpuEntry) {
        let i = cpu.idx();
        if i >= self.entries.len() {
            self.entries.resize(i + 1, CpuEntry::default());
        }
        let old = &self.entries[i];
        if *old == new {
            return;
        }
        if old.idle != new.idle {
            if new.idle {
                self.idle.set(cpu);
            } else {
                self.idle.clear(cpu);
            }
            self.wasted_inputs_changed = true;
        }
        if old.runs_idle != new.runs_idle {
            if new.runs_idle {
                self.runs_idle.set(cpu);
            } else {
                self.runs_idle.clear(cpu);
            }
            self.wasted_inputs_changed = true;
        }
        self.nr_running = self.nr_running + new.nr_running as u64 - old.nr_running as u64;
        let waiting = self.waiting + new.waiting as u64 - old.waiting as u64;
        if (self.waiting == 0) != (waiting == 0) {
            self.wasted_inputs_changed = true;
        }
        self.waiting = waiting;
        if old.stamp_key != new.stamp_key {
            if let Some(k) = old.stamp_key {
                self.idle_since.remove(&(k, cpu));
            }
            if let Some(k) = new.stamp_key {
                self.idle_since.insert((k, cpu));
            }
        }
        self.entries[i] = new;
    }
}

impl super::Simulator {
    /// Turns on the index self-check: after every event, the index is
    /// compared with a full scan of the runqueues (slow; for tests).
    pub fn set_index_check(&mut self, on: bool) {
        self.core.index_check = on;
    }

    /// Panics if the index disagrees with a full scan (tests only).
    pub(crate) fn check_index(&mut self) {
        self.core.sync_index();
        let at = (self.core.now, self.core.events);
        let mut waiting = vec![0u32; self.core.index.masks.len()];
        for cpu in CpuId::all(self.core.rqs.len() as u32) {
            let kept = self.core.index.entries.get(cpu.idx()).cloned().unwrap_or_default();
            assert_eq!(kept, self.core.read_entry(cpu), "index entry of CPU {cpu} at {at:?}");
            let rq = &self.core.rqs[cpu.idx()];
            if !self.core.index.cpus.is_marked(NOTE, cpu) {
                let now = (rq.nr_running(), rq.weighted_cpuload());
                assert_eq!(self.core.trace.rq_last(cpu), now, "CPU {cpu} changed unmarked at {at:?}");
            }
            if !self.core.index.cpus.is_marked(ROT, cpu) {
                assert!(!rq.cfs.tree.has_rotations(), "CPU {cpu} rotated unmarked at {at:?}");
            }
            // The waiting tasks as the first accounting found them: queued
            // on some runqueue, in state Runnable.
            for pid in rq.queued() {
                let task = &self.core.tasks[pid.idx()];
                if task.state == TaskState::Runnable {
                    let id = self.core.index.mask_ids.get(&task.allowed).copied();
                    let id = id.unwrap_or_else(|| panic!("task {pid} waits uncounted at {at:?}"));
                    waiting[id as usize] += 1;
                }
            }
        }
        assert_eq!(waiting, self.core.index.mask_waiting, "waiting tasks by affinity at {at:?}");
    }
}

impl super::Core {
    /// Marks `cpu`'s runqueue as possibly changed.
    #[inline]
    pub(crate) fn touch(&mut self, cpu: CpuId) {
        self.index.touch(cpu);
    }

    /// What the index keeps of `cpu`, read from the runqueue now.
    fn read_entry(&self, cpu: CpuId) -> CpuEntry {
        let rq = &self.rqs[cpu.idx()];
        let nr_running = rq.nr_running();
        let idle = rq.online && rq.is_idle();
        CpuEntry {
            idle,
            runs_idle: self.runs_idle(rq),
            nr_running,
            waiting: nr_running.saturating_sub(u32::from(rq.curr().is_some())),
            stamp_key: idle.then(|| rq.idle_stamp.map_or(u64::MAX, |t| t.ns())),
        }
    }

    /// Whether `rq`'s CPU idles, as the wasted-core readers judge: online
    /// and `idle_cpu()`; or, under a class that holds queued tasks in queues
    /// of its own (`class_holds_queued`: sched_ext's dispatch queues), online
    /// and running nothing, whatever the runqueue counts. The kernel counts
    /// a task enqueued to sched_ext in `nr_running` of the CPU it was
    /// enqueued on, though the policy may keep it in a custom queue while
    /// that CPU runs its idle task (sched_ext's own idle tracking,
    /// `scx_update_idle`, goes by what runs).
    pub(crate) fn runs_idle(&self, rq: &super::Rq) -> bool {
        rq.online && rq.curr().is_none() && (self.class_holds_queued || rq.nr_running() == 0)
    }

    /// Whether the task waits (queued, not running): the mask id it counts under.
    fn waiting_mask(&mut self, pid: Pid) -> u32 {
        let task = &self.tasks[pid.idx()];
        if task.se.on_rq && task.state == TaskState::Runnable {
            self.index.task_mask_id(pid, &task.allowed)
        } else {
            u32::MAX
        }
    }

    /// Whether the self-check is on. Never in the wasm, where nothing turns
    /// it on: a constant there, so the checking code is left out of the bundle.
    #[inline(always)]
    pub(crate) fn index_check(&self) -> bool {
        cfg!(not(target_arch = "wasm32")) && self.index_check
    }
}

impl super::Core {
    /// Re-reads the CPUs and tasks touched since the last sync.
    pub(crate) fn sync_index(&mut self) {
        // Most calls after an event's first find nothing marked.
        if self.index.cpus.is_empty(SYNC) && self.index.task_dirty.is_empty() {
            return;
        }
        // In marking order: re-reading a CPU or a task adjusts totals, sets
        // and counts whatever the order (mask ids too are only names for
        // the counts; the union of the waiting tasks' masks reads them all).
        let mut dirty = std::mem::take(&mut self.index.scratch);
        self.index.cpus.drain_into(SYNC, &mut dirty);
        for &cpu in &dirty {
            let entry = self.read_entry(cpu);
            self.index.set_entry(cpu, entry);
        }
        self.index.scratch = dirty;
        let mut dirty = std::mem::take(&mut self.index.task_scratch);
        self.index.task_dirty.drain_into(&mut dirty);
        for &pid in &dirty {
            let now = self.waiting_mask(pid);
            self.index.count_task(pid, now);
        }
        self.index.task_scratch = dirty;
    }
}
