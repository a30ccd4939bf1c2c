//! Compiling one process's program: the names its steps use (processes to
//! wake, barriers, mutexes, flags, condition variables, timers) become
//! indices, and forked children's programs are compiled after the main one.
//! The simulator and the real-kernel runner both compile processes this way,
//! so both number objects alike.
//!
//! Objects are named within an address space: a process's own, or one that
//! several processes share (`ProcessSpec::address_space`, the threads of one
//! rt-app run). The caller keeps one `SpaceNames` per space and hands it to
//! each of its processes in turn, so a name means one object throughout.
//! A thread's own timers are named within its program instead.

use crate::program::{NameResolver, Op, Program};

/// The objects an address space's programs name, in the order first named.
#[derive(Clone, Debug, Default)]
pub struct SpaceNames {
    barriers: Vec<String>,
    mutexes: Vec<String>,
    flags: Vec<String>,
    conds: Vec<String>,
    timers: Vec<String>,
}

impl SpaceNames {
    pub fn barriers(&self) -> usize {
        self.barriers.len()
    }
    pub fn mutexes(&self) -> usize {
        self.mutexes.len()
    }
    pub fn flags(&self) -> usize {
        self.flags.len()
    }
    pub fn conds(&self) -> usize {
        self.conds.len()
    }
    /// Shared timers (a thread's own are counted by `CompiledProcess`).
    pub fn timers(&self) -> usize {
        self.timers.len()
    }
}

/// A process compiled: its main program, then its forks' programs; how many
/// steps of the main program name each barrier of its space (by index: a
/// barrier shared by an address space waits for that many of each of the
/// process's threads); and how many timers each of its threads has of its
/// own.
pub struct CompiledProcess {
    pub programs: Vec<Program>,
    pub barrier_uses: Vec<u32>,
    pub thread_timers: usize,
}

/// Compiles `ops` in the address space `space`. `processes` are the
/// scenario's process names (a wake's target becomes its index); `base` is
/// the index the first forked program will have among the caller's programs
/// (the main one sits just before it).
pub fn compile_process(ops: &[Op], processes: &[&str], base: usize, space: &mut SpaceNames) -> CompiledProcess {
    let mut names = Names {
        processes,
        space,
        thread_timers: Vec::new(),
        barrier_uses: Vec::new(),
        in_fork: 0,
        forks: Vec::new(),
        base,
    };
    let main = Program::compile(ops, &mut names);
    let mut programs = vec![main];
    programs.append(&mut names.forks);
    CompiledProcess { programs, barrier_uses: names.barrier_uses, thread_timers: names.thread_timers.len() }
}

struct Names<'a> {
    processes: &'a [&'a str],
    space: &'a mut SpaceNames,
    thread_timers: Vec<String>,
    barrier_uses: Vec<u32>,
    /// How deep in forked children's programs the compiler is: their
    /// threads are not the process's own, and are not counted at barriers.
    in_fork: u32,
    forks: Vec<Program>,
    base: usize,
}

fn intern(list: &mut Vec<String>, name: &str) -> usize {
    list.iter().position(|n| n == name).unwrap_or_else(|| {
        list.push(name.to_string());
        list.len() - 1
    })
}

impl NameResolver for Names<'_> {
    fn tgid(&self, process: &str) -> u32 {
        // Validation guarantees the name exists; 0 is never reached otherwise.
        self.processes.iter().position(|&p| p == process).unwrap_or(0) as u32
    }
    fn barrier(&mut self, name: &str) -> usize {
        let id = intern(&mut self.space.barriers, name);
        if self.in_fork == 0 {
            if self.barrier_uses.len() <= id {
                self.barrier_uses.resize(id + 1, 0);
            }
            self.barrier_uses[id] += 1;
        }
        id
    }
    fn mutex(&mut self, name: &str) -> usize {
        intern(&mut self.space.mutexes, name)
    }
    fn flag(&mut self, name: &str) -> usize {
        intern(&mut self.space.flags, name)
    }
    fn cond(&mut self, name: &str) -> usize {
        intern(&mut self.space.conds, name)
    }
    fn timer(&mut self, name: &str, shared: bool) -> usize {
        if shared {
            intern(&mut self.space.timers, name)
        } else {
            intern(&mut self.thread_timers, name)
        }
    }
    fn subprogram(&mut self, ops: &[Op]) -> usize {
        self.in_fork += 1;
        let p = Program::compile(ops, self);
        self.in_fork -= 1;
        self.forks.push(p);
        self.base + self.forks.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::{Dist, TimerOp};

    fn timer(name: &str, shared: bool) -> Op {
        Op::Timer(TimerOp { name: name.into(), period_ns: 1_000, shared, absolute: false })
    }

    #[test]
    fn one_space_numbers_a_name_once_across_its_processes() {
        let mut space = SpaceNames::default();
        let a = [Op::Lock("m".into()), Op::Barrier { name: "b".into(), spin: Dist::Fixed(0) }, timer("t", true)];
        let b = [
            Op::CondWait { cond: "q".into(), mutex: "m".into() },
            Op::Barrier { name: "b".into(), spin: Dist::Fixed(0) },
            Op::Barrier { name: "b".into(), spin: Dist::Fixed(0) },
            timer("t", true),
            timer("own", false),
            Op::Fork(vec![Op::Barrier { name: "b".into(), spin: Dist::Fixed(0) }]),
        ];
        let ca = compile_process(&a, &[], 1, &mut space);
        let cb = compile_process(&b, &[], 3, &mut space);
        assert_eq!((space.mutexes(), space.conds(), space.barriers(), space.timers()), (1, 1, 1, 1));
        assert_eq!(ca.barrier_uses, vec![1]);
        // A forked child's step is not one of the process's own threads' uses.
        assert_eq!(cb.barrier_uses, vec![2]);
        assert_eq!((ca.thread_timers, cb.thread_timers), (0, 1));
        assert_eq!(cb.programs.len(), 2);
    }
}
