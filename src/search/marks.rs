//! Marks that tell a search thread another thread is already searching this node.
//!
//! With Lazy SMP every thread searches the same tree, and near the root they often search
//! the same node at the same time: the second thread's nodes there duplicate the first's.
//! Each thread marks the node it enters (near the root only, where nodes are few and
//! expensive) in a small shared table; a thread that finds a node marked by another one
//! reduces its late moves there one ply more, so that it moves on to other work sooner and
//! leaves the deep answer to the thread that got there first (issue 32).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Nodes nearer the root than this are marked.
pub(super) const MARK_PLIES: usize = 8;

/// Slots in the table (a power of two): enough that the threads' paths near the root rarely
/// collide, small enough to stay in cache.
const SLOTS: usize = 1024;

/// One slot: the thread that holds it (its id plus one; 0 when free) and the node's key.
#[derive(Default)]
struct Slot {
    owner: AtomicUsize,
    key: AtomicU64,
}

/// The shared table of marks, one per search of more than one thread.
pub(super) struct Marks {
    slots: Box<[Slot]>,
}

impl Default for Marks {
    fn default() -> Self {
        Marks { slots: (0..SLOTS).map(|_| Slot::default()).collect() }
    }
}

impl Marks {
    /// Thread `id` enters the node `key` at `ply`. The guard releases the mark when dropped,
    /// on whatever path the node returns.
    #[inline]
    pub fn enter(&self, id: usize, key: u64, ply: usize) -> Mark<'_> {
        if ply >= MARK_PLIES {
            return Mark::NONE;
        }
        let slot = &self.slots[key as usize & (SLOTS - 1)];
        let me = id + 1;
        match slot.owner.load(Ordering::Relaxed) {
            // A race between two threads taking a free slot at once can leave one thread
            // unaware of the other, or both holding it: either costs a little search
            // efficiency, never a wrong result, so no compare-and-swap is paid for.
            0 => {
                slot.key.store(key, Ordering::Relaxed);
                slot.owner.store(me, Ordering::Relaxed);
                Mark { slot: Some((slot, me)), other: false }
            }
            owner => Mark { slot: None, other: owner != me && slot.key.load(Ordering::Relaxed) == key },
        }
    }
}

/// A thread's presence at a node; see `Marks::enter`.
pub(super) struct Mark<'a> {
    /// The slot this thread took, and its owner value, to free it on drop.
    slot: Option<(&'a Slot, usize)>,
    other: bool,
}

impl Mark<'_> {
    /// A guard that marks nothing: one-thread searches, or the feature switched off.
    pub const NONE: Mark<'static> = Mark { slot: None, other: false };

    /// Whether another thread was searching this node when this one entered it.
    #[inline(always)]
    pub fn other_thread_here(&self) -> bool {
        self.other
    }
}

impl Drop for Mark<'_> {
    fn drop(&mut self) {
        if let Some((slot, me)) = self.slot {
            // Free the slot only if this thread still holds it: after a race another thread
            // may have taken it over, and its mark must stay.
            if slot.owner.load(Ordering::Relaxed) == me {
                slot.owner.store(0, Ordering::Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_thread_sees_the_first_until_it_leaves() {
        let marks = Marks::default();
        let a = marks.enter(0, 0xABCD, 3);
        assert!(!a.other_thread_here());
        {
            let b = marks.enter(1, 0xABCD, 3);
            assert!(b.other_thread_here());
            // The same thread re-entering (a transposition on its own path) is not another.
            assert!(!marks.enter(0, 0xABCD, 5).other_thread_here());
            drop(b);
        }
        // The second thread did not own the slot: dropping its guard left the mark.
        assert!(marks.enter(2, 0xABCD, 1).other_thread_here());
        drop(a);
        assert!(!marks.enter(1, 0xABCD, 3).other_thread_here());
    }

    #[test]
    fn a_different_node_in_the_same_slot_and_deep_nodes_are_not_marked() {
        let marks = Marks::default();
        let _a = marks.enter(0, 7, 2);
        assert!(!marks.enter(1, 7 + SLOTS as u64, 2).other_thread_here());
        let _deep = marks.enter(0, 99, MARK_PLIES);
        assert!(!marks.enter(1, 99, MARK_PLIES).other_thread_here());
        assert!(!marks.enter(1, 99, 0).other_thread_here());
    }
}
