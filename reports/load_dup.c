/* netprobe report: two snapshots of one node (two scans of gpu-a) would
 * be merged into one node whose interfaces and MTU come from either, so
 * they are named and refused unless --allow-duplicates says which wins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* Commands whose document describes the node itself; a node has one.
 * Ports and heartbeat documents are per peer and may be many. */
static bool is_snapshot(const char *cmd)
{
	static const char *const snap[] = {"scan", "ifaces", "layers"};

	for (size_t i = 0; cmd && i < sizeof(snap) / sizeof(snap[0]); i++)
		if (strcmp(cmd, snap[i]) == 0)
			return true;
	return false;
}

/* True when a and b are snapshots of one node by one command. */
static bool same_snapshot(const json_t *a, const json_t *b)
{
	const char *ca = rj_str(a, "command"), *cb = rj_str(b, "command");

	return is_snapshot(ca) && cb != NULL && strcmp(ca, cb) == 0 &&
	       strcmp(rj_strd(a, "tool", ""), rj_strd(b, "tool", "")) == 0 &&
	       strcmp(rj_strd(a, "host", ""), rj_strd(b, "host", "")) == 0;
}

int report_dup_parse(const char *s, enum report_dup *out)
{
	if (strcmp(s, "first") == 0)
		*out = REPORT_DUP_FIRST;
	else if (strcmp(s, "last") == 0)
		*out = REPORT_DUP_LAST;
	else if (strcmp(s, "newest") == 0)
		*out = REPORT_DUP_NEWEST;
	else
		return -1;
	return 0;
}

/* Whether b wins over a (a was given first) under the policy. */
static bool later_wins(const json_t *a, const json_t *b, enum report_dup p)
{
	if (p == REPORT_DUP_LAST)
		return true;
	if (p == REPORT_DUP_NEWEST) /* RFC 3339 UTC sorts as text */
		return strcmp(rj_strd(b, "started", ""),
			      rj_strd(a, "started", "")) > 0;
	return false;
}

/* Drops input i, keeping the order of the others. */
static void drop(struct report_set *s, size_t i)
{
	free(s->in[i].path);
	json_decref(s->in[i].doc);
	memmove(&s->in[i], &s->in[i + 1], (s->nin - i - 1) * sizeof(*s->in));
	s->nin--;
}

int report_dedupe(struct report_set *s, enum report_dup policy, FILE *note,
		  char *why, size_t whylen)
{
	for (size_t i = 0; i < s->nin; i++) {
		for (size_t j = i + 1; j < s->nin; j++) {
			json_t *a = s->in[i].doc, *b = s->in[j].doc;

			if (!same_snapshot(a, b))
				continue;
			if (policy == REPORT_DUP_REFUSE) {
				snprintf(why, whylen,
					 "'%s' and '%s' are both the %s of "
					 "node '%s': keep one, or say which "
					 "wins with --allow-duplicates=first, "
					 "last or newest",
					 s->in[i].path, s->in[j].path,
					 rj_str(a, "command"),
					 rj_strd(a, "host", ""));
				return -1;
			}
			if (later_wins(a, b, policy)) {
				struct report_input t = s->in[i];

				s->in[i] = s->in[j];
				s->in[j] = t;
			}
			if (note != NULL)
				fprintf(note,
					"netprobe report: '%s' and '%s' are "
					"both the %s of node '%s': using '%s' "
					"(--allow-duplicates)\n",
					s->in[i].path, s->in[j].path,
					rj_strd(s->in[i].doc, "command", ""),
					rj_strd(s->in[i].doc, "host", ""),
					s->in[i].path);
			drop(s, j);
			j--;
		}
	}
	return 0;
}
