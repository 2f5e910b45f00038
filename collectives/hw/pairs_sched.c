/* --pairs' schedule over hosts (hw.h): every pair within a host alone on
 * its host, then the pairs across hosts in the rounds of the circle
 * schedule. Pure. */
#include "hw/hw.h"

#include <stdlib.h>

/* Rounds within hosts: the largest number of pairs one host holds. */
static int inner_rounds(int n, const int *host)
{
	int most = 0;

	for (int i = 0; i < n; i++) {
		int g = 0;

		if (host[i] != i)
			continue; /* counted at the host's first rank */
		for (int j = 0; j < n; j++)
			g += host[j] == i;
		if (g * (g - 1) / 2 > most)
			most = g * (g - 1) / 2;
	}
	return most;
}

/* Round r within hosts: each host's r-th pair (in rank order), if any;
 * m is scratch for n ranks. */
static void inner_round(int n, const int *host, int r, int *partner, int *m)
{
	for (int i = 0; i < n; i++)
		partner[i] = -1;
	for (int h = 0; h < n; h++) {
		int g = 0, k = 0;

		if (host[h] != h)
			continue;
		for (int i = h; i < n; i++)
			if (host[i] == h)
				m[g++] = i;
		for (int x = 0; x < g && k <= r; x++)
			for (int y = x + 1; y < g && k <= r; y++)
				if (k++ == r) {
					partner[m[x]] = m[y];
					partner[m[y]] = m[x];
				}
	}
}

/* Within hosts first, one pair per host a round; then across (hw.h). */
int nc_pairs_schedule(int n, const int *host, int **out)
{
	int a = n > 1 ? inner_rounds(n, host) : 0;
	int b = nc_pair_rounds(n), rounds = 0;
	int *p = malloc(sizeof(int) * (size_t)(a + b > 0 ? a + b : 1) *
			(size_t)(n > 0 ? n : 1));

	int *m = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));

	*out = p;
	if (p == NULL || m == NULL) {
		free(m);
		return -1;
	}
	for (int r = 0; r < a; r++)
		inner_round(n, host, r, p + (size_t)rounds++ * (size_t)n, m);
	free(m);
	for (int r = 0; r < b; r++) {
		int *q = p + (size_t)rounds * (size_t)n, any = 0;

		nc_pair_round(n, r, q);
		for (int i = 0; i < n; i++) {
			if (q[i] >= 0 && host[q[i]] == host[i])
				q[i] = -1; /* measured alone above */
			any += q[i] >= 0;
		}
		if (any > 0)
			rounds++;
	}
	return rounds;
}
