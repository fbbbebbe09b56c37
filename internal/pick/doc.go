// Package pick holds the argmin structures of the dispatch policies that
// follow the tiers' changes instead of reading every tier at every
// decision: the tier of the smallest key, ties uniformly at random, at a
// cost that does not grow with the number of tiers when few of them
// change between decisions. It knows keys, leaves and a random stream,
// nothing of views or policies, and allocates only when it is sized.
//
// The rule, the same in all three: the smallest present key wins; among
// the k tied, one draw r of rng.IntN(k) picks the r-th in index order,
// with no draw when k is 1; NaN is larger than every number, never chosen
// over one, and when every present key is NaN the first present index is
// chosen without a draw. So for the same keys and the same stream, the
// three return the same index and leave the stream in the same state,
// and a policy may switch between them from one decision to the next.
//
//   - MinTree is a tournament tree over n leaves. Invariant: every node
//     holds the smallest key present below it (NaN last) and how many
//     leaves hold it, 0 when none is present; Put and drop break it until
//     Build restores it, Set and Unset keep it. Costs: Set, Unset, Pick and
//     PickAt O(log n); Build and Reset O(n), Reset allocating. Decide keeps
//     it current from the indices that changed, or marks it stale after an
//     untracked decision so that the next tracked one rebuilds it.
//   - Scan is the same rule by a pass over the keys (a second only on a
//     tie): O(n), for a view that does not list its changes.
//   - IdleSet is a set of offered tiers over keys fixed at NewIdleSet, laid
//     out by (key, index). Invariant: between Add, Remove and Rebuild, the
//     bits, the block counts, the per-key counts and the total agree with
//     On; a caller that writes On whole restores them with Rebuild. Costs:
//     Add and Remove O(1); Pick O(1) of the changes plus a scan of one
//     count per 512 tiers and at most eight words; Rebuild O(n).
//
// None is safe for concurrent use; a policy keeps its own.
package pick
