/* The mesh's probing plan: all pairs below a limit, logarithmic offsets
 * above it (meshplan.h). */
#include "probe/meshplan.h"

/* See meshplan.h. */
size_t meshplan_targets(size_t me, size_t n, size_t all_pairs, size_t *out,
                        size_t max)
{
	size_t k = 0;

	if (me >= n)
		return 0;
	if (n <= all_pairs) {
		/* start after me, so the first probes spread over the nodes */
		for (size_t d = 1; d < n && k < max; d++)
			out[k++] = (me + d) % n;
		return k;
	}
	/* offsets 1, 2, 4 ... are distinct and below n: no repeats */
	for (size_t d = 1; d < n && k < max; d *= 2)
		out[k++] = (me + d) % n;
	return k;
}

/* See meshplan.h. */
size_t meshplan_testers(size_t j, size_t n, size_t all_pairs)
{
	size_t k = 0;

	if (j >= n || n < 2)
		return 0;
	if (n <= all_pairs)
		return n - 1;
	for (size_t d = 1; d < n; d *= 2)
		k++;
	return k;
}

/* See meshplan.h. */
long long meshplan_bound_us(size_t n, size_t all_pairs, size_t concurrency,
                            long long per_peer_us)
{
	size_t t = n < 2 ? 0 : n <= all_pairs ? n - 1 : 0, rounds;

	if (n > all_pairs)
		for (size_t d = 1; d < n; d *= 2)
			t++;
	if (concurrency == 0)
		concurrency = 1;
	rounds = (t + concurrency - 1) / concurrency;
	return (long long)rounds * per_peer_us;
}
