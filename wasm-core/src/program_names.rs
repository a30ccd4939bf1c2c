//! Compiling one process's program: the names its steps use (processes to
//! wake, barriers, mutexes, flags) become indices, and forked children's
//! programs are compiled after the main one. The simulator and the real-kernel
//! runner both compile processes this way, so both number objects alike.

use crate::program::{NameResolver, Op, Program};

/// A process compiled: its main program, then its forks' programs, and how
/// many barriers, mutexes and flags its steps name.
pub struct CompiledProcess {
    pub programs: Vec<Program>,
    pub barriers: usize,
    pub mutexes: usize,
    pub flags: usize,
}

/// Compiles `ops`. `processes` are the scenario's process names (a wake's
/// target becomes its index); `base` is the index the first forked program
/// will have among the caller's programs (the main one sits just before it).
pub fn compile_process(ops: &[Op], processes: &[&str], base: usize) -> CompiledProcess {
    let mut names =
        Names { processes, barriers: Vec::new(), mutexes: Vec::new(), flags: Vec::new(), forks: Vec::new(), base };
    let main = Program::compile(ops, &mut names);
    let mut programs = vec![main];
    programs.append(&mut names.forks);
    CompiledProcess { programs, barriers: names.barriers.len(), mutexes: names.mutexes.len(), flags: names.flags.len() }
}

struct Names<'a> {
    processes: &'a [&'a str],
    barriers: Vec<String>,
    mutexes: Vec<String>,
    flags: Vec<String>,
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
        intern(&mut self.barriers, name)
    }
    fn mutex(&mut self, name: &str) -> usize {
        intern(&mut self.mutexes, name)
    }
    fn flag(&mut self, name: &str) -> usize {
        intern(&mut self.flags, name)
    }
    fn subprogram(&mut self, ops: &[Op]) -> usize {
        let p = Program::compile(ops, self);
        self.forks.push(p);
        self.base + self.forks.len() - 1
    }
}
