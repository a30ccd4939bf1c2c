//! What a scheduling class is handed: `Sched`, the core (`&mut Core`: the
//! clock, runqueues, tasks, topology, trace, costs, PRNG) with one class of
//! the hierarchy, whose own state slot `Sched::state` finds, and nothing of
//! another class's.
//!
//! The hierarchy, in the kernel's order (`for_each_class`): the deadline
//! class, the real-time class, then the run's class at the fair class's place (the fair class,
//! O(1) or sched_ext). A hook about a task goes to the task's class (its
//! policy); `pick_next_task` asks the classes in order; wakeup preemption
//! across classes is the core's (`check_preempt_curr`, core.c 1049–1072 in
//! 4.1): a task of a higher class preempts, one of a lower class never does.
//!
//! The core's dispatch paths that a class may need in the middle of its own
//! work (`__schedule`, `move_queued_task`, the stopper's preemption, the
//! resched on return) are `Sched` methods, so a class calls them with its own
//! state handed back in, as the kernel's `load_balance` calls
//! `deactivate_task` through `p->sched_class`.
//!
//! ```text
//!   Simulator { core, fair, rooms } ──sched()──► Sched { core, fair, rooms, class, room }
//!        fair  = the state boot builds (the fair class's)
//!        rooms = the run's class and its own box (O(1), sched_ext), the real-time class's box
//! ```

use super::class::{Balance, ClassData, SchedClass, StateSlot};
use super::fair::state::FairState;
use super::{Core, Simulator};
use crate::balance::placement::PlaceKind;
use crate::sched::fair::EnqueueKind;
use crate::sched::policy::SchedPolicy;
use crate::time::{CpuId, Pid};
use std::any::Any;

/// The core with one class of the hierarchy, which sees only its own state.
pub struct Sched<'a> {
    pub(crate) core: &'a mut Core,
    fair: &'a mut FairState,
    rooms: &'a mut Rooms,
    class: &'static dyn SchedClass,
    room: Room,
}

/// Which state slot is the class's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Room {
    /// The state boot builds: the fair class's (`StateSlot::Boot`).
    Boot,
    /// The run's class's own box (`StateSlot::Own`: O(1), sched_ext).
    Own,
    /// The real-time class's box.
    Rt,
    /// The deadline class's box.
    Dl,
}

impl Room {
    /// The class's place in the hierarchy: a higher class runs first and preempts a lower one.
    #[inline(always)]
    fn rank(self) -> u8 {
        match self {
            Room::Dl => 2,
            Room::Rt => 1,
            Room::Boot | Room::Own => 0,
        }
    }
}

/// A class's own box: empty until the class's `init` fills it.
pub(crate) type OwnBox = Option<Box<dyn ClassData>>;

/// What a class with a box of its own holds of the rest while it works:
/// every class's state, which it reaches only as its own box (`box_of`) and
/// hands back untouched to the core's dispatch.
pub(crate) struct Others<'a> {
    fair: &'a mut FairState,
    rooms: &'a mut Rooms,
}

impl Others<'_> {
    /// The same parts for a shorter call.
    pub(crate) fn reborrow(&mut self) -> Others<'_> {
        Others { fair: &mut *self.fair, rooms: &mut *self.rooms }
    }
    pub(crate) fn box_of(&self, room: Room) -> &OwnBox {
        self.rooms.box_of(room)
    }
    pub(crate) fn box_of_mut(&mut self, room: Room) -> &mut OwnBox {
        self.rooms.box_of_mut(room)
    }
}

/// The classes of a run besides the state boot builds: the run's class at
/// the fair class's place with its own box, and the real-time class's box
/// (filled at boot when a task is real-time; empty, the class has no task).
#[derive(Clone, Debug)]
pub(crate) struct Rooms {
    pub(crate) class: &'static dyn SchedClass,
    pub(crate) slot: StateSlot,
    pub(crate) own: OwnBox,
    pub(crate) rt: OwnBox,
    pub(crate) dl: OwnBox,
    /// The deadline class holds Linux 6.12's fair servers: the fair class's enqueues and run time are reported to
    /// it (`dl_server_start`, `dl_server_update`).
    pub(crate) fair_server: bool,
}

impl Rooms {
    pub(crate) fn new(class: &'static dyn SchedClass) -> Rooms {
        Rooms { class, slot: class.state_slot(), own: None, rt: None, dl: None, fair_server: false }
    }

    /// The run's class's room.
    #[inline(always)]
    fn run_room(&self) -> Room {
        match self.slot {
            StateSlot::Boot => Room::Boot,
            StateSlot::Own => Room::Own,
        }
    }

    /// The box of `room` (a class reaches only its own, through the room its context names).
    pub(crate) fn box_of(&self, room: Room) -> &OwnBox {
        match room {
            Room::Rt => &self.rt,
            Room::Dl => &self.dl,
            Room::Own | Room::Boot => &self.own,
        }
    }

    pub(crate) fn box_of_mut(&mut self, room: Room) -> &mut OwnBox {
        match room {
            Room::Rt => &mut self.rt,
            Room::Dl => &mut self.dl,
            Room::Own | Room::Boot => &mut self.own,
        }
    }

    /// A class's state, if some room holds a `T` (the views read O(1)'s arrays and the real-time queues).
    pub(crate) fn find<T: Any>(&self) -> Option<&T> {
        [&self.own, &self.rt, &self.dl]
            .into_iter()
            .find_map(|b| b.as_deref().and_then(|d| d.as_any().downcast_ref::<T>()))
    }
}

impl<'a> Sched<'a> {
    /// A class's context again, from the parts it holds (its own state handed back).
    pub(crate) fn new(
        core: &'a mut Core,
        fair: &'a mut FairState,
        rooms: &'a mut Rooms,
        class: &'static dyn SchedClass,
        room: Room,
    ) -> Self {
        Sched { core, fair, rooms, class, room }
    }

    /// This context's class.
    pub(crate) fn class(&self) -> &'static dyn SchedClass {
        self.class
    }

    /// The class's own state, if it keeps a `T` in its box.
    pub(crate) fn state<T: Any>(&mut self) -> Option<&mut T> {
        if self.room == Room::Boot {
            return None;
        }
        self.rooms.box_of_mut(self.room).as_deref_mut().and_then(|d| d.as_any_mut().downcast_mut::<T>())
    }

    /// The core and the state boot builds, for the class that keeps its state there
    /// (`StateSlot::Boot`), with what it hands back to the core's dispatch.
    #[inline(always)]
    pub(crate) fn split_boot(&mut self) -> (&mut Core, &mut FairState, &mut Rooms, &'static dyn SchedClass) {
        debug_assert_eq!(self.room, Room::Boot, "split_boot: the class keeps its state in a box of its own");
        (&mut *self.core, &mut *self.fair, &mut *self.rooms, self.class)
    }

    /// The core and the rest, for a class with a box of its own: it reaches its box through `Others`
    /// and hands the whole back to the core's dispatch.
    pub(crate) fn split_own(&mut self) -> (&mut Core, Others<'_>, &'static dyn SchedClass, Room) {
        (&mut *self.core, Others { fair: &mut *self.fair, rooms: &mut *self.rooms }, self.class, self.room)
    }

    /// A class's context again, from the parts `split_own` gave.
    pub(crate) fn from_own(core: &'a mut Core, others: Others<'a>, class: &'static dyn SchedClass, room: Room) -> Self {
        Sched { core, fair: others.fair, rooms: others.rooms, class, room }
    }

    /// The deadline class (6.12) keeps fair servers: report the fair class's work to it from now on.
    pub(crate) fn mark_fair_server(&mut self) {
        self.rooms.fair_server = true;
    }

    /// The run's class's pick, for Linux 6.12's fair server when EDF picks it (`fair_server_pick_task`).
    pub(crate) fn pick_run_class(&mut self, cpu: CpuId) -> Option<Pid> {
        let mut s = self.run();
        s.class.pick_next_task(&mut s, cpu)
    }

    /// `dl_server_update`: the fair task running on `cpu` may have run since the fair server last looked.
    #[inline(always)]
    fn fair_server_sync(&mut self, cpu: CpuId) {
        if self.rooms.fair_server {
            let mut dl = self.at(Room::Dl);
            dl.class.fair_ran(&mut dl, cpu);
        }
    }

    /// A class of its own fills its box (`init`); the state boot builds has no box.
    pub(crate) fn set_state(&mut self, data: Box<dyn ClassData>) {
        match self.room {
            Room::Own => self.rooms.own = Some(data),
            Room::Rt => self.rooms.rt = Some(data),
            Room::Dl => self.rooms.dl = Some(data),
            Room::Boot => panic!("set_state: the class keeps its state in the slot boot builds"),
        }
    }

    /// The class in `room`.
    #[inline(always)]
    fn class_in(&self, room: Room) -> &'static dyn SchedClass {
        match room {
            Room::Rt => super::class::rt_class(),
            Room::Dl => super::class::dl_class(),
            Room::Boot | Room::Own => self.rooms.class,
        }
    }

    /// The room of `pid`'s class: its policy's, or the real-time class while
    /// a PI mutex lends it a real-time prio (`rt_mutex_setprio`, core.c
    /// 3045–3067 in 4.1, chooses the class by `p->prio`).
    #[inline(always)]
    pub(crate) fn room_of(&self, pid: Pid) -> Room {
        let task = &self.core.tasks[pid.idx()];
        if task.policy == SchedPolicy::Deadline {
            Room::Dl
        } else if task.in_rt_class() {
            Room::Rt
        } else {
            self.rooms.run_room()
        }
    }

    /// The context of the class in `room`.
    #[inline(always)]
    pub(crate) fn at(&mut self, room: Room) -> Sched<'_> {
        let class = self.class_in(room);
        Sched { core: &mut *self.core, fair: &mut *self.fair, rooms: &mut *self.rooms, class, room }
    }

    /// The context of `pid`'s class.
    #[inline(always)]
    fn of_task(&mut self, pid: Pid) -> Sched<'_> {
        let room = self.room_of(pid);
        self.at(room)
    }

    /// The run's class's context.
    #[inline(always)]
    fn run(&mut self) -> Sched<'_> {
        let room = self.rooms.run_room();
        self.at(room)
    }

    /// The real-time class's context, if the run has it.
    #[inline(always)]
    fn rt(&mut self) -> Option<Sched<'_>> {
        if self.rooms.rt.is_some() {
            Some(self.at(Room::Rt))
        } else {
            None
        }
    }

    /// The deadline class's context, if the run has it.
    #[inline(always)]
    fn dl(&mut self) -> Option<Sched<'_>> {
        if self.rooms.dl.is_some() {
            Some(self.at(Room::Dl))
        } else {
            None
        }
    }
}

/// The hooks: a task's go to its class; a CPU's to the class of what runs
/// there, or down the hierarchy; `init`, `exit`, `kick`, `timer` and the
/// balancer's to this context's class.
impl Sched<'_> {
    pub(crate) fn init(&mut self) {
        self.class.init(self)
    }
    pub(crate) fn exit(&mut self) {
        self.class.exit(self)
    }
    pub(crate) fn switched_from(&mut self, pid: Pid) {
        let mut s = self.of_task(pid);
        s.class.switched_from(&mut s, pid)
    }
    pub(crate) fn switched_to(&mut self, pid: Pid) {
        let mut s = self.of_task(pid);
        s.class.switched_to(&mut s, pid)
    }
    pub(crate) fn task_move_group(&mut self, pid: Pid, from_tg: u32) {
        let mut s = self.of_task(pid);
        s.class.task_move_group(&mut s, pid, from_tg)
    }
    /// Under 6.12 a fair task joining a CPU whose fair class had none starts its fair server.
    pub(crate) fn enqueue_task(&mut self, pid: Pid, cpu: CpuId, kind: EnqueueKind) {
        let room = self.room_of(pid);
        let fair_woke =
            self.rooms.fair_server && room == self.rooms.run_room() && self.core.rqs[cpu.idx()].cfs_tasks.is_empty();
        {
            let mut s = self.at(room);
            s.class.enqueue_task(&mut s, pid, cpu, kind);
        }
        self.fair_server_sync(cpu);
        if fair_woke {
            let mut dl = self.at(Room::Dl);
            dl.class.fair_class_woke(&mut dl, cpu);
        }
    }
    pub(crate) fn dequeue_task(&mut self, pid: Pid, cpu: CpuId, sleeping: bool) {
        {
            let mut s = self.of_task(pid);
            s.class.dequeue_task(&mut s, pid, cpu, sleeping);
        }
        self.fair_server_sync(cpu);
    }
    pub(crate) fn yield_task(&mut self, pid: Pid, cpu: CpuId) {
        {
            let mut s = self.of_task(pid);
            s.class.yield_task(&mut s, pid, cpu);
        }
        self.fair_server_sync(cpu);
    }
    /// The verdict only (`check_preempt_curr` also marks the resched): the
    /// class's own check when `pid` and what runs on `cpu` share a class, else
    /// whether `pid`'s class comes first (core.c 1049–1072 in 4.1).
    pub(crate) fn wakeup_preempts(&mut self, cpu: CpuId, pid: Pid, is_fork: bool) -> bool {
        let room = self.room_of(pid);
        if let Some(curr) = self.core.rqs[cpu.idx()].curr_task {
            let curr_room = self.room_of(curr);
            if curr_room != room {
                return room.rank() > curr_room.rank();
            }
        }
        let preempts = {
            let mut s = self.at(room);
            s.class.check_preempt_curr(&mut s, cpu, pid, is_fork)
        };
        self.fair_server_sync(cpu);
        preempts
    }
    /// `pick_next_task`: each class in the kernel's order, the first with a task wins.
    pub(crate) fn pick_next_task(&mut self, cpu: CpuId) -> Option<Pid> {
        if let Some(mut dl) = self.dl() {
            if let Some(pid) = dl.class.pick_next_task(&mut dl, cpu) {
                return Some(pid);
            }
        }
        if let Some(mut rt) = self.rt() {
            if let Some(pid) = rt.class.pick_next_task(&mut rt, cpu) {
                return Some(pid);
            }
        }
        let mut s = self.run();
        s.class.pick_next_task(&mut s, cpu)
    }
    pub(crate) fn put_prev_task(&mut self, pid: Pid, cpu: CpuId) {
        {
            let mut s = self.of_task(pid);
            s.class.put_prev_task(&mut s, pid, cpu);
        }
        self.fair_server_sync(cpu);
    }
    /// `update_curr` of the class of what runs on `cpu` (nothing runs: nothing to charge).
    pub(crate) fn update_curr(&mut self, cpu: CpuId) {
        let Some(curr) = self.core.rqs[cpu.idx()].curr_task else { return };
        {
            let mut s = self.of_task(curr);
            s.class.update_curr(&mut s, cpu);
        }
        self.fair_server_sync(cpu);
    }
    pub(crate) fn task_tick(&mut self, pid: Pid, cpu: CpuId) -> bool {
        let resched = {
            let mut s = self.of_task(pid);
            s.class.task_tick(&mut s, pid, cpu)
        };
        self.fair_server_sync(cpu);
        resched
    }
    pub(crate) fn select_task_rq(&mut self, pid: Pid, waker: CpuId, kind: PlaceKind) -> CpuId {
        let mut s = self.of_task(pid);
        s.class.select_task_rq(&mut s, pid, waker, kind)
    }
    pub(crate) fn migrate_task_rq(&mut self, pid: Pid, from: CpuId, to: CpuId) {
        let mut s = self.of_task(pid);
        s.class.migrate_task_rq(&mut s, pid, from, to)
    }
    pub(crate) fn task_fork(&mut self, child: Pid, cpu: CpuId) {
        let mut s = self.of_task(child);
        s.class.task_fork(&mut s, child, cpu)
    }
    pub(crate) fn task_new(&mut self, pid: Pid) {
        let mut s = self.of_task(pid);
        s.class.task_new(&mut s, pid)
    }
    /// `task_woken`: `pid` was just woken onto `cpu` and checked for preemption.
    pub(crate) fn task_woken(&mut self, pid: Pid, cpu: CpuId) {
        let mut s = self.of_task(pid);
        s.class.task_woken(&mut s, pid, cpu)
    }
    pub(crate) fn task_dead(&mut self, pid: Pid) {
        let mut s = self.of_task(pid);
        s.class.task_dead(&mut s, pid)
    }
    /// Every class of the run hears that the online CPUs changed.
    pub(crate) fn cpus_changed(&mut self) {
        if let Some(mut dl) = self.dl() {
            dl.class.cpus_changed(&mut dl);
        }
        if let Some(mut rt) = self.rt() {
            rt.class.cpus_changed(&mut rt);
        }
        let mut s = self.run();
        s.class.cpus_changed(&mut s)
    }
    /// After a switch: the run's class, then the real-time class (its
    /// `post_schedule` push, core.c 2302–2312 in 4.1).
    pub(crate) fn task_switched(&mut self, cpu: CpuId, prev: Option<Pid>, next: Option<Pid>) {
        {
            let mut s = self.run();
            s.class.task_switched(&mut s, cpu, prev, next);
        }
        if let Some(mut rt) = self.rt() {
            rt.class.task_switched(&mut rt, cpu, prev, next);
        }
        if let Some(mut dl) = self.dl() {
            dl.class.task_switched(&mut dl, cpu, prev, next);
        }
    }
    pub(crate) fn kick(&mut self, cpu: CpuId) {
        self.class.kick(self, cpu)
    }
    pub(crate) fn timer(&mut self) -> bool {
        self.class.timer(self)
    }
    /// The run's class's balancer (the real-time class pulls in its own pick).
    pub(crate) fn balance(&mut self, cpu: CpuId, why: Balance) -> bool {
        let mut s = self.run();
        s.class.balance(&mut s, cpu, why)
    }
    pub(crate) fn tick_stopped(&mut self, cpu: CpuId) {
        let mut s = self.run();
        s.class.tick_stopped(&mut s, cpu)
    }
}

impl Simulator {
    /// The core as the run's class sees it, with that class's state.
    #[inline(always)]
    pub(crate) fn sched(&mut self) -> Sched<'_> {
        let class = self.rooms.class;
        let room = self.rooms.run_room();
        Sched { core: &mut self.core, fair: &mut self.fair, rooms: &mut self.rooms, class, room }
    }

    /// A class's own state, if some class of the run keeps a `T` (the views read O(1)'s arrays and the
    /// real-time queues through it).
    pub fn class_state<T: Any>(&self) -> Option<&T> {
        self.rooms.find::<T>()
    }

    /// The name of the class at the fair class's place ("cfs", "eevdf", "o1", "ext").
    pub fn run_class_name(&self) -> &'static str {
        self.rooms.class.name()
    }
}
