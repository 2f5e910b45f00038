/* Which peers each member of a mesh probes, and how long that may take:
 * every pair up to a limit of members; above it, member i probes i+1,
 * i+2, i+4, ... (mod n), so each tests O(log n) others and each is tested
 * by as many, near and far in rank order (ncclcheck's pre-flight scheme).
 * Pure arithmetic, the same on every node. */
#ifndef NP_MESHPLAN_H
#define NP_MESHPLAN_H

#include <stddef.h>

#define MESHPLAN_ALL_PAIRS 32 /* default limit of the all-pairs plan */

/* Writes the members (0..n-1, never me) that member me probes into out
 * (at most max) in probing order; returns how many. n <= all_pairs: all
 * the others; above: me + 2^k for 2^k < n. */
size_t meshplan_targets(size_t me, size_t n, size_t all_pairs, size_t *out,
                        size_t max);

/* How many members probe member j under the same plan (the others probe
 * it through the connect-back of its own probes too). */
size_t meshplan_testers(size_t j, size_t n, size_t all_pairs);

/* The longest any member's probing takes: its targets in rounds of
 * concurrency, each round within per_peer_us. */
long long meshplan_bound_us(size_t n, size_t all_pairs, size_t concurrency,
                            long long per_peer_us);

#endif
