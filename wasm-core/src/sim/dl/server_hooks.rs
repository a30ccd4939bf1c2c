//! The fair server driven (`server.rs` holds its state): started when a
//! CPU's fair class gets a task, charged for the time fair tasks run,
//! its timer (`dl_server_timer`), picked by EDF beside the deadline tasks,
//! stopped when picked with no fair task to run (deadline.c of 6.12).

use super::class::DlCx;
use super::grub;
use super::server::FairServer;
use crate::sim::dispatch::Room;
use crate::sim::events::Event;
use crate::time::{CpuId, Pid, SimTime};

/// How `server_enqueue` is asked (`enqueue_dl_entity`'s flags).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum ServerEnqueue {
    /// ENQUEUE_WAKEUP: `dl_server_start`.
    Start,
    /// ENQUEUE_REPLENISH: its timer fired, or a timer could not be set.
    Replenish,
}

impl DlCx<'_> {
    pub(super) fn server(&mut self, cpu: CpuId) -> Option<&mut FairServer> {
        self.st().servers.get_mut(cpu.idx())?.as_mut()
    }

    fn srv(&mut self, cpu: CpuId) -> &mut FairServer {
        self.server(cpu).expect("6.12 has a fair server on every CPU")
    }

    /// `dl_server_start` (deadline.c 1829–1859): the fair class has a task again.
    pub(super) fn dl_server_start(&mut self, cpu: CpuId) {
        if !self.core.online.test(cpu) || self.server(cpu).is_none_or(|s| s.active) {
            return;
        }
        self.srv(cpu).active = true;
        // task_contending: the server is active bandwidth on its CPU again (GRUB's `running_bw`).
        let st = self.st();
        let ent = &mut st.servers[cpu.idx()].as_mut().expect("a server").ent;
        grub::contend(ent, &mut st.bw, cpu.idx());
        self.server_enqueue(cpu, ServerEnqueue::Start);
        self.server_check_preempt(cpu);
    }

    /// `dl_server_stop` (1861–1871).
    pub(super) fn dl_server_stop(&mut self, cpu: CpuId) {
        let now = self.core.now.0;
        let Some(s) = self.server(cpu) else { return };
        s.queued = false;
        s.timer_at = None;
        s.defer_armed = false;
        s.ent.throttled = false;
        s.active = false;
        // dequeue_dl_entity(DEQUEUE_SLEEP) → task_non_contending: active until its 0-lag time.
        let st = self.st();
        let ent = &mut st.servers[cpu.idx()].as_mut().expect("a server").ent;
        if let Some(at) = grub::stop_contending(ent, &mut st.bw, now) {
            self.core.push(SimTime(at), Event::ClassTimer(Room::Dl));
        }
        self.core.touch(cpu);
    }

    /// `enqueue_dl_entity` (2198–2275) for the server.
    fn server_enqueue(&mut self, cpu: CpuId, how: ServerEnqueue) {
        let now = self.core.now.0;
        let s = self.srv(cpu);
        match how {
            ServerEnqueue::Start => s.update_at_start(now),
            ServerEnqueue::Replenish => {
                if !s.replenish(now) {
                    // replenish_dl_entity's tail (935–951): not starving and its zero-laxity time still ahead,
                    // it defers again.
                    let zero_laxity = s.ent.deadline.saturating_sub(s.ent.runtime.max(0) as u64);
                    if !s.defer_running && now < zero_laxity {
                        s.defer_armed = true;
                        s.ent.throttled = true;
                        if !self.server_start_timer(cpu) {
                            let s = self.srv(cpu);
                            s.defer_armed = false;
                            s.ent.throttled = false;
                        }
                    }
                }
            }
        }
        if self.srv(cpu).ent.throttled && self.server_start_timer(cpu) {
            return;
        }
        let s = self.srv(cpu);
        if s.ent.throttled {
            s.timer_at = None;
            s.defer_armed = false;
            s.ent.throttled = false;
        }
        s.queued = true;
        self.core.touch(cpu);
    }

    /// `start_dl_timer` for the server: false if its instant has passed. A timer already queued stays as it is
    /// (`hrtimer_is_queued`).
    fn server_start_timer(&mut self, cpu: CpuId) -> bool {
        let now = self.core.now.0;
        let s = self.srv(cpu);
        let Some(at) = s.timer_instant(now) else { return false };
        if s.timer_at.is_none() {
            s.timer_at = Some(at);
            self.core.push(SimTime(at), Event::ClassTimer(Room::Dl));
        }
        true
    }

    /// Whether the server, just queued, preempts what runs on `cpu` (`dl_server_start`, `dl_server_timer`:
    /// anything but a deadline task with an earlier deadline).
    fn server_check_preempt(&mut self, cpu: CpuId) {
        let Some(deadline) = self.server(cpu).filter(|s| s.queued).map(|s| s.ent.deadline) else { return };
        let preempt = match self.dl_curr(cpu) {
            Some(curr) => deadline < self.deadline(curr),
            None => true,
        };
        if preempt {
            self.core.rqs[cpu.idx()].need_resched = true;
        }
    }

    /// `dl_server_timer` (1345–1392) for every server whose timer is due; true if one was.
    pub(super) fn fire_server_timers(&mut self) -> bool {
        let now = self.core.now.0;
        let st = self.st();
        let mut inactive = false;
        for server in st.servers.iter_mut().flatten() {
            if server.ent.grub.inactive_at.is_some_and(|t| t <= now) {
                grub::inactive_timer(&mut server.ent, &mut st.bw);
                inactive = true;
            }
        }
        let due: Vec<CpuId> = (0..self.st().servers.len())
            .filter(|&c| self.st().servers[c].as_ref().is_some_and(|s| s.timer_at.is_some_and(|t| t <= now)))
            .map(|c| CpuId(c as u32))
            .collect();
        for &cpu in &due {
            self.srv(cpu).timer_at = None;
            self.dl_server_timer(cpu);
        }
        inactive || !due.is_empty()
    }

    fn dl_server_timer(&mut self, cpu: CpuId) {
        let now = self.core.now.0;
        let s = self.srv(cpu);
        if !s.ent.throttled {
            return;
        }
        if s.defer_armed {
            if let Some(at) = s.forwarded_zero_laxity(now) {
                // Its runtime was partly used in the background: the zero-laxity time moved on.
                s.timer_at = Some(at);
                self.core.push(SimTime(at), Event::ClassTimer(Room::Dl));
                return;
            }
            s.defer_running = true;
        }
        s.activations += 1;
        self.server_enqueue(cpu, ServerEnqueue::Replenish);
        self.server_check_preempt(cpu);
        self.sched().resched_if_needed(cpu);
    }

    /// `dl_server_update` → `update_curr_dl_se` (1484–1540): the time the fair task running on `cpu` ran since
    /// last charged is taken from the server's runtime, whether it ran on the server's behalf or on its own.
    pub(super) fn dl_server_update(&mut self, cpu: CpuId) {
        let Some(curr) = self.core.rqs[cpu.idx()].curr_task else { return };
        if self.core.tasks[curr.idx()].above_fair() || self.server(cpu).is_none() {
            return;
        }
        let exec = self.core.tasks[curr.idx()].se.sum_exec_runtime;
        let now = self.core.now.0;
        let s = self.srv(cpu);
        let delta = match s.seen {
            Some((p, seen)) if p == curr => exec - seen,
            _ => 0,
        };
        s.seen = Some((curr, exec));
        if delta == 0 || !s.active {
            return;
        }
        s.ent.runtime -= delta as i64;
        if s.ent.throttled && s.ent.runtime <= 0 {
            // The fair class got the server's runtime on its own: no server needed this period.
            s.defer_running = false;
            s.timer_at = None;
            s.replenish_new_period(now);
            self.server_start_timer(cpu);
            return;
        }
        if s.ent.runtime <= 0 {
            // Spent while running as a deadline entity: wait for the next period.
            s.ent.throttled = true;
            s.queued = false;
            if !self.server_start_timer(cpu) {
                self.server_enqueue(cpu, ServerEnqueue::Replenish);
            }
            self.core.rqs[cpu.idx()].need_resched = true;
            self.core.touch(cpu);
        }
    }

    /// A fair task was enqueued on `cpu`, whose fair class had none (enqueue_task_fair, fair.c 7118–7122): an
    /// idle CPU's idle time is charged first, then the server starts.
    pub(super) fn fair_class_woke(&mut self, cpu: CpuId) {
        if self.server(cpu).is_none() {
            return;
        }
        if self.core.rqs[cpu.idx()].curr_task.is_none() {
            self.charge_idle(cpu);
        }
        self.dl_server_start(cpu);
    }

    /// `dl_server_update_idle_time`: the idle time since the CPU went idle (or since last charged).
    fn charge_idle(&mut self, cpu: CpuId) {
        let now = self.core.now.0;
        let s = self.srv(cpu);
        if let Some(since) = s.idle_since.replace(now) {
            s.charge_idle(now - since);
        }
    }

    /// After a switch on `cpu`: idle time is charged when the CPU leaves idle (`put_prev_task_idle`), and a
    /// fair task starting to run is charged from here on.
    pub(super) fn server_switched(&mut self, cpu: CpuId, prev: Option<Pid>, next: Option<Pid>) {
        if self.server(cpu).is_none() {
            return;
        }
        if prev.is_none() {
            self.charge_idle(cpu);
        }
        let now = self.core.now.0;
        let exec = next.map(|n| (n, self.core.tasks[n.idx()].se.sum_exec_runtime));
        let s = self.srv(cpu);
        s.idle_since = if next.is_none() { Some(now) } else { None };
        s.seen = exec;
    }

    /// The server's part of the EDF pick: its deadline, if it is queued.
    pub(super) fn server_deadline(&mut self, cpu: CpuId) -> Option<u64> {
        self.server(cpu).filter(|s| s.queued).map(|s| s.ent.deadline)
    }
}
