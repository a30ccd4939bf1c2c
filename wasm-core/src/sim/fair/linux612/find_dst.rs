//! The fork and exec slow path of Linux 6.12 over the machine state
//! (`sched_balance_find_dst_cpu`, fair.c 7603–7652): from the highest
//! domain with the flag, the idlest group (`find_dst_group.rs`), then its
//! idlest CPU (`dst_cpu.rs`); from that CPU, down through its own domains
//! below the one just searched, until no group is idler than the local one.

use super::dst_cpu::{find_dst_group_cpu, DstCandidate};
use super::find_dst_group::{find_dst_group, DstDomain, TaskHere, WakeupCpu};
use super::pelt;
use crate::balance::placement::PlaceKind;
use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid};
use crate::topology::domains::DomainFlags;

/// Whether a domain balances this kind of placement (SD_BALANCE_FORK / _EXEC / _WAKE).
fn has_flag(f: &DomainFlags, kind: PlaceKind) -> bool {
    match kind {
        PlaceKind::Fork => f.balance_fork,
        PlaceKind::Exec => f.balance_exec,
        PlaceKind::Wakeup | PlaceKind::SyncWakeup => f.balance_wake,
    }
}

impl FairCx<'_> {
    /// `sched_balance_find_dst_cpu` from domain `level` of `this_cpu`.
    pub(super) fn find_dst_cpu_612(
        &mut self,
        level: usize,
        pid: Pid,
        this_cpu: CpuId,
        prev: CpuId,
        kind: PlaceKind,
    ) -> CpuId {
        let allowed = self.core.tasks[pid.idx()].allowed.clone();
        if !self.core.rqs[this_cpu.idx()].domains[level].span.intersects(&allowed) {
            return prev;
        }
        if kind != PlaceKind::Fork {
            self.sync_entity_load_avg_612(pid);
        }
        let here = self.task_here(pid);
        // Nothing changes during the walk: every CPU is read once for all its levels.
        self.fill_wake_cpus(pid, here);
        let (mut cpu, mut new_cpu) = (this_cpu, this_cpu);
        let mut sd = Some((this_cpu, level));
        while let Some((owner, l)) = sd {
            let child = l.checked_sub(1).map(|c| (owner, c));
            let d = &self.core.rqs[owner.idx()].domains[l];
            if !has_flag(&d.flags, kind) {
                sd = child;
                continue;
            }
            let Some(group) = self.find_dst_group_612(owner, l, cpu) else {
                sd = child;
                continue;
            };
            new_cpu = self.find_dst_group_cpu_612(owner, l, group, pid, cpu);
            if new_cpu == cpu {
                sd = child;
                continue;
            }
            cpu = new_cpu;
            let weight = self.core.rqs[owner.idx()].domains[l].span.weight();
            sd = None;
            for (tl, tmp) in self.core.rqs[cpu.idx()].domains.iter().enumerate() {
                if weight <= tmp.span.weight() {
                    break;
                }
                if has_flag(&tmp.flags, kind) {
                    sd = Some((cpu, tl));
                }
            }
        }
        new_cpu
    }

    /// `sync_entity_load_avg`: the task's signals aged to its runqueue's last update.
    fn sync_entity_load_avg_612(&mut self, pid: Pid) {
        let (tg, cpu) = (self.core.tasks[pid.idx()].tg, self.core.tasks[pid.idx()].cpu);
        let st = &mut self.fair.gen612;
        let ix = st.ensure_task(pid);
        let lut = st.rq_avgs[st.rq_ix(tg, cpu)].avg.last_update_time;
        let weight = st.ents[ix].weight;
        pelt::update_blocked_se(lut, &mut st.avgs[ix], weight);
    }

    /// Every CPU as `update_sg_wakeup_stats` reads it for placing `pid` (into `State612::wake_cpus`).
    fn fill_wake_cpus(&mut self, pid: Pid, here: Option<TaskHere>) {
        let n = self.core.rqs.len();
        let task_cpu = self.core.tasks[pid.idx()].cpu;
        let mut cpus = std::mem::take(&mut self.fair.gen612.wake_cpus);
        cpus.clear();
        let st = &self.fair.gen612;
        cpus.extend((0..n as u32).map(CpuId).map(|c| {
            let avg = &st.rq_avgs[st.rq_ix(0, c)].avg;
            let rq = &self.core.rqs[c.idx()];
            WakeupCpu {
                load: avg.load_avg,
                util_avg: avg.util_avg,
                util_est: u64::from(avg.util_est),
                runnable: avg.runnable_avg,
                h_nr_queued: rq.cfs.h_nr_running,
                nr_running: rq.nr_running(),
                curr_idle: rq.curr_task.is_none(),
                ttwu_pending: false,
                node: self.core.machine.node_of(c),
                allowed: self.core.tasks[pid.idx()].allowed.test(c) && rq.online,
                task: here.filter(|_| c == task_cpu),
            }
        }));
        self.fair.gen612.wake_cpus = cpus;
    }

    /// `sched_balance_find_dst_group` at domain `l` of `owner`, for a task
    /// placed from `this_cpu` (the CPUs as `fill_wake_cpus` read them).
    fn find_dst_group_612(&mut self, owner: CpuId, l: usize, this_cpu: CpuId) -> Option<usize> {
        let d = &self.core.rqs[owner.idx()].domains[l];
        let st = &mut self.fair.gen612;
        let mut groups = std::mem::take(&mut st.dst_groups[owner.idx()][l]);
        for (g, sg) in groups.iter_mut().zip(&d.groups) {
            g.facts.sgc_imbalance = st.sgc_imbalance(sg.id);
        }
        let view = DstDomain {
            imbalance_pct: u64::from(d.imbalance_pct),
            numa: d.flags.numa,
            imb_numa_nr: st.imb_numa_nr(owner, l),
        };
        let chosen = find_dst_group(&view, &groups, &st.wake_cpus, this_cpu.idx(), None);
        st.dst_groups[owner.idx()][l] = groups;
        chosen
    }

    /// The task's own share of the CPU it is accounted on, if it has PELT history there.
    fn task_here(&mut self, pid: Pid) -> Option<TaskHere> {
        let ix = self.fair.gen612.ensure_task(pid);
        if self.fair.gen612.avgs[ix].last_update_time == 0 {
            return None;
        }
        let h_load = self.task_h_load_612(pid);
        let (cpu, on_rq) = (self.core.tasks[pid.idx()].cpu, self.core.tasks[pid.idx()].se.on_rq);
        let a = &self.fair.gen612.avgs[ix];
        Some(TaskHere {
            h_load,
            util: a.util_avg,
            util_est: pelt::task_util_est_raw(a),
            runnable: a.runnable_avg,
            queued: on_rq,
            running: self.core.rqs[cpu.idx()].curr_task == Some(pid),
        })
    }

    /// `sched_balance_find_dst_group_cpu` in group `g` of domain `l` of `owner`.
    fn find_dst_group_cpu_612(&self, owner: CpuId, l: usize, g: usize, pid: Pid, this_cpu: CpuId) -> CpuId {
        let span = &self.core.rqs[owner.idx()].domains[l].groups[g].span;
        let allowed = &self.core.tasks[pid.idx()].allowed;
        let group: Vec<DstCandidate> = span
            .iter()
            .map(|c| {
                let rq = &self.core.rqs[c.idx()];
                DstCandidate {
                    cpu: c,
                    allowed: allowed.test(c) && self.core.online.test(c),
                    sched_idle: self.sched_idle_cpu(c),
                    idle: self.available_idle_cpu(c),
                    exit_latency: None,
                    idle_stamp: rq.avg_idle_stamp.map_or(0, |t| t.ns()),
                    load: self.cpu_load_612(c),
                }
            })
            .collect();
        find_dst_group_cpu(&group, this_cpu)
    }
}
