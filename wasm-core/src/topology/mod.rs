//! Machine topology as the scheduler sees it: CPU masks and the scheduling
//! domain hierarchy with its groups, built as Linux 4.1 builds them, and the
//! schedstat counters each domain and runqueue keeps. What a kernel
//! generation sets on each level (`sd_init`'s flags and parameters) is its
//! own (`DomainRules`): 4.1's in `linux41.rs`, 6.12's in `linux612.rs`.

pub mod cpumask;
mod degenerate;
pub mod domains;
pub mod linux41;
pub mod linux612;
pub mod overlap;
pub mod overlap612;
pub mod schedstat;
pub mod table;
