//! Alibaba Cloud Linux "Group Identity" (kernel-model.md 7.1, seed 002): each
//! CPU cgroup carries an identity that bends CFS for colocation of online
//! (latency-sensitive) and offline (batch) work on one machine.
//!
//! * **highclass** — a waking highclass entity preempts a normal or
//!   underclass curr at once, ignoring wakeup_granularity and the
//!   min_granularity protection [RECALL: the 4.19 rule was not seen in code].
//! * **underclass** — queued in a second tree of its runqueue
//!   (`CfsRq::under`), picked only when the normal tree is empty; it never
//!   preempts, and a running underclass entity gives way at the next wakeup
//!   or tick once anything else is runnable at its level.
//! * **SMT expeller** (a highclass flag) — no underclass task runs on the SMT
//!   sibling of a CPU running an expeller: the sibling is rescheduled when the
//!   expeller starts and offered its underclass work again when it stops.
//!
//! Readings (the 4.19 source was not available): identities are set on
//! top-level cgroups and inherited by their descendants, so an underclass
//! group's whole subtree is underclass; normal and highclass entities share
//! the ordinary tree and are ordered by vruntime as in CFS.

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Identity {
    #[default]
    Normal,
    Highclass,
    Underclass,
}

impl Identity {
    pub fn as_str(self) -> &'static str {
        match self {
            Identity::Normal => "normal",
            Identity::Highclass => "highclass",
            Identity::Underclass => "underclass",
        }
    }
}

/// What Group Identity decides about a wakeup at the level where the wakee
/// (`pse`) and curr (`se`) meet; None = no opinion, CFS's rule applies.
pub fn wakeup_verdict(curr: Identity, wakee: Identity) -> Option<bool> {
    match (curr, wakee) {
        // An underclass wakee never preempts anyone else.
        (c, Identity::Underclass) if c != Identity::Underclass => Some(false),
        // Anything else preempts a running underclass entity.
        (Identity::Underclass, w) if w != Identity::Underclass => Some(true),
        // Highclass preempts normal regardless of the granularities.
        (Identity::Normal, Identity::Highclass) => Some(true),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Identity::*;

    #[test]
    fn wakeup_rules() {
        assert_eq!(wakeup_verdict(Normal, Highclass), Some(true));
        assert_eq!(wakeup_verdict(Underclass, Normal), Some(true));
        assert_eq!(wakeup_verdict(Highclass, Underclass), Some(false));
        assert_eq!(wakeup_verdict(Normal, Normal), None);
        assert_eq!(wakeup_verdict(Highclass, Highclass), None);
        assert_eq!(wakeup_verdict(Underclass, Underclass), None);
        assert_eq!(wakeup_verdict(Highclass, Normal), None);
    }
}
