//! Linux 6.12's newly-idle balancing as Debian 6.12.117 ships it
//! (`sched_balance_newidle`, fair.c 12871–13015): a CPU about to go idle
//! walks its domains upwards and balances each one it can afford, stopping
//! at the first that pulls work. What it can afford: the CPU's expected idle
//! time (`avg_idle`) must exceed what the walk has cost so far plus the
//! domain's dearest newly-idle pass (`max_newidle_lb_cost`, decayed about
//! 1 % a second). Debian carries a backport (NI_RANDOM, on): each domain
//! keeps its newly-idle success rate in 1024ths (`newidle_ratio`, from
//! `newidle_call` and `newidle_success`), and a pass runs only when a
//! 1024-sided die (`sched_rng`) lands at or below 1 + that rate; a success
//! then counts as many times as the pass was unlikely, so the rate stays
//! unbiased.
//!
//! ```text
//!   not overloaded, or avg_idle < the lowest domain's cost ─► no walk
//!   for each domain, lowest first:
//!     avg_idle < cost so far + its max cost ─► stop
//!     die > 1 + ratio ─► skip, a failure counted (update_newidle_stats)
//!     balance; its cost updates max_newidle_lb_cost and the rate (success × weight)
//!     pulled, or told to stop ─► stop
//! ```
//!
//! The model's die is the run's seeded PRNG, not the kernel's per-CPU
//! prandom state: the same distribution, reproducible from the seed.

/// `SCHED_FEAT(NI_RANDOM, true)` (features.h 137): its default.
pub const NI_RANDOM: bool = true;

/// A domain's newly-idle bookkeeping (`struct sched_domain`'s part).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewidleStats {
    pub call: u32,
    pub success: u32,
    /// The success rate in 1024ths.
    pub ratio: u32,
    pub max_newidle_lb_cost: u64,
    pub last_decay_max_lb_cost: u64,
}

impl NewidleStats {
    /// `sd_init`'s start (topology.c 1637–1639): a 50 % success rate, no cost yet.
    pub fn new(jiffies: u64) -> Self {
        NewidleStats { call: 512, success: 256, ratio: 512, max_newidle_lb_cost: 0, last_decay_max_lb_cost: jiffies }
    }

    /// `update_newidle_stats` (fair.c 12216–12226): one call, `success` of them
    /// good; every 1024 calls the rate is taken and the counts halved.
    pub fn update_stats(&mut self, success: u32) {
        self.call += 1;
        self.success += success;
        if self.call >= 1024 {
            self.ratio = self.success;
            self.call /= 2;
            self.success /= 2;
        }
    }

    /// `update_newidle_cost` (fair.c 12229–12256): a pass of `cost` ns; true
    /// if the max cost was decayed instead of raised.
    pub fn update_cost(&mut self, cost: u64, success: u32, jiffies: u64, hz: u64) -> bool {
        let next_decay = self.last_decay_max_lb_cost + hz;
        if cost > 0 {
            self.update_stats(success);
        }
        if cost > self.max_newidle_lb_cost {
            self.max_newidle_lb_cost = cost;
            self.last_decay_max_lb_cost = jiffies;
        } else if jiffies > next_decay {
            self.max_newidle_lb_cost = self.max_newidle_lb_cost * 253 / 256;
            self.last_decay_max_lb_cost = jiffies;
            return true;
        }
        false
    }
}

/// NI_RANDOM's die for a domain whose rate is `ratio`: None if the pass is
/// skipped, else the weight a success counts with, (1024 + w/2) / w for
/// w = 1 + ratio.
pub fn ni_random_weight(d1k: u32, ratio: u32) -> Option<u32> {
    let w = 1 + ratio;
    if d1k % 1024 > w {
        return None;
    }
    Some((1024 + w / 2) / w)
}

/// One domain as the walk sees it.
pub struct WalkDomain<'a> {
    pub stats: &'a mut NewidleStats,
    /// SD_BALANCE_NEWIDLE.
    pub balance_newidle: bool,
}

/// What a balancing pass at a domain reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassResult {
    pub pulled: bool,
    /// `continue_balancing` after the pass.
    pub go_on: bool,
    /// The pass's cost in ns (`sched_clock_cpu` before and after).
    pub cost: u64,
}

/// What the walk did: whether it pulled, what it cost in all, and the level
/// of each domain it balanced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    pub pulled: bool,
    pub cost: u64,
    pub balanced: Vec<usize>,
}

/// The walk of `sched_balance_newidle` over `domains` (lowest first), once
/// the gate let it start: `ni_random` is the NI_RANDOM feature, `roll`
/// throws its die, `balance(level)` runs `sched_balance_rq` at that level.
pub fn newidle_walk(
    domains: &mut [WalkDomain<'_>],
    avg_idle: u64,
    jiffies: u64,
    hz: u64,
    ni_random: bool,
    mut roll: impl FnMut() -> u32,
    mut balance: impl FnMut(usize) -> PassResult,
) -> Walk {
    let mut walk = Walk::default();
    for (level, sd) in domains.iter_mut().enumerate() {
        if avg_idle < walk.cost + sd.stats.max_newidle_lb_cost {
            break;
        }
        let mut go_on = true;
        if sd.balance_newidle {
            let mut weight = 1;
            if ni_random {
                match ni_random_weight(roll(), sd.stats.ratio) {
                    Some(w) => weight = w,
                    None => {
                        sd.stats.update_stats(0);
                        continue;
                    }
                }
            }
            let r = balance(level);
            walk.balanced.push(level);
            walk.pulled = r.pulled;
            go_on = r.go_on;
            walk.cost += r.cost;
            sd.stats.update_cost(r.cost, weight * u32::from(r.pulled), jiffies, hz);
        }
        if walk.pulled || !go_on {
            break;
        }
    }
    walk
}

/// The gate before the walk (fair.c 12916–12923): the root domain is
/// overloaded and the CPU expects to idle longer than its lowest domain's
/// dearest pass.
pub fn newidle_may_walk(rd_overloaded: bool, avg_idle: u64, lowest_max_cost: u64) -> bool {
    rd_overloaded && avg_idle >= lowest_max_cost
}

#[cfg(test)]
#[path = "newidle_test.rs"]
mod newidle_test;
