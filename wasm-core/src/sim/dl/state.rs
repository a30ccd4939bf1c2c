//! The deadline class's state: one `DlRq` per CPU, each task's server
//! (`DlEntity`, by pid), the root domain's overload mask (`dlo_mask`), and
//! the replenishment timers armed (`dl_timer`, one per throttled task).

use super::cbs::DlEntity;
use super::dl_rq::DlRq;
use super::server::FairServer;
use crate::time::Pid;
use crate::topology::cpumask::CpuMask;

#[derive(Clone, Debug)]
pub struct DlState {
    pub rqs: Vec<DlRq>,
    /// Each deadline task's server, by pid (None: not a deadline task).
    pub ents: Vec<Option<DlEntity>>,
    pub dlo_mask: CpuMask,
    /// (when, pid): the replenishment timers armed, earliest first.
    pub timers: Vec<(u64, Pid)>,
    /// A CPU's next pick pulls first (the last task it put back was a deadline task).
    pub pull_due: Vec<bool>,
    /// Linux 6.12: each CPU's fair server (`rq->fair_server`); empty under 4.1.
    pub servers: Vec<Option<FairServer>>,
    /// Linux 6.12: each CPU's GRUB bandwidths; empty under 4.1.
    pub bw: Vec<super::grub::DlRqBw>,
    /// Linux 6.12: (when, pid) the inactive timers armed at a task's 0-lag time.
    pub inactive: Vec<(u64, Pid)>,
}

impl DlState {
    pub fn new(nr_cpus: usize) -> DlState {
        DlState {
            rqs: vec![DlRq::default(); nr_cpus],
            ents: Vec::new(),
            dlo_mask: CpuMask::new(),
            timers: Vec::new(),
            pull_due: vec![false; nr_cpus],
            servers: Vec::new(),
            bw: Vec::new(),
            inactive: Vec::new(),
        }
    }

    pub fn ent(&self, pid: Pid) -> &DlEntity {
        self.ents[pid.idx()].as_ref().expect("a deadline task")
    }

    pub fn ent_mut(&mut self, pid: Pid) -> &mut DlEntity {
        self.ents[pid.idx()].as_mut().expect("a deadline task")
    }
}
