//! Scheduling entities (`struct sched_entity`): tasks and, with group
//! scheduling, the per-CPU entity of each task group that stands for the
//! group on its parent's runqueue.
//!
//! An entity is named by an `EntId`: a task's id is its pid; a group
//! entity's id has the top bit set and indexes the group-entity arena. The
//! red-black trees and buddies hold `EntId`s.
//!
//! ```text
//!   root cfs_rq (CPU 1):  [ task 3 ]  [ group "tty2" ] ──my_q──► cfs_rq of tty2 on CPU 1: [ task 7 ] [ task 9 ]
//! ```

use super::identity::Identity;
use super::linux41::pelt::SchedAvg;
use super::weights::{nice_to_weight, nice_to_wmult};
use crate::time::{Pid, SimTime};

crate::time::number_id! {
    /// An entity id: a newtype rather than a `u32`, so that an entity id is not taken for a pid (which it is only for
    /// a task) or the reverse; `task_ent_id` and `ent_pid` convert. It orders, hashes, prints and serializes as the
    /// number (TypeScript `number`), so trees, views and JSON are as with the bare number. Not an index (a group
    /// entity's id carries `GROUP_BIT`): no `idx()`.
    EntId
}

/// The top bit of a group entity's id.
pub const GROUP_BIT: u32 = 1 << 31;

/// A task's entity id: its pid.
#[inline]
pub fn task_ent_id(pid: Pid) -> EntId {
    EntId(pid.0)
}

/// The pid of a task entity (`!is_group(id)`).
#[inline]
pub fn ent_pid(id: EntId) -> Pid {
    Pid(id.0)
}

#[inline]
pub fn is_group(id: EntId) -> bool {
    id.0 & GROUP_BIT != 0
}

#[inline]
pub fn group_ent_id(index: usize) -> EntId {
    EntId(index as u32 | GROUP_BIT)
}

/// A group entity's index in the group-entity arena (`is_group(id)`).
#[inline]
pub fn group_index(id: EntId) -> usize {
    (id.0 & !GROUP_BIT) as usize
}

#[derive(Clone, Debug)]
pub struct SchedEntity {
    pub weight: u64,
    pub inv_weight: u64,
    pub vruntime: u64,
    pub on_rq: bool,
    pub exec_start: SimTime,
    pub sum_exec_runtime: u64,
    /// sum_exec_runtime when the entity was last picked; the tick compares
    /// against it to know how long the current turn has lasted.
    pub prev_sum_exec_runtime: u64,
    /// Per-entity load tracking (PELT, 4.1 flavour).
    pub avg: SchedAvg,
    /// Group Identity class (always Normal unless the scenario enables it).
    pub identity: Identity,
    /// EEVDF (`sched::eevdf`): the request size in wall ns (set at enqueue; 0
    /// under CFS, which never reads it), the virtual deadline, and the lag
    /// saved at dequeue. Whether EEVDF runs is the fair class's strategy.
    pub slice: u64,
    pub deadline: u64,
    pub vlag: i64,
}

impl SchedEntity {
    pub fn for_nice(nice: i32) -> SchedEntity {
        SchedEntity {
            weight: nice_to_weight(nice),
            inv_weight: nice_to_wmult(nice),
            vruntime: 0,
            on_rq: false,
            exec_start: SimTime::ZERO,
            sum_exec_runtime: 0,
            prev_sum_exec_runtime: 0,
            avg: SchedAvg::default(),
            identity: Identity::Normal,
            slice: 0,
            deadline: 0,
            vlag: 0,
        }
    }

    /// `update_load_set`: a new weight (group entities are reweighted as
    /// their group's shares move between CPUs).
    pub fn set_weight(&mut self, weight: u64) {
        self.weight = weight.max(1);
        self.inv_weight = (1u64 << 32) / self.weight;
    }
}

/// What the entity store needs of a task: its scheduling entity (the task
/// type is `task::Task`; `sched` does not depend on it).
pub trait HasEntity {
    fn se(&self) -> &SchedEntity;
    fn se_mut(&mut self) -> &mut SchedEntity;
}

/// An entity on its own stands for a task (the one-level tests use it).
impl HasEntity for SchedEntity {
    fn se(&self) -> &SchedEntity {
        self
    }
    fn se_mut(&mut self) -> &mut SchedEntity {
        self
    }
}

/// Mutable access to every entity: tasks' own and the group entities.
pub struct Ents<'a, T> {
    pub tasks: &'a mut [T],
    pub groups: &'a mut [SchedEntity],
}

/// The entity named by `id`, among tasks and group entities.
pub fn entity<'a, T: HasEntity>(tasks: &'a [T], groups: &'a [SchedEntity], id: EntId) -> &'a SchedEntity {
    if is_group(id) {
        &groups[group_index(id)]
    } else {
        tasks[ent_pid(id).idx()].se()
    }
}

impl<T: HasEntity> Ents<'_, T> {
    pub fn se(&self, id: EntId) -> &SchedEntity {
        entity(self.tasks, self.groups, id)
    }

    pub fn se_mut(&mut self, id: EntId) -> &mut SchedEntity {
        if is_group(id) {
            &mut self.groups[group_index(id)]
        } else {
            self.tasks[ent_pid(id).idx()].se_mut()
        }
    }
}

#[cfg(test)]
#[test]
fn entity_ids_print_as_the_numbers_they_replaced() {
    assert_eq!(format!("{:?}", Some(EntId(5))), "Some(5)");
}
