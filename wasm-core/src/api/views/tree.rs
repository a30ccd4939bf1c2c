//! A red-black tree as the page draws it: the root and each node with its
//! key, colour and children. The fair class's runqueues (`view.rs`) and the
//! deadline class's (`dl.rs`) are drawn from it.

use crate::sched::entity::EntId;
use serde::Serialize;

#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct TreeView {
    // The entity id at the root (a pid, or a group entity's id with the top bit set): not a `Pid`.
    pub root: Option<EntId>,
    pub nodes: Vec<TreeNode>,
}

/// A tree node: a task (`pid` is its pid) or a group entity (`group` is its
/// task group, and `pid` its entity id, which has the top bit set).
#[derive(Serialize)]
#[cfg_attr(any(test, feature = "gen"), derive(ts_rs::TS))]
pub struct TreeNode {
    pub pid: EntId,
    pub name: String,
    pub vruntime: u64,
    pub weight: u64,
    pub red: bool,
    pub left: Option<EntId>,
    pub right: Option<EntId>,
    pub group: Option<u32>,
}
