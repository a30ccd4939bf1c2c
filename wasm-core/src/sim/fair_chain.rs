//! A task's path up the group hierarchy, (level, entity) pairs from its own
//! runqueue to its CPU's root: the fair class walks it on every enqueue,
//! dequeue, pick and tick, so it is held on the stack.

use crate::sched::entity::EntId;

/// Levels a hierarchy walk keeps on the stack (deeper cgroup trees spill to the heap).
const CHAIN_INLINE: usize = 8;

/// A task's (level, entity) pairs up to the root: walked on every enqueue,
/// dequeue, pick and tick, so it lives on the stack.
#[derive(Default)]
pub(crate) struct Chain {
    len: usize,
    inline: [(u32, EntId); CHAIN_INLINE],
    spill: Vec<(u32, EntId)>,
}

impl Chain {
    #[inline]
    pub(super) fn push(&mut self, item: (u32, EntId)) {
        if self.len < CHAIN_INLINE {
            self.inline[self.len] = item;
        } else {
            if self.spill.is_empty() {
                self.spill.extend_from_slice(&self.inline);
            }
            self.spill.push(item);
        }
        self.len += 1;
    }
}

impl std::ops::Deref for Chain {
    type Target = [(u32, EntId)];
    fn deref(&self) -> &Self::Target {
        if self.len > CHAIN_INLINE {
            &self.spill
        } else {
            &self.inline[..self.len]
        }
    }
}

impl IntoIterator for Chain {
    type Item = (u32, EntId);
    type IntoIter = ChainIter;
    fn into_iter(self) -> ChainIter {
        ChainIter { chain: self, next: 0 }
    }
}

pub(crate) struct ChainIter {
    chain: Chain,
    next: usize,
}

impl Iterator for ChainIter {
    type Item = (u32, EntId);
    fn next(&mut self) -> Option<Self::Item> {
        let item = self.chain.get(self.next).copied();
        self.next += 1;
        item
    }
}
