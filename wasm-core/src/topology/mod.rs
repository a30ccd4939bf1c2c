//! Machine topology as the scheduler sees it: CPU masks and the scheduling
//! domain hierarchy with its groups, built as Linux 4.1 builds them, and the
//! schedstat counters each domain and runqueue keeps.

pub mod cpumask;
mod degenerate;
pub mod domains;
pub mod overlap;
pub mod schedstat;
mod sd_init;
pub mod table;
