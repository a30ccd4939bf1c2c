//! CPU hotplug as timed scenario events. Offlining migrates every task of
//! the CPU away (the running one included) and rebuilds the domains; onlining
//! rebuilds them again. With the Missing Scheduling Domains bug, the rebuild
//! that follows a CPU coming online uses the topology table without NUMA
//! levels (4.1's x86 sibling-map code replaced the table that
//! `sched_init_numa` had extended), so no balancing crosses nodes afterwards.

use super::notes::HotplugIgnored;
use super::Simulator;
use crate::config::TimedEventKind;
use crate::sched::tunables::CfsTunables;
use crate::time::CpuId;
use crate::trace::{MigrateCause, TraceKind};

impl Simulator {
    pub(crate) fn timed_event(&mut self, kind: TimedEventKind) {
        match kind {
            TimedEventKind::CpuOffline(cpu) => self.cpu_offline(cpu),
            TimedEventKind::CpuOnline(cpu) => self.cpu_online(cpu),
        }
    }

    fn cpu_offline(&mut self, cpu: CpuId) {
        // The last online CPU cannot go (the kernel refuses too). Validation
        // refuses both cases in a scenario; a run noting one was built
        // without it.
        if !self.online.test(cpu) {
            return self.note_hotplug_ignored(HotplugIgnored::AlreadyOffline(cpu));
        }
        if self.online.weight() <= 1 {
            return self.note_hotplug_ignored(HotplugIgnored::LastOnline(cpu));
        }
        self.online.clear(cpu);
        self.rqs[cpu as usize].online = false;
        self.touch(cpu);
        self.trace.emit(self.now, cpu, TraceKind::Hotplug { offline: true });
        self.preempt_curr_for_move(cpu);
        let queued: Vec<_> = self.rqs[cpu as usize].cfs_tasks.iter().copied().collect();
        let mut touched = Vec::new();
        for pid in queued {
            let dest = self.select_fallback_rq(pid, cpu);
            self.move_queued_task(pid, dest, MigrateCause::Hotplug);
            touched.push(dest);
        }
        self.rqs[cpu as usize].idle_stamp = None;
        self.after_topology_change();
        for dest in touched {
            self.resched_if_needed(dest);
        }
    }

    fn cpu_online(&mut self, cpu: CpuId) {
        if self.online.test(cpu) || cpu >= self.rqs.len() as CpuId {
            return self.note_hotplug_ignored(HotplugIgnored::AlreadyOnline(cpu));
        }
        self.online.set(cpu);
        let rq = &mut self.rqs[cpu as usize];
        rq.online = true;
        rq.idle_stamp = Some(self.now);
        rq.slice_start = self.now;
        rq.next_balance = 0;
        self.touch(cpu);
        self.trace.emit(self.now, cpu, TraceKind::Hotplug { offline: false });
        if self.bugs.missing_domains {
            self.topology_table = crate::topology::table::TopologyTable { die: false, numa: false };
        }
        self.after_topology_change();
    }

    /// Rebuild the domains and rescale the tunables for the new CPU count
    /// (`partition_sched_domains`, `update_sysctl`).
    fn after_topology_change(&mut self) {
        self.rebuild_domains();
        let features = self.tunables.features.clone();
        self.tunables = CfsTunables::for_cpus(&self.knobs, &features, self.online.weight());
    }
}
