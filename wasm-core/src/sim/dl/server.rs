//! Linux 6.12's fair server (`rq->fair_server`): one deadline entity per CPU
//! that serves the fair class, so that real-time tasks cannot starve it
//! (deadline.c 1384–1900 and fair.c 9072–9084 of 6.12). Its reservation is
//! 50 ms every second (`dl_server_start`, 1839–1840). It is deferred
//! (`dl_defer`): while the fair class gets the CPU on its own, the time its
//! tasks run is charged to the server (`dl_server_update` from
//! `update_curr`, fair.c 1262–1263), and a period in which they got their
//! 50 ms needs no server at all. Only when they are starved does the timer,
//! armed at the zero-laxity time `deadline − runtime` (`start_dl_timer`),
//! put the server on the deadline runqueue: above every real-time task, it
//! runs fair tasks until its runtime is spent, then waits for its next
//! period like any deadline task (and no longer defers while the starvation
//! lasts).
//!
//! The states, as deadline.c's own diagram names them:
//!   A init (inactive) ─start─► B zero-laxity wait (throttled, armed) ─timer─► D running (queued)
//!   D ─runtime spent─► E replenish wait (throttled) ─timer─► D;   D ─nothing to pick─► A (stop)
//!   B, E ─its runtime spent by fair tasks running on their own─► B (a new period)
//!
//! The server is pure data here; `class.rs` and `server_hooks.rs` drive it.

use super::cbs::DlEntity;
use crate::sched::policy::DlParams;

/// `dl_server_start`'s reservation: 50 ms of runtime each 1000 ms.
pub const FAIR_SERVER_RUNTIME_NS: u64 = 50_000_000;
pub const FAIR_SERVER_PERIOD_NS: u64 = 1_000_000_000;
/// `dl_server_min_res`: a zero-laxity timer is pushed on only if that moves it by more than this.
const DL_SERVER_MIN_RES_NS: u64 = 1_000_000;

/// One CPU's fair server (`struct sched_dl_entity` with `dl_server`, `dl_defer` set).
#[derive(Clone, Debug)]
pub struct FairServer {
    pub ent: DlEntity,
    /// `dl_server_active`: started, not stopped since.
    pub active: bool,
    /// `dl_defer_armed`: the timer armed is the zero-laxity one.
    pub defer_armed: bool,
    /// `dl_defer_running`: the starvation case; it runs as a deadline entity and does not defer.
    pub defer_running: bool,
    /// On the deadline runqueue (`on_dl_rq`): its deadline takes part in the EDF pick.
    pub queued: bool,
    /// `dl_timer`: when it fires, if armed.
    pub timer_at: Option<u64>,
    /// When the CPU last went idle, if it is idle: its idle time is charged to the server.
    pub idle_since: Option<u64>,
    /// The fair task running here and its `sum_exec_runtime` already charged to the server.
    pub seen: Option<(crate::time::Pid, u64)>,
    /// How often it ran fair tasks because they starved (each B → D or E → D).
    pub activations: u64,
}

impl FairServer {
    pub fn new() -> FairServer {
        let params = DlParams {
            runtime_ns: FAIR_SERVER_RUNTIME_NS,
            deadline_ns: FAIR_SERVER_PERIOD_NS,
            period_ns: FAIR_SERVER_PERIOD_NS,
            reclaim: false,
        };
        // `new` until its first start, which sets it up (`dl_server_start`'s first call: the parameters, then
        // `setup_new_dl_entity`).
        let ent = DlEntity::new(params);
        FairServer {
            ent,
            active: false,
            defer_armed: false,
            defer_running: false,
            queued: false,
            timer_at: None,
            idle_since: None,
            seen: None,
            activations: 0,
        }
    }

    fn params(&self) -> DlParams {
        self.ent.params
    }

    /// `replenish_dl_new_period`: a whole runtime due a period from now; deferred again unless starving.
    pub fn replenish_new_period(&mut self, now: u64) {
        self.ent.deadline = now + self.params().deadline_ns;
        self.ent.runtime = self.params().runtime_ns as i64;
        if !self.defer_running {
            self.ent.throttled = true;
            self.defer_armed = true;
        }
    }

    /// `update_dl_entity` at `dl_server_start` (enqueue with ENQUEUE_WAKEUP); the first start sets the server
    /// up first (`setup_new_dl_entity` → `replenish_dl_new_period`).
    pub fn update_at_start(&mut self, now: u64) {
        if std::mem::take(&mut self.ent.new) && !self.ent.throttled {
            self.replenish_new_period(now);
        }
        if self.ent.deadline < now || self.ent.overflows(now) {
            if self.defer_running && self.ent.deadline >= now {
                // update_dl_revised_wakeup: keep the deadline, cut the runtime to the density left.
                let laxity = self.ent.deadline - now;
                let p = self.params();
                self.ent.runtime = (u128::from(laxity) * u128::from(p.runtime_ns) / u128::from(p.deadline_ns)) as i64;
                return;
            }
            self.defer_running = false;
            self.replenish_new_period(now);
        } else if !self.defer_running {
            self.defer_armed = true;
            self.ent.throttled = true;
        }
    }

    /// `replenish_dl_entity` (6.12, 857–952) without its re-arming tail, which the caller does. True if the
    /// replenishment was the deferred one (the tail is skipped then).
    pub fn replenish(&mut self, now: u64) -> bool {
        let p = self.params();
        if self.defer_armed && self.ent.overflows(now) {
            self.ent.deadline = now + p.deadline_ns;
            self.ent.runtime = p.runtime_ns as i64;
        }
        while self.ent.runtime <= 0 {
            self.ent.deadline += p.period_ns;
            self.ent.runtime += p.runtime_ns as i64;
        }
        if self.ent.deadline < now {
            self.replenish_new_period(now);
        }
        self.ent.throttled = false;
        std::mem::take(&mut self.defer_armed)
    }

    /// `start_dl_timer`'s instant: the zero-laxity time when armed, else the next period. None if past.
    pub fn timer_instant(&self, now: u64) -> Option<u64> {
        let at = if self.defer_armed {
            self.ent.deadline.saturating_sub(self.ent.runtime.max(0) as u64)
        } else {
            self.ent.deadline - self.params().deadline_ns + self.params().period_ns
        };
        (at >= now).then_some(at)
    }

    /// `dl_server_timer`'s first test: armed, and the zero-laxity time moved more than
    /// `dl_server_min_res` on (runtime was used in the background): the timer is pushed there.
    pub fn forwarded_zero_laxity(&self, now: u64) -> Option<u64> {
        let zero_laxity = self.ent.deadline.saturating_sub(self.ent.runtime.max(0) as u64);
        (self.defer_armed && now + DL_SERVER_MIN_RES_NS < zero_laxity).then_some(zero_laxity)
    }

    /// `dl_server_update_idle_time`: idle time counts as time the fair class could have had.
    pub fn charge_idle(&mut self, idle_ns: u64) {
        if self.ent.runtime < 0 {
            return;
        }
        self.ent.runtime -= idle_ns as i64;
        if self.ent.runtime < 0 {
            self.defer_running = false;
            self.ent.runtime = 0;
        }
    }
}

impl Default for FairServer {
    fn default() -> Self {
        FairServer::new()
    }
}
