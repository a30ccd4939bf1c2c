//! A scenario's cgroups checked: unique names, parents defined earlier,
//! shares in the kernel's range, identities only at the top. Names are
//! looked up in one sorted index, never by a scan of the list per cgroup or
//! per process: a scenario of 8 MiB can hold hundreds of thousands of
//! cgroups, and pairwise scans took minutes before refusing them.

use crate::api::scenario::diagnostic::Checker;
use crate::api::scenario::file::{CgroupFile, MAX_NAME_LEN};
use crate::api::text::escape_controls as shown;
use crate::config::CgroupSpec;
use crate::sched::identity::Identity;

/// The most cgroups a scenario may define.
pub const MAX_CGROUPS: usize = 256;

/// Each cgroup name with the index of its first definition, sorted by name.
pub(super) struct CgroupNames<'a>(Vec<(&'a str, usize)>);

impl<'a> CgroupNames<'a> {
    pub(super) fn of(list: &'a [CgroupFile]) -> CgroupNames<'a> {
        let mut v: Vec<(&str, usize)> = list.iter().enumerate().map(|(i, g)| (g.name.as_str(), i)).collect();
        // (name, index) pairs are distinct: sorted, each name's first pair has its lowest index.
        v.sort_unstable();
        v.dedup_by_key(|(name, _)| *name);
        CgroupNames(v)
    }

    /// The index of the first cgroup named `name`.
    pub(super) fn first(&self, name: &str) -> Option<usize> {
        self.0.binary_search_by(|(n, _)| (*n).cmp(name)).ok().map(|k| self.0[k].1)
    }

    pub(super) fn contains(&self, name: &str) -> bool {
        self.first(name).is_some()
    }
}

/// The cgroups' specs, every problem found put in `c`.
pub(super) fn cgroups_of(list: &[CgroupFile], names: &CgroupNames, c: &mut Checker) -> Vec<CgroupSpec> {
    if list.len() > MAX_CGROUPS {
        c.fail("cgroups", format!("at most {MAX_CGROUPS} cgroups (the scenario defines {})", list.len()));
    }
    let mut out: Vec<CgroupSpec> = Vec::with_capacity(list.len().min(MAX_CGROUPS));
    for (i, g) in list.iter().enumerate() {
        let at = format!("cgroups[{i}]");
        if g.name.is_empty() || g.name.chars().count() > MAX_NAME_LEN || names.first(&g.name) != Some(i) {
            c.fail(format!("{at}.name"), format!("must be a unique name of 1 to {MAX_NAME_LEN} characters"));
        }
        c.one_line(&format!("{at}.name"), &g.name);
        c.range(&format!("{at}.shares"), g.shares, 2, 262_144);
        if let Some(p) = &g.parent {
            if names.first(p).is_none_or(|k| k >= i) {
                c.fail(format!("{at}.parent"), format!("no cgroup named '{}' defined before this one", shown(p)));
            }
        }
        let identity = match g.identity.as_deref() {
            None | Some("normal") => Identity::Normal,
            Some("highclass") => Identity::Highclass,
            Some("underclass") => Identity::Underclass,
            Some(other) => {
                c.fail(
                    format!("{at}.identity"),
                    format!("must be highclass, normal or underclass (got '{}')", shown(other)),
                );
                Identity::Normal
            }
        };
        if g.parent.is_some() && (g.identity.is_some() || g.smt_expeller.is_some()) {
            c.fail(format!("{at}.identity"), "only top-level cgroups carry an identity; children inherit it");
        }
        let smt_expeller = g.smt_expeller.unwrap_or(false);
        if smt_expeller && identity != Identity::Highclass {
            c.fail(format!("{at}.smt_expeller"), "only a highclass cgroup can be an SMT expeller");
        }
        // Past the limit the scenario is refused: only the problems are wanted, not the specs.
        if out.len() < MAX_CGROUPS {
            out.push(CgroupSpec {
                name: g.name.clone(),
                shares: g.shares,
                parent: g.parent.clone(),
                identity,
                smt_expeller,
            });
        }
    }
    out
}
