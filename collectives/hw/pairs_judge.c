/* --pairs' judgement (hw.h): which slow pairs stand once measured again
 * alone, and what is slow: a node, a GPU, or a link between two ranks.
 * Pure. */
#include "hw/hw.h"

#include <stdlib.h>
#include <string.h>

/* Slow pair (i, j) in either order. */
static bool is_slow(const bool *slow, int n, int i, int j)
{
	return i < j ? slow[i * n + j] : slow[j * n + i];
}

/* Host h is slow against every peer: every pair from one of its ranks to
 * a rank of another host is slow while some pair between two other hosts
 * is not; or every pair within it is slow while some pair within another
 * host is not. With one host there is no peer: never. */
static bool host_at_fault(const bool *slow, const int *host, int n, int h)
{
	int cross = 0, cross_slow = 0, other_cross = 0, other_cross_ok = 0;
	int in = 0, in_slow = 0, other_in = 0, other_in_ok = 0;

	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			bool s = slow[i * n + j], mine = host[i] == h ||
							 host[j] == h;

			if (host[i] != host[j] && mine) {
				cross++;
				cross_slow += s;
			} else if (host[i] != host[j]) {
				other_cross++;
				other_cross_ok += !s;
			} else if (mine) {
				in++;
				in_slow += s;
			} else {
				other_in++;
				other_in_ok += !s;
			}
		}
	if (cross > 0 && cross_slow == cross && other_cross_ok > 0)
		return true;
	return in > 0 && in_slow == in && other_in_ok > 0;
}

/* Suspects of the screening that stay slow alone, then the node, GPU or
 * link they add up to (hw.h). */
int nc_pairs_judge(const double *screen, const double *alone, const int *host,
		   int n, double tol, bool *slow, bool *gpu, bool *node)
{
	size_t nn = (size_t)(n > 0 ? n : 1) * (size_t)(n > 0 ? n : 1);
	double *merged = malloc(sizeof(double) * nn);
	bool *again = calloc(nn, sizeof(bool)), *left = calloc(nn, sizeof(bool));
	int nslow = 0, common, *deg = calloc((size_t)(n > 0 ? n : 1),
					     sizeof(int));
	int *cnt = calloc((size_t)(n > 0 ? n : 1), sizeof(int));

	for (int i = 0; i < n; i++)
		gpu[i] = node[i] = false;
	if (merged == NULL || again == NULL || left == NULL || deg == NULL ||
	    cnt == NULL || n < 2) {
		for (int i = 0; i < n * n; i++)
			slow[i] = false;
		nslow = -1;
		goto out;
	}
	/* the screening's suspects, then the figures alone put in */
	nc_pairs_decide(screen, host, n, tol, slow, &common);
	for (size_t k = 0; k < nn; k++)
		merged[k] = alone[k] > 0 ? alone[k] : screen[k];
	nc_pairs_decide(merged, host, n, tol, again, &common);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			size_t k = (size_t)i * (size_t)n + (size_t)j;

			slow[k] = slow[k] && alone[k] > 0 && again[k];
			nslow += slow[k];
		}
	/* nodes first: a host's NIC or its own GPUs against every peer */
	if (host != NULL)
		for (int i = 0; i < n; i++)
			node[i] = host_at_fault(slow, host, n, host[i]);
	/* then GPUs, one at a time: in more than half of its pairs left */
	memcpy(left, slow, nn * sizeof(bool));
	for (int i = 0; i < n; i++)
		if (node[i])
			for (int j = 0; j < n; j++)
				left[i < j ? i * n + j : j * n + i] = false;
	for (int round = 0; round < n; round++) {
		int best = -1;

		for (int i = 0; i < n; i++) {
			deg[i] = cnt[i] = 0;
			for (int j = 0; j < n; j++) {
				if (j == i || node[j] || gpu[j])
					continue;
				cnt[i]++;
				deg[i] += is_slow(left, n, i, j);
			}
			if (!node[i] && !gpu[i] && deg[i] > 0 &&
			    (best < 0 || deg[i] > deg[best]))
				best = i;
		}
		if (best < 0 || 2 * deg[best] <= cnt[best] || cnt[best] < 2)
			break;
		gpu[best] = true;
		for (int j = 0; j < n; j++)
			left[best < j ? best * n + j : j * n + best] = false;
	}
out:
	free(merged);
	free(again);
	free(left);
	free(deg);
	free(cnt);
	return nslow < 0 ? 0 : nslow;
}
