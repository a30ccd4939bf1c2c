//! The fair class's own state (as O(1)'s `O1State` and sched_ext's
//! `ExtState` are theirs): the task-group hierarchy with its group entities
//! and group runqueues, the balancer's machine-wide state, and the tunables
//! the class scales from the knobs at boot and at each hotplug.
//!
//! The root runqueue of each CPU stays in its `Rq` (`rq->cfs`, as the
//! kernel's `struct rq` embeds it); everything above the root is here.

use crate::sched::cfs_rq::CfsRq;
use crate::sched::entity::SchedEntity;
use crate::sched::group::TaskGroup;
use crate::sched::tunables::{CfsKnobs, CfsTunables};
use crate::sim::fair::linux41::LbState;

#[derive(Clone, Debug)]
pub(crate) struct FairState {
    /// The tunables in force (`sysctl_sched_*` scaled by the online CPUs).
    pub(crate) tunables: CfsTunables,
    /// The scenario's knobs the tunables are scaled from (`update_sysctl`).
    pub(crate) knobs: CfsKnobs,
    /// The balancer: its machine-wide state and records.
    pub(crate) lb: LbState,
    /// Task groups; index 0 is the root.
    pub(crate) tgs: Vec<TaskGroup>,
    /// Group entities and group runqueues, index (tg − 1) × CPUs + cpu.
    pub(crate) gses: Vec<SchedEntity>,
    pub(crate) gcfs: Vec<CfsRq>,
}

impl FairState {
    /// The state at boot: the root group alone, the tunables for `nr_cpus`.
    pub(crate) fn new(tunables: CfsTunables, knobs: CfsKnobs) -> FairState {
        FairState {
            tunables,
            knobs,
            lb: LbState::default(),
            tgs: vec![TaskGroup::root()],
            gses: Vec::new(),
            gcfs: Vec::new(),
        }
    }
}
