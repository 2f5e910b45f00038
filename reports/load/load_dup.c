/* netprobe report: two snapshots of one node (two scans of gpu-a) would
 * be merged into one node whose interfaces and MTU come from either, so
 * they are named and refused unless --allow-duplicates says which wins. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/cmdrun.h"
#include "doc/finding.h"
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

/* The first global IPv4 address of doc d's interfaces into buf; false
 * when it lists none. */
static bool first_addr(const json_t *d, char *buf, size_t len)
{
	size_t i, j;
	json_t *f, *a;

	json_array_foreach(json_object_get(d, "interfaces"), i, f)
		json_array_foreach(json_object_get(f, "addresses"), j, a)
			if (strcmp(rj_strd(a, "family", ""), "inet") == 0 &&
			    strcmp(rj_strd(a, "scope", "global"), "global") ==
				    0 &&
			    strncmp(rj_strd(a, "address", "127."), "127.", 4) !=
				    0) {
				snprintf(buf, len, "%s", rj_str(a, "address"));
				return true;
			}
	return false;
}

/* True when doc d holds global IPv4 address addr. */
static bool has_addr(const json_t *d, const char *addr)
{
	size_t i, j;
	json_t *f, *a;

	json_array_foreach(json_object_get(d, "interfaces"), i, f)
		json_array_foreach(json_object_get(f, "addresses"), j, a)
			if (strcmp(rj_strd(a, "address", ""), addr) == 0)
				return true;
	return false;
}

/* Two snapshots that share a hostname but not an address, or whose
 * machine ids differ, are two nodes (cloned images, issue 31): a node is
 * more than its hostname. The later
 * is named HOST@ADDRESS, and both get a hostname-shared warning. Returns
 * true when so. */
static bool two_nodes(json_t *a, json_t *b)
{
	char aa[64], ab[64], name[320], sum[600];
	const char *host = rj_strd(a, "host", "");

	const char *ma = rj_str(json_object_get(a, "identity"), "machine_id");
	const char *mb = rj_str(json_object_get(b, "identity"), "machine_id");

	if (!first_addr(a, aa, sizeof(aa)) || !first_addr(b, ab, sizeof(ab)))
		return false;
	/* two machine ids are two machines; one (a clone's, or a
	 * container's host's) says nothing: the addresses decide */
	if ((ma == NULL || mb == NULL || strcmp(ma, mb) == 0) &&
	    (has_addr(b, aa) || has_addr(a, ab)))
		return false;
	snprintf(sum, sizeof(sum),
		 "two nodes call themselves '%s' (%s and %s): launchers, host "
		 "files and logs that key nodes by hostname mistake one for the "
		 "other; the report names the second %s@%s",
		 host, aa, ab, host, ab);
	for (int k = 0; k < 2; k++) {
		json_t *d = k == 0 ? a : b, *fs = json_object_get(d, "findings");

		if (!json_is_array(fs))
			continue;
		json_array_append_new(
		    fs,
		    json_pack("{s:s, s:s, s:s, s:s, s:[{s:s, s:s}]}", "code",
		              finding_name(FINDING_HOSTNAME_SHARED), "severity",
		              severity_name(SEV_WARNING), "summary", sum, "fix",
		              "give each node a hostname of its own "
		              "(hostnamectl set-hostname NAME), then its "
		              "entry in the host files",
		              "evidence", "fact", sum, "source", "interfaces"));
	}
	snprintf(name, sizeof(name), "%s@%s", host, ab);
	json_object_set_new(b, "host", json_string(name));
	return true;
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

/* True when no two of s's snapshots share command, tool and host, so no
 * pair can be same_snapshot: one pass over the inputs where the pairs
 * were half a million at 1,024 members. -1 when out of memory. */
static int all_distinct(const struct report_set *s)
{
	json_t *seen = json_object();
	char key[1024];
	int r = 1;

	if (seen == NULL)
		return -1;
	for (size_t i = 0; i < s->nin && r == 1; i++) {
		const json_t *d = s->in[i].doc;
		const char *cmd = rj_str(d, "command");

		if (!is_snapshot(cmd))
			continue;
		snprintf(key, sizeof(key), "%s\t%s\t%s", cmd,
			 rj_strd(d, "tool", ""), rj_strd(d, "host", ""));
		if (json_object_get(seen, key) != NULL)
			r = 0;
		else if (json_object_set_new(seen, key, json_true()) < 0)
			r = -1;
	}
	json_decref(seen);
	return r;
}

int report_dedupe(struct report_set *s, enum report_dup policy,
		  struct cmd_run *note, char *why, size_t whylen)
{
	int d = all_distinct(s);

	if (d < 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (d == 1)
		return 0;
	for (size_t i = 0; i < s->nin; i++) {
		for (size_t j = i + 1; j < s->nin; j++) {
			json_t *a = s->in[i].doc, *b = s->in[j].doc;

			if (!same_snapshot(a, b) || two_nodes(a, b))
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
				cmd_note(note,
					 "'%s' and '%s' are both the %s of "
					 "node '%s': using '%s' "
					 "(--allow-duplicates)",
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
