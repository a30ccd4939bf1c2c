//! CPU hotplug as timed scenario events. Offlining migrates every task of
//! the CPU away (the running one included) and rebuilds the domains; onlining
//! runs x86's `set_cpu_sibling_map` for the CPU, then rebuilds them again.
//!
//! The Missing Scheduling Domains bug comes from that sibling map: when the
//! CPU coming up shares its package with an online CPU of another node, 4.1
//! installs the SMT/MC topology table, replacing the one `sched_init_numa`
//! had extended with the NUMA levels; the rebuild then has no level above
//! the node, so no balancing crosses nodes afterwards. A machine with one
//! node per package never takes that path. The paper's fix makes the switch
//! only before `sched_init_numa` has run (`topology::table`).

use super::notes::HotplugIgnored;
use super::Simulator;
use crate::config::TimedEventKind;
use crate::time::CpuId;
use crate::topology::table::{numa_distances, package_spans_nodes, TopologyTable};
use crate::trace::{MigrateCause, TraceKind};

impl Simulator {
    pub(crate) fn timed_event(&mut self, kind: TimedEventKind) {
        match kind {
            TimedEventKind::CpuOffline(cpu) => self.cpu_offline(CpuId(cpu)),
            TimedEventKind::CpuOnline(cpu) => self.cpu_online(CpuId(cpu)),
        }
    }

    fn cpu_offline(&mut self, cpu: CpuId) {
        // The last online CPU cannot go (the kernel refuses too). Validation
        // refuses both cases in a scenario; a run noting one was built
        // without it.
        if !self.core.online.test(cpu) {
            return self.core.note_hotplug_ignored(HotplugIgnored::AlreadyOffline(cpu));
        }
        if self.core.online.weight() <= 1 {
            return self.core.note_hotplug_ignored(HotplugIgnored::LastOnline(cpu));
        }
        self.core.online.clear(cpu);
        self.core.rqs[cpu.idx()].online = false;
        self.fair.cpu_dying(cpu);
        self.core.touch(cpu);
        self.core.trace.emit(self.core.now, cpu, TraceKind::Hotplug { offline: true });
        self.sched().preempt_curr_for_move(cpu);
        let queued: Vec<_> = self.core.rqs[cpu.idx()].queued().collect();
        let mut touched = Vec::new();
        for pid in queued {
            let dest = self.core.select_fallback_rq(pid, cpu);
            self.sched().move_queued_task(pid, dest, MigrateCause::Hotplug);
            touched.push(dest);
        }
        self.core.rqs[cpu.idx()].idle_stamp = None;
        self.after_topology_change();
        for dest in touched {
            self.sched().resched_if_needed(dest);
        }
    }

    fn cpu_online(&mut self, cpu: CpuId) {
        if self.core.online.test(cpu) || cpu.idx() >= self.core.rqs.len() {
            return self.core.note_hotplug_ignored(HotplugIgnored::AlreadyOnline(cpu));
        }
        self.core.online.set(cpu);
        let rq = &mut self.core.rqs[cpu.idx()];
        rq.online = true;
        rq.idle_stamp = Some(self.core.now);
        rq.slice_start = self.core.now;
        rq.next_balance = 0;
        self.core.touch(cpu);
        self.core.trace.emit(self.core.now, cpu, TraceKind::Hotplug { offline: false });
        self.core.set_cpu_sibling_map(cpu);
        self.after_topology_change();
        // It boots into the idle loop: a tick it stopped before going down
        // stays stopped, and the idle balancer counts it tickless again; one
        // that ran until then restarts on its grid (its first tick finds it
        // idle and stops it, as at the start of the run).
        if self.core.rqs[cpu.idx()].tick_stopped {
            self.sched().tick_stopped(cpu);
        } else {
            self.core.restart_tick(cpu);
        }
    }

    /// Rebuild the domains and rescale the tunables for the new CPU count
    /// (`partition_sched_domains`, `update_sysctl`).
    fn after_topology_change(&mut self) {
        self.rebuild_domains();
        self.fair.rescale_tunables(self.core.online.weight());
    }
}

impl super::Core {
    /// x86's `set_cpu_sibling_map` for `cpu` coming up, as far as it touches
    /// the scheduler: `primarily_use_numa_for_topology` when its package
    /// holds an online CPU of another node. With the fix (the bug switch
    /// off) that happens only while `sched_max_numa_distance` is unset, that
    /// is, on a machine where `sched_init_numa` added no level (and then
    /// there are none to lose).
    fn set_cpu_sibling_map(&mut self, cpu: CpuId) {
        if !package_spans_nodes(&self.machine, &self.online, cpu) {
            return;
        }
        let numa_initialised = !numa_distances(&self.machine).is_empty();
        if !self.kernel.hotplug_may_replace_topology() {
            return;
        }
        if self.bugs.missing_domains || !numa_initialised {
            self.topology_table = TopologyTable { die: false, numa: false };
        }
    }
}
