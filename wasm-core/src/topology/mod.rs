//! Machine topology as the scheduler sees it: CPU masks and the scheduling
//! domain hierarchy with its groups, built as Linux 4.1 builds them.

pub mod cpumask;
pub mod domains;
