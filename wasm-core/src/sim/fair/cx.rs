//! What the fair class works on: the core and its own state (`FairState`),
//! both handed in by `Sched` on every call and nothing of another class.
//! Every function of the room is a method of `FairCx`; a path back into the
//! core's dispatch (`__schedule`, `move_queued_task`) hands the fair state
//! back through `sched()`.

use super::state::FairState;
use crate::sim::class::SchedClass;
use crate::sim::dispatch::{Room, Rooms, Sched};
use crate::sim::{Core, Simulator};

/// Borrows one level's runqueue and all entities at once (disjoint fields):
/// `level!(cx, tg, cpu)` for a `FairCx` named `cx`.
macro_rules! level {
    ($s:ident, $tg:expr, $cpu:expr) => {{
        let n = $s.core.rqs.len();
        let tg = $tg as usize;
        if tg == 0 {
            // The root runqueue: its length, load or tree may change.
            $s.core.index.touch($cpu);
        }
        let cfs: &mut $crate::sched::cfs_rq::CfsRq =
            if tg == 0 { &mut $s.core.rqs[($cpu).idx()].cfs } else { &mut $s.fair.gcfs[(tg - 1) * n + ($cpu).idx()] };
        (cfs, $crate::sched::entity::Ents { tasks: &mut $s.core.tasks[..], groups: &mut $s.fair.gses })
    }};
}

pub(crate) use level;

/// The fair class's context for one call.
pub(crate) struct FairCx<'a> {
    pub(crate) core: &'a mut Core,
    pub(crate) fair: &'a mut FairState,
    /// The other classes' rooms, handed back untouched to the core's dispatch.
    rooms: &'a mut Rooms,
    /// The run's class (CFS or EEVDF), for the paths back into the core.
    class: &'static dyn SchedClass,
}

impl<'a> FairCx<'a> {
    /// The fair class's context from what the core hands it.
    #[inline(always)]
    pub(crate) fn of(s: &'a mut Sched<'_>) -> Self {
        let (core, fair, rooms, class) = s.split_boot();
        FairCx { core, fair, rooms, class }
    }

    /// The core's dispatch, with the fair state handed back.
    pub(crate) fn sched(&mut self) -> Sched<'_> {
        Sched::new(self.core, self.fair, self.rooms, self.class, Room::Boot)
    }
}

/// The fair class's context over a whole simulator, whatever class runs:
/// for boot, the views and tests, which reach the fair state directly.
pub(crate) fn fair_cx(sim: &mut Simulator) -> FairCx<'_> {
    let class = sim.rooms.class;
    FairCx { core: &mut sim.core, fair: &mut sim.fair, rooms: &mut sim.rooms, class }
}
