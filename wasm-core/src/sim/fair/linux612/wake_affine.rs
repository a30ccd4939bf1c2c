//! Linux 6.12's `wake_affine` (fair.c 7447–7537): whether a task woken by
//! a task on `this_cpu` should be placed near the waker rather than near the
//! CPU it last ran on. First by idleness (WA_IDLE, `wake_affine_idle`), then,
//! if that does not decide, by load (WA_WEIGHT, `wake_affine_weight`): the
//! waker's CPU with the wakee added against the previous CPU without it,
//! the previous CPU's load inflated by half the domain's imbalance margin
//! (WA_BIAS), which leans the choice towards the waker's CPU. A synchronous wakeup (the waker is about to sleep) counts the
//! waker's CPU as if the waker had left.
//!
//! ```text
//!   this idle, same LLC ─► prev if idle, else this
//!   sync, this runs only the waker (delayed tasks aside) ─► this
//!   prev idle ─► prev
//!   (load(this) − waker + wakee)·100·cap(prev) < (load(prev) − wakee)·(100 + (pct − 100)/2)·cap(this) [+1 if sync] ─► this
//! ```

/// What `wake_affine` reads: `cpu_load` is the root runqueue's PELT load
/// average, `task_h_load` a task's load as seen from the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AffineInputs {
    pub sync: bool,
    /// `available_idle_cpu` of the waker's and the previous CPU.
    pub this_idle: bool,
    pub prev_idle: bool,
    /// `cpus_share_cache(this_cpu, prev_cpu)`.
    pub share_cache: bool,
    /// The waker's runqueue: `nr_running` and `cfs_h_nr_delayed` (tasks kept queued by DELAY_DEQUEUE).
    pub this_nr_running: u32,
    pub this_h_nr_delayed: u32,
    pub this_load: u64,
    pub prev_load: u64,
    /// `task_h_load(current)`, the waker's.
    pub waker_h_load: u64,
    /// `task_h_load(p)`, the wakee's.
    pub wakee_h_load: u64,
    pub this_capacity: u64,
    pub prev_capacity: u64,
    pub imbalance_pct: u32,
}

/// Where `wake_affine` sends the wakee, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Affine {
    /// The waker's CPU is idle and shares the LLC with an idle previous CPU: stay.
    PrevIdleSharedCache,
    /// The waker's CPU is idle and shares the LLC: move to it.
    ThisIdleSharedCache,
    /// A synchronous wakeup from a CPU running only the waker.
    ThisSyncAlone,
    /// The previous CPU is idle.
    PrevIdle,
    /// The waker's current load alone exceeds its CPU's load (sync).
    ThisWakerHeavier,
    /// By load: the waker's CPU with the wakee is lighter.
    ThisLighter,
    /// By load: the previous CPU stays the better.
    PrevByWeight,
    /// Neither rule ran to a choice (WA_WEIGHT off): the previous CPU.
    Prev,
}

impl Affine {
    /// Whether the wakee goes to the waker's CPU.
    pub fn to_this(self) -> bool {
        matches!(
            self,
            Affine::ThisIdleSharedCache | Affine::ThisSyncAlone | Affine::ThisWakerHeavier | Affine::ThisLighter
        )
    }
}

/// WA_IDLE, WA_WEIGHT and WA_BIAS (all on in 6.12, features.h 123–125).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AffineFeatures {
    pub wa_idle: bool,
    pub wa_weight: bool,
    pub wa_bias: bool,
}

impl Default for AffineFeatures {
    fn default() -> Self {
        AffineFeatures { wa_idle: true, wa_weight: true, wa_bias: true }
    }
}

/// `wake_affine_idle`: None when idleness does not decide.
fn wake_affine_idle(x: &AffineInputs) -> Option<Affine> {
    if x.this_idle && x.share_cache {
        return Some(if x.prev_idle { Affine::PrevIdleSharedCache } else { Affine::ThisIdleSharedCache });
    }
    if x.sync && x.this_nr_running.saturating_sub(x.this_h_nr_delayed) == 1 {
        return Some(Affine::ThisSyncAlone);
    }
    x.prev_idle.then_some(Affine::PrevIdle)
}

/// `wake_affine_weight`, in the kernel's signed 64-bit arithmetic.
fn wake_affine_weight(x: &AffineInputs, wa_bias: bool) -> Affine {
    let mut this_eff = x.this_load as i64;
    if x.sync {
        let current = x.waker_h_load as i64;
        if current > this_eff {
            return Affine::ThisWakerHeavier;
        }
        this_eff -= current;
    }
    let task = x.wakee_h_load as i64;
    this_eff += task;
    if wa_bias {
        this_eff *= 100;
    }
    this_eff *= x.prev_capacity as i64;
    let mut prev_eff = x.prev_load as i64 - task;
    if wa_bias {
        prev_eff *= 100 + (i64::from(x.imbalance_pct) - 100) / 2;
    }
    prev_eff *= x.this_capacity as i64;
    // A tie under sync leans to the waker's CPU: select_idle_sibling may then stack the wakee there.
    if x.sync {
        prev_eff += 1;
    }
    if this_eff < prev_eff {
        Affine::ThisLighter
    } else {
        Affine::PrevByWeight
    }
}

/// `wake_affine`: the verdict; the wakee goes to the waker's CPU when `to_this()`.
pub fn wake_affine(x: &AffineInputs, f: AffineFeatures) -> Affine {
    let by_idle = if f.wa_idle { wake_affine_idle(x) } else { None };
    match by_idle {
        Some(a) => a,
        None if f.wa_weight => wake_affine_weight(x, f.wa_bias),
        None => Affine::Prev,
    }
}

#[cfg(test)]
#[path = "wake_affine_test.rs"]
mod wake_affine_test;
