/* netprobe report, decide: root causes across nodes. One cause (a node's
 * MTU, a NAT layer, a firewall on one node, a hostname mapping) owns every
 * finding it explains, on whichever node the finding was seen, and carries
 * one fix on the node that needs it. The report leads with the causes; the
 * findings stay under them as symptoms. Decided after the recommendation,
 * whose firewall, change and MTU entries the causes take as their fixes.
 * This file owns the order of the deciders (rd_causes), the setting
 * causes, each finding's assignment to its cause, the causes' order, and
 * the probe errors a cause explains (rd_own_errors); the causes of one
 * node are decide_cause_node.c's, which cause owns a finding
 * decide_cause_owner.c's, and the causes' index decide_cause_index.c's. */
#include <stdio.h>
#include <string.h>

#include "decide_causes.h"
#include "decide_limits.h"
#include "doc/finding.h"
#include "report_decide.h"

/* Causes first by severity, then by node, then in this order. */
static const char *const kinds[] = {"nat",   "hostname", "firewall",
				    "route", "mtu",      "hop",
				    "setting", "path", "undecided", NULL};

/* A node setting whose fix is one command (a finding's `command`: a
 * strict rp_filter, a NIC set down) that no other cause explains: a
 * cause on that node, its commands one shell block, so the fix the
 * reader sees is the one the closed loop runs. */
static void setting_causes(const struct rctx *c, json_t *causes)
{
	size_t i, n;
	json_t *f, *k, *sh;
	char fix[1024];

	json_array_foreach(c->findings, i, f) {
		const char *cmd = rj_str(f, "command");
		const char *node = rj_str(f, "node");

		if (cmd == NULL || rj_sev(rj_str(f, "severity")) == 0)
			continue;
		k = cause_owner(c, causes, f);
		if (k != NULL && strcmp(rj_str(k, "kind"), "setting") != 0)
			continue;
		if (k == NULL) {
			char on[300];

			/* a command for another node ("command_on": a
			 * macvlan's parent host, decide_names.c) */
			snprintf(on, sizeof(on), "on %s",
				 rj_strd(f, "command_on", ""));
			cause_new(causes, "setting", node, rj_str(f, "summary"),
				  rj_str(f, "fix"),
				  json_pack("{s:[s]}",
					    rj_str(f, "command_on") != NULL
						    ? on
						    : "shell",
					    cmd));
			continue;
		}
		sh = json_object_get(json_object_get(json_object_get(k, "fix"),
						     "commands"),
				     "shell");
		n = json_array_size(sh);
		rj_add_unique(sh, cmd);
		if (json_array_size(sh) > n) {
			snprintf(fix, sizeof(fix), "%s; %s",
				 rj_str(json_object_get(k, "fix"), "text"),
				 rj_str(f, "fix"));
			json_object_set_new(json_object_get(k, "fix"), "text",
					    json_string(fix));
		}
	}
}

/* Orders causes: worst first, then by node, then by kind. */
static int cmp_cause(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	int d = rj_sev(rj_str(y, "severity")) - rj_sev(rj_str(x, "severity"));
	int kx = 0, ky = 0;

	if (d == 0)
		d = strcmp(rj_str(x, "node"), rj_str(y, "node"));
	for (int i = 0; kinds[i] != NULL; i++) {
		if (strcmp(kinds[i], rj_str(x, "kind")) == 0)
			kx = i;
		if (strcmp(kinds[i], rj_str(y, "kind")) == 0)
			ky = i;
	}
	return d != 0 ? d : kx - ky;
}

/* Gives each finding its cause: the cause lists it among its findings
 * (the symptoms, from every node) and takes its worst severity; the
 * finding's fix becomes the cause's (its own stays as fix_on_its_own). */
static void assign(const struct rctx *c, json_t *causes)
{
	char fix[1024];
	size_t i;
	json_t *f, *k;
	/* no cause comes or goes in here: each changes its findings and
	 * severity only */
	json_t *ix = causes_index(causes);

	json_array_foreach(c->findings, i, f) {
		if (rj_sev(rj_str(f, "severity")) == 0 ||
		    (k = cause_owner_ix(c, causes, f, ix)) == NULL)
			continue;
		json_object_set_new(f, "root_cause",
				    json_string(rj_str(k, "id")));
		/* the finding's own fix was decided on one node (an MTU
		 * black hole's says to lower this end); the cause's is the
		 * one that is right across nodes */
		snprintf(fix, sizeof(fix), "%s (root cause %s)",
			 rj_str(json_object_get(k, "fix"), "text"),
			 rj_str(k, "id"));
		if (rj_str(f, "fix") != NULL)
			json_object_set_new(f, "fix_on_its_own",
					    json_string(rj_str(f, "fix")));
		json_object_set_new(f, "fix", json_string(fix));
		json_array_append_new(
			json_object_get(k, "findings"),
			json_pack("{s:s, s:s, s:s, s:s}", "node",
				  rj_str(f, "node"), "code", rj_str(f, "code"),
				  "severity", rj_str(f, "severity"), "summary",
				  rj_str(f, "summary")));
		if (rj_sev(rj_str(f, "severity")) >
		    rj_sev(rj_str(k, "severity")))
			json_object_set_new(k, "severity",
					    json_string("fault"));
	}
	json_decref(ix);
}

/* A cause that neither a finding nor a fact of its own shows is not a
 * root cause of anything the report counts: it goes, and its fix stays
 * in the recommendation, untaken. One model: every cause the summary
 * counts rests on something the report shows. */
static void drop_empty(json_t *rec, json_t *causes)
{
	static const char *const keys[] = {"firewall", "mtu", "changes"};

	for (size_t i = 0; i < json_array_size(causes);) {
		json_t *k = json_array_get(causes, i), *e;
		const char *id = rj_str(k, "id");
		size_t j;

		if (json_array_size(rj_arr(k, "findings")) > 0 ||
		    json_array_size(rj_arr(k, "evidence")) > 0) {
			i++;
			continue;
		}
		for (size_t a = 0; a < 3; a++)
			json_array_foreach(rj_arr(rec, keys[a]), j, e)
				if (strcmp(rj_strd(e, "root_cause", ""), id) ==
				    0)
					json_object_del(e, "root_cause");
		json_array_remove(causes, i);
	}
}

json_t *rd_causes(const struct rctx *c, json_t *rec)
{
	json_t *causes = json_array(), *k;
	size_t i;

	if (causes == NULL)
		return NULL;
	causes_nat(c, rec, causes);
	causes_hostname(c, causes);
	rd_encap(c, rec);
	rd_missing(c, rec);
	causes_firewall(rec, causes);
	causes_mtu(rec, causes);
	rd_limit_causes(c, causes); /* before the pairs are blamed */
	rd_blame(c, causes, cause_owner);
	rd_missing_blame(c, causes);
	rd_elim(c, causes);
	setting_causes(c, causes);
	rd_died_blame(c, causes, cause_owner);
	assign(c, causes);
	drop_empty(rec, causes);
	json_array_foreach(causes, i, k)
		json_object_del(k, "from");
	if (rj_sort(causes, cmp_cause) < 0) {
		json_decref(causes);
		return NULL;
	}
	return causes;
}

/* The firewall cause that drops the overlay on a or b, or NULL. */
static json_t *encap_of(const json_t *ix, const json_t *causes, const char *a,
			const char *b)
{
	json_t *k;

	if ((k = cause_in(ix, causes, "firewall", a)) != NULL &&
	    json_is_true(json_object_get(k, "encap")))
		return k;
	if ((k = cause_in(ix, causes, "firewall", b)) != NULL &&
	    json_is_true(json_object_get(k, "encap")))
		return k;
	return NULL;
}

void rd_own_errors(const struct rctx *c, json_t *nodes, json_t *causes)
{
	char fact[640];
	size_t i, j;
	json_t *n, *e, *k;
	/* the causes are decided: each gains evidence here, no more */
	json_t *ix = causes_index(causes);

	json_array_foreach(nodes, i, n) {
		const char *self = rj_str(n, "name"), *msg;

		json_array_foreach(rj_arr(n, "errors"), j, e) {
			const char *to = rd_text_node(c, rj_strd(e, "message", ""),
						   self);

			/* a probe toward a node behind NAT, or across a
			 * pair a route or undecided cause owns */
			if (to != NULL && cause_in(ix, causes, "nat", to) == NULL &&
			    cause_pair_in(ix, causes, self, to) == NULL &&
			    rd_pair_lossy(c, self, to)) {
				/* a probe that failed across a link measured
				 * lossy: the loss (its warning), not a part
				 * that could not run (issue 31) */
				json_object_set_new(e, "explained_by",
				                    json_string(finding_name(
				                        FINDING_LINK_LOSSY)));
				continue;
			}
			if (to == NULL ||
			    ((k = cause_in(ix, causes, "nat", to)) == NULL &&
			     (k = cause_pair_in(ix, causes, self, to)) == NULL &&
			     (k = encap_of(ix, causes, self, to)) == NULL))
				continue;
			json_object_set_new(e, "root_cause",
					    json_string(rj_str(k, "id")));
			/* the message's own hint ("is netprobe serve
			 * running?") is the wrong lead here: cut at ';' */
			msg = rj_strd(e, "message", "");
			snprintf(fact, sizeof(fact), "%s could not run a probe "
				 "toward %s: %.*s", self, to,
				 (int)strcspn(msg, ";"), msg);
			json_array_append_new(
				json_object_get(k, "evidence"),
				json_pack("{s:s, s:s, s:s}", "node", self,
					  "fact", fact, "source",
					  rj_strd(e, "step", "")));
		}
	}
	json_decref(ix);
}
