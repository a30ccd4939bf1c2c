//! Simulated time: integer nanoseconds, never floating point.
//!
//! `SimTime` is an instant since the start of the run; spans of time are plain
//! `u64` nanoseconds named with a `_ns` suffix. Keeping instants in a newtype
//! stops accidental arithmetic between an instant and a wall-clock value.

use std::fmt;

pub const NSEC_PER_USEC: u64 = 1_000;
pub const NSEC_PER_MSEC: u64 = 1_000_000;
pub const NSEC_PER_SEC: u64 = 1_000_000_000;

/// The rate of a hardware thread with an idle core to itself: work done per
/// time is a percentage of it (SMT contention slows a thread below it).
pub const FULL_SPEED_PCT: u32 = 100;

/// An instant of simulated time, in nanoseconds since the run started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);

    pub fn ns(self) -> u64 {
        self.0
    }

    /// Adds a span, saturating instead of wrapping so hostile durations cannot
    /// make time go backwards.
    pub fn after(self, span_ns: u64) -> SimTime {
        SimTime(self.0.saturating_add(span_ns))
    }

    /// The span from `earlier` to `self`; zero if `earlier` is later.
    pub fn since(self, earlier: SimTime) -> u64 {
        self.0.saturating_sub(earlier.0)
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0 / NSEC_PER_MSEC;
        let frac = self.0 % NSEC_PER_MSEC;
        write!(f, "{}.{:06}ms", ms, frac)
    }
}

// Pids and CPU numbers are newtypes rather than aliases of `u32` so that one cannot be passed where the other (or
// any other count) goes: the compiler catches the mix-up. They cost nothing at run time, and they cross the boundary
// as the bare number (serde `transparent`; the TypeScript type is `number`), so the JSON and the generated types are
// those of the aliases they replaced. Tables by pid or by CPU are indexed with `idx()` rather than a cast; a raw number
// becomes an id only through the visible constructor (`Pid(n)`, `CpuId(n)`), where it enters (parsing, a host's
// answer, a test), never through a silent `From`/`into()`.
macro_rules! number_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(pub u32);

        impl std::fmt::Debug for $name {
            /// The bare number, as the alias printed: outputs that format a list of ids with `{:?}` (the trace
            /// export's idle CPUs, the text report's violations) must not change with the type.
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Debug::fmt(&self.0, f)
            }
        }

        impl std::fmt::Display for $name {
            /// Printed as the bare number, width and alignment included, as the alias printed.
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                std::fmt::Display::fmt(&self.0, f)
            }
        }

        // The generated TypeScript spells the id `number`, as it spelled the alias: no type of its own to import.
        #[cfg(any(test, feature = "gen"))]
        impl ts_rs::TS for $name {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;
            fn name(_: &ts_rs::Config) -> String {
                String::from("number")
            }
            fn inline(cfg: &ts_rs::Config) -> String {
                <Self as ts_rs::TS>::name(cfg)
            }
        }
    };
}
/// An id that is a number everywhere it is shown (`{:?}`, `{}`, JSON, TypeScript); `sched::entity::EntId` uses it too.
pub(crate) use number_id;

/// A `number_id!` that is also an index: ids dense from 0, one per row of a table.
macro_rules! dense_id {
    ($(#[$doc:meta])* $name:ident) => {
        number_id! { $(#[$doc])* $name }

        impl $name {
            /// The id as an index into a table by this id: ids are dense from 0.
            #[inline]
            pub const fn idx(self) -> usize {
                self.0 as usize
            }
        }
    };
}

dense_id! {
    /// A task identifier, unique for the whole run (never reused); also the task's index in the simulator's task
    /// table.
    Pid
}

dense_id! {
    /// A logical CPU number; also the CPU's index in the runqueue table and in per-CPU arrays.
    CpuId
}

impl CpuId {
    /// CPUs 0 to `nr_cpus - 1`, in increasing order.
    #[inline]
    pub fn all(nr_cpus: u32) -> impl DoubleEndedIterator<Item = CpuId> + Clone {
        (0..nr_cpus).map(CpuId)
    }
}

#[cfg(test)]
#[test]
fn ids_print_as_the_numbers_they_replaced() {
    // Exports and reports format lists of ids with `{:?}`: a type name there would break the trace JSON.
    assert_eq!(format!("{:?}", [CpuId(8), CpuId(9)]), "[8, 9]");
    assert_eq!(format!("{:?} {:>3}", Pid(7), Pid(7)), "7   7");
}
