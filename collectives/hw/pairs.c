/* --pairs (hw.h): the round-robin schedule of disjoint pairs, the slow
 * pairs and the rank they share, and the host list a scheduler takes to
 * leave a node out. Pure. */
#include "hw/hw.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n-1 perfect matchings for even n; odd n plays n rounds with a bye. */
int nc_pair_rounds(int n)
{
	if (n < 2)
		return 0;
	return n % 2 ? n : n - 1;
}

/* The circle method: with m = n (odd: n + 1, the extra seat a bye), seat
 * m-1 stays, the others turn one place a round; seat m-1 meets the seat
 * r, and seats r-k and r+k (mod m-1) meet. */
void nc_pair_round(int n, int r, int *partner)
{
	int m = n % 2 ? n + 1 : n, q = m - 1;

	for (int i = 0; i < n; i++)
		partner[i] = -1;
	if (n < 2)
		return;
	r %= q;
	{
		int a = r, b = m - 1;

		if (a < n && b < n) {
			partner[a] = b;
			partner[b] = a;
		}
	}
	for (int k = 1; k < m / 2; k++) {
		int a = (r - k + q) % q, b = (r + k) % q;

		if (a < n && b < n) {
			partner[a] = b;
			partner[b] = a;
		}
	}
}

/* qsort order for doubles. */
static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of t[0..k-1] (sorts it); 0 when k is 0. */
static double median_of(double *t, size_t k)
{
	if (k == 0)
		return 0;
	qsort(t, k, sizeof(*t), cmp_d);
	return k % 2 ? t[k / 2] : (t[k / 2 - 1] + t[k / 2]) / 2;
}

/* Whether pair (a, b) is in the class of pair (i, j): both within one
 * host or both across hosts. */
static bool same_class(const int *host, int i, int j, int a, int b)
{
	return host == NULL || (host[i] == host[j]) == (host[a] == host[b]);
}

/* The number of pairs in pair (i, j)'s class. */
static size_t class_size(const int *host, int n, int i, int j)
{
	size_t k = 0;

	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++)
			k += same_class(host, i, j, a, b);
	return k;
}

/* Pairs of (i, j)'s class into t: the ones that share no rank with it
 * (disjoint), or every other one; how many. */
static size_t class_pairs(const double *bw, const int *host, int n, int i,
			  int j, bool disjoint, double *t)
{
	size_t k = 0;

	for (int a = 0; a < n; a++)
		for (int b = a + 1; b < n; b++) {
			if (!same_class(host, i, j, a, b) ||
			    (a == i && b == j))
				continue;
			if (disjoint && (a == i || a == j || b == i || b == j))
				continue;
			t[k++] = bw[a * n + b];
		}
	return k;
}

/* The reference of one pair, with scratch t (room for every pair). */
static double reference(const double *bw, const int *host, int n, int i,
			int j, double *t)
{
	size_t k, all = class_size(host, n, i, j);

	if (all < 2)
		return 0;
	if (all > NC_PAIR_DISJOINT_MAX)
		return median_of(t, class_pairs(bw, host, n, i, j, false, t));
	k = class_pairs(bw, host, n, i, j, true, t);
	if (k == 0)
		k = class_pairs(bw, host, n, i, j, false, t);
	return median_of(t, k);
}

/* The reference of one pair, for the findings' evidence. */
double nc_pairs_reference(const double *bw, const int *host, int n, int i,
			  int j)
{
	size_t np = n > 1 ? (size_t)n * (size_t)(n - 1) / 2 : 1;
	double *t = malloc(sizeof(*t) * np), r;

	if (t == NULL || i < 0 || j >= n || i >= j) {
		free(t);
		return 0;
	}
	r = reference(bw, host, n, i, j, t);
	free(t);
	return r;
}

/* A pair is slow against the pairs of its class (within a host over
 * NVLink, across hosts over the NICs: never one against the other) that
 * share no rank with it, so one bad link or one bad GPU among many stands
 * out even where its own pairs are half of the class (4 GPUs); the common
 * rank is the one the slow pairs share. Large classes take the class's
 * median once. */
int nc_pairs_decide(const double *bw, const int *host, int n, double tol,
		    bool *slow, int *common)
{
	size_t np = n > 1 ? (size_t)n * (size_t)(n - 1) / 2 : 0;
	double *t = malloc(sizeof(*t) * (np ? np : 1)), med[2] = { 0, 0 };
	int *deg = calloc((size_t)(n > 0 ? n : 1), sizeof(int)), nslow = 0;
	bool big[2] = { false, false };

	*common = -1;
	for (int i = 0; i < n * n; i++)
		slow[i] = false;
	if (t == NULL || deg == NULL || np == 0) {
		free(t);
		free(deg);
		return 0;
	}
	/* a large class: one median for all its pairs */
	for (int s = 0; s < 2; s++) {
		size_t k = 0;

		for (int a = 0; a < n; a++)
			for (int b = a + 1; b < n; b++)
				if (host == NULL ? s == 1 :
						   (host[a] == host[b]) == s)
					t[k++] = bw[a * n + b];
		big[s] = k > NC_PAIR_DISJOINT_MAX;
		if (big[s])
			med[s] = median_of(t, k);
	}
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			int s = host == NULL || host[i] == host[j];
			double m = big[s] ? med[s] :
					    reference(bw, host, n, i, j, t);

			if (m > 0 && bw[i * n + j] < (1 - tol) * m) {
				slow[i * n + j] = true;
				nslow++;
				deg[i]++;
				deg[j]++;
			}
		}
	if (nslow > 0) {
		int best = -1, second = 0;

		for (int i = 0; i < n; i++) {
			if (best < 0 || deg[i] > deg[best]) {
				second = best >= 0 ? deg[best] : 0;
				best = i;
			} else if (deg[i] > second) {
				second = deg[i];
			}
		}
		/* one slow pair names two ranks alike: no common rank */
		if (deg[best] == nslow && nslow > 1)
			*common = best;
		else if (2 * deg[best] >= nslow && deg[best] > second &&
			 nslow > 1)
			*common = best;
	}
	free(t);
	free(deg);
	return nslow;
}

/* Splits a name into a prefix and a trailing number (digits, with their
 * width); no digits: width 0. */
static void split_name(const char *s, size_t *plen, long *num, int *width)
{
	size_t n = strlen(s), i = n;

	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	*plen = i;
	*width = (int)(n - i);
	*num = *width > 0 && *width < 10 ? strtol(s + i, NULL, 10) : -1;
	if (*num < 0)
		*width = 0, *plen = n;
}

/* qsort order for names: prefix, width, number. */
static int cmp_host(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t px, py;
	long nx, ny;
	int wx, wy, c;

	split_name(x, &px, &nx, &wx);
	split_name(y, &py, &ny, &wy);
	c = strncmp(x, y, px < py ? px : py);
	if (c != 0 || px != py)
		return c != 0 ? c : (px < py ? -1 : 1);
	if (wx != wy)
		return wx - wy;
	return nx < ny ? -1 : nx > ny;
}

/* Appends a string to buf; -1 when it does not fit. */
static int put(char *buf, size_t len, size_t *at, const char *s)
{
	size_t k = strlen(s);

	if (*at + k + 1 > len)
		return -1;
	memcpy(buf + *at, s, k + 1);
	*at += k;
	return 0;
}

/* Appends a number of `w` digits (zero-padded). */
static int put_num(char *buf, size_t len, size_t *at, long x, int w)
{
	char t[32];

	snprintf(t, sizeof(t), "%0*ld", w, x);
	return put(buf, len, at, t);
}

/* Sorted, deduplicated; runs of one prefix and width in brackets, ranges
 * for consecutive numbers: what scontrol show hostnames expands back. */
int nc_hostlist(const char *const *hosts, int n, char *buf, size_t len)
{
	const char **v = malloc(sizeof(*v) * (size_t)(n > 0 ? n : 1));
	size_t at = 0;
	int i = 0, rc = 0;

	if (len == 0 || v == NULL) {
		free(v);
		return -1;
	}
	buf[0] = 0;
	memcpy(v, hosts, sizeof(*v) * (size_t)n);
	qsort(v, (size_t)n, sizeof(*v), cmp_host);
	while (i < n && rc == 0) {
		size_t pl, ql;
		long a, b;
		int w, wq, j = i + 1, items = 0;

		split_name(v[i], &pl, &a, &w);
		if (at > 0 && put(buf, len, &at, ",") < 0)
			rc = -1;
		if (rc == 0 && at + pl + 1 > len)
			rc = -1;
		if (rc < 0)
			break;
		memcpy(buf + at, v[i], pl);
		at += pl;
		buf[at] = 0;
		if (w == 0) {
			while (j < n && strcmp(v[j], v[i]) == 0)
				j++;
			i = j;
			continue;
		}
		/* how many names share the prefix and width */
		while (j < n) {
			split_name(v[j], &ql, &b, &wq);
			if (ql != pl || wq != w || strncmp(v[j], v[i], pl) != 0)
				break;
			j++;
		}
		if (j - i > 1 && put(buf, len, &at, "[") < 0)
			rc = -1;
		for (int k = i; k < j && rc == 0;) {
			long lo, hi, x;
			int m = k + 1;

			split_name(v[k], &ql, &lo, &wq);
			hi = lo;
			while (m < j) {
				split_name(v[m], &ql, &x, &wq);
				if (x == hi) {
					m++;
					continue;
				}
				if (x != hi + 1)
					break;
				hi = x;
				m++;
			}
			if (items++ > 0)
				rc = put(buf, len, &at, ",");
			if (rc == 0)
				rc = put_num(buf, len, &at, lo, w);
			if (rc == 0 && hi > lo)
				rc = put(buf, len, &at, "-") < 0 ? -1 :
				     put_num(buf, len, &at, hi, w);
			k = m;
		}
		if (rc == 0 && j - i > 1)
			rc = put(buf, len, &at, "]");
		i = j;
	}
	free(v);
	return rc;
}
