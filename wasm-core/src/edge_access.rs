//! What the edges (`api::timeline`, `api::views::view`) reach inside the `Simulator`
//! beyond its public methods: two of its crate-visible fields. The edges are a
//! crate of their own (schedlab-edges, compiled for size in wasm), and a
//! `pub(crate)` field cannot be named across a crate boundary; these accessors
//! are that boundary, and nothing else uses them.

use crate::config::PolicyConfig;
use crate::sim::Simulator;
use crate::trace::Trace;

impl Simulator {
    /// The run's trace, to take its slices out around a snapshot and to put
    /// them back (`api::timeline`).
    pub fn trace_mut(&mut self) -> &mut Trace {
        &mut self.core.trace
    }

    /// The scheduling policy the run was configured with.
    pub fn policy(&self) -> &PolicyConfig {
        &self.core.policy
    }
}
