//! The kernel generation a run models. The core's own paths differ by
//! generation in one place: what `scheduler_tick` records for every CPU
//! whatever class runs (4.1's `cpu_load[]` history, from `kernel/sched/proc.c`,
//! folded in after `task_tick`: core.c 2505–2513, and caught up when a CPU
//! leaves tickless idle). It also picks the generation's rules for building
//! the scheduling domains (`DomainRules`: what `sd_init` sets on each level).
//! The fair class's parts of a generation (load
//! tracking, balancer, placement) are reached through the same value, by
//! `sim/fair/generation.rs`.
//!
//! A plain enum, matched where it is used: a generation's parts run on every
//! tick and every enqueue, and a match on a value the branch predictor always
//! gets right costs less than a call through a vtable.
//!
//! ```text
//!   Core.kernel ──► tick_load / idle_exit_load        (here: the core's part)
//!              └──► sim/fair/generation.rs dispatch   (the fair class's part: linux41/)
//! ```

mod cpu_load;

use super::runqueue::Rq;
use crate::topology::domains::DomainRules;

pub use crate::config::Kernel;

impl Kernel {
    /// What the generation's `sd_init` sets on each domain level.
    pub(crate) fn domain_rules(self) -> DomainRules {
        match self {
            Kernel::Linux41 => DomainRules::Linux41,
            Kernel::Linux612 => DomainRules::Linux612,
        }
    }

    /// Whether `wake_up_new_task` sets a new task's CPU with `set_task_cpu`
    /// (4.1, core.c 2089: a child placed away from its parent's CPU is a
    /// migration, counted, traced and handed to the class's migrate_task_rq)
    /// or with `__set_task_cpu` (6.12, core.c 4852: none of that).
    pub fn new_task_placement_migrates(self) -> bool {
        matches!(self, Kernel::Linux41)
    }

    /// Whether a CPU coming up may replace the topology table (4.1's
    /// `set_cpu_sibling_map` → `primarily_use_numa_for_topology`); 6.12 only
    /// notes `x86_has_numa_in_package` (smpboot.c 568–569) and builds the
    /// table once, so a hotplug never loses the NUMA levels.
    pub(crate) fn hotplug_may_replace_topology(self) -> bool {
        matches!(self, Kernel::Linux41)
    }

    /// `scheduler_tick`'s record of the CPU's load after the class's
    /// `task_tick` (4.1: `update_cpu_load_active`).
    pub(crate) fn tick_load(self, rq: &mut Rq, jiffies: u64) {
        match self {
            Kernel::Linux41 => rq.update_cpu_load_active(jiffies),
            // 6.12 keeps no cpu_load[] (removed in 5.x): its balancer reads PELT.
            Kernel::Linux612 => {}
        }
    }

    /// `tick_nohz_idle_exit`: the ticks a CPU missed while its tick was
    /// stopped (4.1: `update_cpu_load_nohz`, at load 0).
    pub(crate) fn idle_exit_load(self, rq: &mut Rq, jiffies: u64) {
        match self {
            Kernel::Linux41 => rq.update_cpu_load_nohz(jiffies),
            Kernel::Linux612 => {}
        }
    }
}
