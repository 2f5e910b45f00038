/* The endpoint near a line that names none (explain_near.h). */
#include <stdio.h>
#include <string.h>

#include "decide/explain_near.h"
#include "decide/explain_priv.h"

void explain_near_reset(struct explain_near *n)
{
	memset(n, 0, sizeof(*n));
}

/* Whether a hit's row says how a connect failed and not where: the
 * errno words any program prints (logsig_generic.def), or a Python
 * exception's innermost line, which never carries the address. */
static bool wants_near(const struct explain_hit *h)
{
	char a[64], p[8];

	if (h->near_line != 0 || (!(h->m.sig->flags & LOGSIG_GENERIC) &&
				  strncmp(h->m.sig->id, "py-", 3) != 0))
		return false;
	return !explain_line_endpoint(h->text, a, sizeof(a), p, sizeof(p));
}

/* Whether line names an endpoint strong enough to stand for another
 * line's: an address, or a host name with a dot or a dash (a cluster's
 * service, a node's name), or any name a URL gives with its port. A
 * bare word and a number ("status:100", "epoch:10") is a key and its
 * value as often (issue 42: blind42o b01, FATE's "status:100" taken
 * for a host and port). */
static bool strong(const char *line, char *a, size_t alen, char *p,
		   size_t plen)
{
	char url[80];

	if (!explain_line_endpoint(line, a, alen, p, plen))
		return false;
	/* a URL's host is a host whatever its name ("http://host:8080/",
	 * a container's name for the host gateway; issue 42: blind42u
	 * c08) */
	snprintf(url, sizeof(url), "://%s:", a);
	return explain_is_ip(a) || strchr(a, '.') != NULL ||
	       strchr(a, '-') != NULL || strstr(line, url) != NULL;
}

/* Gives h the endpoint a (port p) that line lineno names. */
static void give(struct explain_hit *h, const char *a, const char *p,
		 long lineno)
{
	snprintf(h->near_addr, sizeof(h->near_addr), "%s", a);
	snprintf(h->near_port, sizeof(h->near_port), "%s", p);
	h->near_line = lineno;
}

/* The endpoint the nearest kept line names, newest first; its line
 * number, or 0 when none does. */
static long nearest_before(const struct explain_near *n, char *a,
			   size_t alen, char *p, size_t plen)
{
	for (size_t k = 0; k < n->n; k++) {
		size_t s = (n->at + EXPLAIN_NEAR_LINES - 1 - k) %
			   EXPLAIN_NEAR_LINES;

		if (strong(n->ring[s], a, alen, p, plen))
			return n->ring_line[s];
	}
	return 0;
}

void explain_near_line(struct explain_near *n, struct explain_log *lg,
		       size_t first, long lineno, const char *line)
{
	char a[64], p[8];
	long from = -1; /* the line before that names one, once looked */
	size_t len;

	if (n->pend_left > 0) {
		if (strong(line, a, sizeof(a), p, sizeof(p))) {
			for (size_t i = n->pend_from;
			     i < n->pend_to && i < lg->nhits; i++)
				if (wants_near(&lg->hits[i]))
					give(&lg->hits[i], a, p, lineno);
			n->pend_left = 0;
		} else {
			n->pend_left--;
		}
	}
	for (size_t i = first; i < lg->nhits; i++) {
		if (!wants_near(&lg->hits[i]))
			continue;
		if (from < 0)
			from = nearest_before(n, a, sizeof(a), p, sizeof(p));
		if (from > 0) {
			give(&lg->hits[i], a, p, from);
		} else {
			if (n->pend_left == 0)
				n->pend_from = i;
			n->pend_to = lg->nhits;
			n->pend_left = EXPLAIN_NEAR_LINES;
		}
	}
	len = strnlen(line, EXPLAIN_NEAR_TEXT - 1);
	memcpy(n->ring[n->at], line, len);
	n->ring[n->at][len] = '\0';
	n->ring_line[n->at] = lineno;
	n->at = (n->at + 1) % EXPLAIN_NEAR_LINES;
	if (n->n < EXPLAIN_NEAR_LINES)
		n->n++;
}
