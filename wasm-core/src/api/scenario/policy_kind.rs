//! The scheduling policies a scenario can name (`policy.kind`), in one table:
//! the names the format accepts and its schema lists, the editor's picker
//! offers, validation maps to the engine's `PolicyKind`, and `schedsim real`
//! prints back. A new policy is one row here (and its class in `class_for`).

use crate::config::PolicyKind;

/// Every policy by its name in a scenario, in the order the editor offers
/// them; "ext" is a policy written in JavaScript (its source is a field of
/// the policy).
pub const POLICY_KINDS: [(&str, PolicyKind); 6] = [
    ("cfs", PolicyKind::Cfs),
    ("pfs", PolicyKind::Pfs),
    ("dw-cfs", PolicyKind::DwCfs),
    ("eevdf", PolicyKind::Eevdf),
    ("o1", PolicyKind::O1),
    ("ext", PolicyKind::Ext),
];

/// The names alone, in the same order (the schema's and the picker's list).
pub const POLICY_KIND_NAMES: [&str; POLICY_KINDS.len()] = {
    let mut names = [""; POLICY_KINDS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = POLICY_KINDS[i].0;
        i += 1;
    }
    names
};

/// The policy a scenario's name stands for, or None for an unknown name.
pub fn policy_kind(name: &str) -> Option<PolicyKind> {
    POLICY_KINDS.iter().find(|(n, _)| *n == name).map(|&(_, kind)| kind)
}

/// The name a scenario gives a policy.
pub fn policy_kind_name(kind: PolicyKind) -> &'static str {
    POLICY_KINDS.iter().find(|(_, k)| *k == kind).map_or("?", |&(name, _)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_kinds_map_both_ways() {
        for (name, kind) in POLICY_KINDS {
            assert_eq!(policy_kind(name), Some(kind));
            assert_eq!(policy_kind_name(kind), name);
        }
        assert_eq!(POLICY_KIND_NAMES, ["cfs", "pfs", "dw-cfs", "eevdf", "o1", "ext"]);
        assert_eq!(policy_kind("CFS"), None);
    }
}
