//! `record_wakee`, the same in Linux 4.1 (fair.c 4387–4403) and 6.12
//! (fair.c 7387–7402), so one function for both generations: the task
//! running on the waking CPU counts a flip each time it wakes a different
//! task than last time, and halves its count when more than a second (HZ
//! jiffies) has passed since the last halving. `wake_wide` reads the flips;
//! it differs between the generations and stays in each.

use crate::sim::fair::cx::FairCx;
use crate::time::{CpuId, Pid};

impl FairCx<'_> {
    /// `record_wakee` for `wakee`, woken from `this_cpu` (nothing if that CPU runs no task, or runs the wakee).
    pub(crate) fn record_wakee(&mut self, wakee: Pid, this_cpu: CpuId) {
        let Some(waker) = self.core.rqs[this_cpu.idx()].curr() else { return };
        if waker == wakee {
            return;
        }
        let now = self.core.now;
        let (jiffies, hz) = (self.core.jiffies(), crate::time::NSEC_PER_SEC / self.core.tick_ns);
        let tick_ns = self.core.tick_ns;
        let w = &mut self.core.tasks[waker.idx()];
        // time_after(jiffies, decay_ts + HZ), the stamp kept in jiffies.
        if jiffies > w.wakee_flip_decay_ts.ns() / tick_ns + hz {
            w.wakee_flips >>= 1;
            w.wakee_flip_decay_ts = now;
        }
        if w.last_wakee != Some(wakee) {
            w.last_wakee = Some(wakee);
            w.wakee_flips += 1;
        }
    }
}
