//! Real-time bandwidth (rt.c of 4.1, without RT_GROUP_SCHED: the root
//! runqueue of each CPU against `def_rt_bandwidth`): real-time run time is
//! counted per CPU (`update_curr_rt`); past `rt_runtime` in a period the
//! runqueue is throttled (`sched_rt_runtime_exceeded`: its tasks leave
//! `rq->nr_running` and the pick, so the fair class runs); RT_RUNTIME_SHARE
//! first borrows spare runtime from the other CPUs (`do_balance_runtime`);
//! the period timer, aligned to multiples of the period as `hrtimer_forward`
//! from 0 puts it, pays the period back and unthrottles
//! (`do_sched_rt_period_timer`), and stops when a period finds no work.

use super::class::RtCx;
use crate::sim::dispatch::Room;
use crate::sim::events::Event;
use crate::time::{CpuId, SimTime};

impl RtCx<'_> {
    /// `update_curr_rt`: charge the running real-time task, count its time
    /// against the period, and reschedule when that throttles the runqueue.
    pub(super) fn update_curr_rt(&mut self, cpu: CpuId) {
        let Some(pid) = self.core.rqs[cpu.idx()].curr_task else { return };
        if !self.core.tasks[pid.idx()].in_rt_class() {
            return;
        }
        let now = self.core.now;
        let se = &mut self.core.tasks[pid.idx()].se;
        let delta = now.since(se.exec_start);
        if delta == 0 {
            return;
        }
        se.sum_exec_runtime += delta;
        se.exec_start = now;
        if !self.st().bandwidth {
            return;
        }
        self.st().rqs[cpu.idx()].rt_time += delta;
        if self.runtime_exceeded(cpu) {
            self.core.rqs[cpu.idx()].need_resched = true;
        }
    }

    /// `sched_rt_runtime_exceeded`: throttle once the period's runtime,
    /// borrowing included, is spent.
    fn runtime_exceeded(&mut self, cpu: CpuId) -> bool {
        let st = self.st();
        let rt_rq = &st.rqs[cpu.idx()];
        if rt_rq.throttled {
            return true;
        }
        if rt_rq.rt_runtime >= st.period_ns {
            return false;
        }
        self.balance_runtime(cpu);
        let st = self.st();
        let rt_rq = &mut st.rqs[cpu.idx()];
        if rt_rq.rt_time <= rt_rq.rt_runtime {
            return false;
        }
        rt_rq.throttled = true;
        // sched_rt_rq_dequeue → dequeue_top_rt_rq: its tasks leave rq->nr_running.
        let n = rt_rq.nr_running;
        self.core.rqs[cpu.idx()].nr_running -= n;
        self.core.touch(cpu);
        true
    }

    /// `balance_runtime` / `do_balance_runtime`: from each other CPU's spare
    /// runtime, 1/n of it, up to a whole period in all.
    fn balance_runtime(&mut self, cpu: CpuId) {
        let online = self.core.online.clone();
        let st = self.st();
        if !st.runtime_share || st.rqs[cpu.idx()].rt_time <= st.rqs[cpu.idx()].rt_runtime {
            return;
        }
        let (period, weight) = (st.period_ns, online.weight() as u64);
        for other in online.iter().filter(|&o| o != cpu) {
            let spare = st.rqs[other.idx()].rt_runtime as i64 - st.rqs[other.idx()].rt_time as i64;
            if spare <= 0 {
                continue;
            }
            let diff = (spare as u64 / weight).min(period - st.rqs[cpu.idx()].rt_runtime);
            st.rqs[other.idx()].rt_runtime -= diff;
            st.rqs[cpu.idx()].rt_runtime += diff;
            if st.rqs[cpu.idx()].rt_runtime == period {
                break;
            }
        }
    }

    /// `start_rt_bandwidth`: arm the period timer if it is not running, at
    /// the next multiple of the period.
    pub(super) fn start_rt_bandwidth(&mut self) {
        let now = self.core.now;
        let st = self.st();
        if !st.bandwidth || st.timer_armed || st.runtime_ns >= st.period_ns {
            return;
        }
        st.timer_armed = true;
        let period = st.period_ns;
        let at = SimTime((now.0 / period + 1) * period);
        self.core.push(at, Event::ClassTimer(Room::Rt));
    }

    /// `sched_rt_period_timer` → `do_sched_rt_period_timer` (one period
    /// elapsed: the timer fires on time): pay back a period's runtime on every
    /// online CPU, unthrottle those back under it, and go on while any CPU has
    /// real-time time or tasks. False if the timer was not armed (stale).
    pub(super) fn period_timer(&mut self) -> bool {
        if !self.st().timer_armed {
            return false;
        }
        let online = self.core.online.clone();
        let mut idle = true;
        let mut unthrottled = Vec::new();
        for cpu in online.iter() {
            let st = self.st();
            let rt_rq = &mut st.rqs[cpu.idx()];
            let mut enqueue = false;
            if rt_rq.rt_time > 0 {
                if rt_rq.throttled {
                    self.balance_runtime(cpu);
                }
                let rt_rq = &mut self.st().rqs[cpu.idx()];
                rt_rq.rt_time -= rt_rq.rt_time.min(rt_rq.rt_runtime);
                if rt_rq.throttled && rt_rq.rt_time < rt_rq.rt_runtime {
                    rt_rq.throttled = false;
                    enqueue = true;
                }
                idle &= rt_rq.rt_time == 0 && rt_rq.nr_running == 0;
            } else if rt_rq.nr_running > 0 {
                idle = false;
            }
            if enqueue {
                unthrottled.push(cpu);
            }
        }
        for cpu in unthrottled {
            // sched_rt_rq_enqueue: the tasks count again, and the CPU reschedules.
            let n = self.st().rqs[cpu.idx()].nr_running;
            if n == 0 {
                continue;
            }
            self.core.rqs[cpu.idx()].nr_running += n;
            self.core.touch(cpu);
            self.core.rqs[cpu.idx()].need_resched = true;
            self.sched().resched_if_needed(cpu);
        }
        let st = self.st();
        st.timer_armed = !idle;
        if !idle {
            let at = self.core.now.after(self.st().period_ns);
            self.core.push(at, Event::ClassTimer(Room::Rt));
        }
        true
    }
}
