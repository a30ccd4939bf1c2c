//! `cpu_attach_domain`'s pruning: levels that add nothing to scheduling are
//! removed (`sd_parent_degenerate` walking up, then `sd_degenerate` on the
//! lowest), and a removed parent's SD_PREFER_SIBLING passes down to the
//! domain below it (their spans are equal). This is how a machine whose DIE
//! level spans the same CPUs as MC ends with an MC domain that prefers
//! siblings: the NUMA level above then spreads tasks across nodes. Which
//! flags need two groups is the generation's (`DomainRules`): 6.12 lists more
//! of them than 4.1.

use super::domains::{DomainRules, SchedDomain};

/// `sd_degenerate`.
fn sd_degenerate(rules: DomainRules, sd: &SchedDomain) -> bool {
    if sd.span.weight() == 1 {
        return true;
    }
    if rules.needs_groups(&sd.flags) && sd.groups.len() > 1 {
        return false;
    }
    !sd.flags.wake_affine
}

/// `sd_parent_degenerate`: the parent spans what the child does and, once
/// the group flags of a one-group parent are set aside, has no flag the child
/// lacks.
fn sd_parent_degenerate(rules: DomainRules, sd: &SchedDomain, parent: &SchedDomain, nr_nodes: u32) -> bool {
    if sd_degenerate(rules, parent) {
        return true;
    }
    if !(sd.span.is_subset_of(&parent.span) && parent.span.is_subset_of(&sd.span)) {
        return false;
    }
    let mut p = parent.flags.clone();
    if parent.groups.len() == 1 {
        rules.set_aside_group_flags(&mut p, nr_nodes);
    }
    let c = &sd.flags;
    let extra = [
        (p.load_balance, c.load_balance),
        (p.balance_newidle, c.balance_newidle),
        (p.balance_exec, c.balance_exec),
        (p.balance_fork, c.balance_fork),
        (p.balance_wake, c.balance_wake),
        (p.wake_affine, c.wake_affine),
        (p.share_cpucapacity, c.share_cpucapacity),
        (p.share_pkg_resources, c.share_pkg_resources),
        (p.prefer_sibling, c.prefer_sibling),
        (p.serialize, c.serialize),
        (p.overlap, c.overlap),
        (p.numa, c.numa),
    ];
    !extra.iter().any(|&(parent_has, child_has)| parent_has && !child_has)
}

/// `cpu_attach_domain`'s removal of degenerate domains from one CPU's
/// hierarchy (lowest first).
pub(super) fn remove_degenerate(rules: DomainRules, mut doms: Vec<SchedDomain>, nr_nodes: u32) -> Vec<SchedDomain> {
    let mut t = 0;
    while t + 1 < doms.len() {
        if sd_parent_degenerate(rules, &doms[t], &doms[t + 1], nr_nodes) {
            let parent = doms.remove(t + 1);
            if parent.flags.prefer_sibling {
                doms[t].flags.prefer_sibling = true;
            }
        } else {
            t += 1;
        }
    }
    if doms.first().is_some_and(|sd| sd_degenerate(rules, sd)) {
        doms.remove(0);
    }
    doms
}
