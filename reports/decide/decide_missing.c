/* netprobe report, decide: a member of the mesh that did not join node 0
 * (issue 31). Node 0 has its own evidence of why one that runs cannot
 * reach it: a rule of its own ruleset that drops that member's source to
 * the mesh's port, or its overlay's UDP port from every source. That rule
 * is a firewall cause on node 0 with the accept that opens it; where node
 * 0's ruleset has none, the pair is undecided (the member runs, or it is
 * silent: down, or a path or its own route that drops both ways), with
 * the commands (and the nodes) that decide. A member whose address
 * refused node 0 (nothing listens) is undecided too, on its own side: not
 * started, or a rule there that rejects or redirects the port (a sidecar's
 * redirect with no proxy behind it, blind48c 05) refuse alike, and node
 * 0's healthy ruleset is never the fault; where the member's own document
 * was merged and its scan found such a redirect (nat-redirect-unheld),
 * that is its cause and the pair is not undecided. */
#include <stdio.h>
#include <string.h>

#include "report_decide.h"

/* True when member m did not join and its address did not refuse node
 * 0 (nothing listening: not started), probed or not (node 0 probes a
 * few). */
static bool missing_unrefused(const json_t *m)
{
	return strcmp(rj_strd(m, "state", ""), "missing") == 0 &&
	       strstr(rj_strd(m, "why", ""), "nothing listens at") == NULL;
}

/* True when member m did not join and node 0 probed it at an address
 * that did not refuse (its responder answered, or nothing answered). */
static bool missing_running(const json_t *m)
{
	return missing_unrefused(m) && rj_str(m, "probed_addr") != NULL;
}

/* The setting cause of member who whose own scan found a fault of its
 * own kernel that cuts it off (its document merged, issue 48): a nat
 * rule that sends the mesh's and the job's TCP to a port nothing holds,
 * an IPsec policy with no SA behind it, a NOARP LAN interface, or its
 * bridge's port stuck short of forwarding;
 * *own set when it found one,
 * whether or not its cause is made yet. */
static json_t *own_redirect(const struct rctx *c, const json_t *causes,
			    const char *who, bool *own)
{
	static const enum finding_code codes[] = {
		FINDING_NAT_REDIRECT_UNHELD, FINDING_XFRM_POLICY_NO_STATE,
		FINDING_NIC_NOARP, FINDING_BRIDGE_PORT_STUCK,
		FINDING_VXLAN_VNI_MISMATCH, FINDING_VXLAN_PORT_MISMATCH};
	size_t i;
	json_t *f, *k;

	*own = false;
	for (size_t n = 0; n < sizeof(codes) / sizeof(codes[0]); n++)
		json_array_foreach(rx_code_findings(c, codes[n]), i, f)
			if (finding_is(rj_strd(f, "code", ""), codes[n]) &&
			    strcmp(rj_strd(f, "node", ""), who) == 0 &&
			    strcmp(rj_strd(f, "severity", ""), "fault") == 0)
				*own = true;
	if (!*own)
		return NULL;
	json_array_foreach(causes, i, k)
		if (strcmp(rj_strd(k, "kind", ""), "setting") == 0 &&
		    strcmp(rj_strd(k, "node", ""), who) == 0)
			return k;
	return NULL;
}

/* True when block b (a drop or reject rule) covers TCP port to source
 * addr. */
static bool tcp_hit(const json_t *b, long port, const char *addr)
{
	const json_t *src = json_object_get(b, "saddr"), *p, *v;
	bool hit = false;
	size_t i;

	if (strcmp(rj_strd(b, "kind", ""), "rule") != 0 ||
	    strcmp(rj_strd(b, "verdict", "accept"), "accept") == 0 ||
	    strcmp(rj_strd(b, "proto", ""), "tcp") != 0)
		return false;
	json_array_foreach(rj_arr(b, "ports"), i, p) {
		long lo = 0, hi = 0;
		const char *ps = json_string_value(p);

		if (ps != NULL && sscanf(ps, "%ld-%ld", &lo, &hi) < 2)
			hi = lo;
		hit |= ps != NULL && port >= lo && port <= hi;
	}
	if (!hit || json_array_size(src) == 0)
		return hit;
	json_array_foreach(src, i, v)
		if (json_is_string(v) && rd_in_src(addr, json_string_value(v)))
			return true;
	return false;
}

/* The node name of the mesh's node 0 and its scan, or NULL. */
static const json_t *node0(const struct rctx *c, const json_t *d,
			   const char **name)
{
	const struct report_input *in;

	*name = rn_resolve(c, rj_strd(d, "host", ""), NULL);
	if (*name == NULL || (in = rd_node_scan(c, *name)) == NULL)
		return NULL;
	return in->doc;
}

/* See report_decide.h. */
void rd_missing(const struct rctx *c, json_t *rec)
{
	const json_t *d = rd_mesh_doc(c), *s, *m, *b;
	json_t *fw = rj_arr(rec, "firewall"), *one, *e;
	const char *x;
	bool encap = false; /* the overlay's port opened once for all */
	long port = rj_int(json_object_get(d, "mesh"), "port", 0);
	char why[600], ifc[64];
	size_t i, j;

	if (d == NULL || fw == NULL || (s = node0(c, d, &x)) == NULL ||
	    (one = json_array()) == NULL)
		return;
	json_array_foreach(rj_arr(json_object_get(d, "mesh"), "members"), i,
			   m) {
		const char *who = rj_strd(m, "name", "?");
		const char *a = rj_strd(m, "probed_addr", "");
		long up = 0;

		if (!missing_unrefused(m))
			continue;
		json_array_foreach(rj_arr(json_object_get(s, "firewall"),
					  "blocks"),
				   j, b) {
			char rule[200];

			/* the rule as the why names it */
			snprintf(rule, sizeof(rule), "%s %s %s",
				 rj_strd(b, "family", ""),
				 rj_strd(b, "table", ""),
				 rj_strd(b, "chain", ""));
			if (a[0] != '\0' && tcp_hit(b, port, a)) {
				snprintf(why, sizeof(why),
					 "inbound from %s to port %ld/tcp: "
					 "%s's joins to node 0 (the mesh's "
					 "port) never reach it: %s's ruleset "
					 "drops them (%s)",
					 a, port, who, x, rule);
				up = port;
			} else if (json_array_size(json_object_get(
					   b, "saddr")) == 0 &&
				   rd_encap_hit(s, b, &up, ifc, sizeof(ifc))) {
				if (encap)
					break;
				encap = true;
				snprintf(why, sizeof(why),
					 "overlay packets (%s, UDP %ld) carry "
					 "the members' joins to node 0 (%s's "
					 "first): %s's ruleset drops them "
					 "whatever their source (%s)",
					 ifc, up, who, x, rule);
			} else
				continue;
			e = rd_fw_node(fw, x);
			if (up != port)
				json_object_set_new(e, "encap", json_true());
			json_array_append_new(
				json_object_get(e, "open"),
				json_pack("{s:I, s:s, s:s}", "port",
					  (json_int_t)up, "proto",
					  up == port ? "tcp" : "udp", "why",
					  why));
			json_array_append(one, e);
			break;
		}
	}
	rd_fw_commands(c, one);
	json_decref(one);
}

/* The pair label of a and b, in name order (decide_blame.c's). */
static void label_of(const char *a, const char *b, char *buf, size_t len)
{
	if (strcmp(a, b) > 0)
		snprintf(buf, len, "%s<->%s", b, a);
	else
		snprintf(buf, len, "%s<->%s", a, b);
}

/* The member in state ("missing", "joined") whose name a mesh-node-*
 * finding's summary starts with, or NULL. */
static const json_t *member_in(const json_t *d, const json_t *f,
			       const char *state)
{
	const char *sum = rj_strd(f, "summary", "");
	const json_t *m;
	size_t i;

	json_array_foreach(rj_arr(json_object_get(d, "mesh"), "members"), i,
			   m) {
		const char *n = rj_strd(m, "name", "");
		size_t l = strlen(n);

		if (l > 0 && strncmp(sum, n, l) == 0 && sum[l] == ' ' &&
		    strcmp(rj_strd(m, "state", ""), state) == 0)
			return m;
	}
	return NULL;
}

/* The missing member a mesh-node-missing finding names, or NULL. */
static const json_t *member_of(const json_t *d, const json_t *f)
{
	return member_in(d, f, "missing");
}

/* See report_decide.h. */
json_t *rd_missing_owner(const struct rctx *c, const json_t *causes,
			 const json_t *f)
{
	const json_t *d = rd_mesh_doc(c), *m, *ev;
	const char *x = rj_strd(f, "node", "");
	char key[300];
	size_t i, j;
	json_t *k;
	bool own;

	if (d == NULL || (m = member_of(d, f)) == NULL)
		return NULL;
	/* a member whose address another machine holds, or that holds
	 * another's (a clone turned away as a duplicate): that cause's */
	if ((ev = rd_conflict_of(c, rj_strd(m, "name", ""))) != NULL)
		json_array_foreach(causes, i, k)
			if (strcmp(rj_strd(k, "kind", ""), "setting") == 0 &&
			    strcmp(rj_strd(k, "node", ""),
				   rj_strd(ev, "node", "")) == 0)
				return k;
	/* its own redirect of the mesh's port, from its own document */
	if ((k = own_redirect(c, causes, rj_strd(m, "name", ""), &own)) !=
	    NULL)
		return k;
	/* node 0's own route toward it (its routing table cuts node 0
	 * off from the member: decide_rtdrop.c), or the member's */
	{
		const json_t *g = rd_names_cut(c, x, rj_strd(m, "name", ""));

		json_array_foreach(causes, i, k)
			if (g != NULL &&
			    strcmp(rj_strd(k, "kind", ""), "setting") == 0 &&
			    strcmp(rj_strd(k, "node", ""),
				   rj_strd(g, "node", "")) == 0)
				return k;
	}
	snprintf(key, sizeof(key), "%s's joins to node 0",
		 rj_strd(m, "name", ""));
	json_array_foreach(causes, i, k) {
		if (strcmp(rj_strd(k, "kind", ""), "firewall") != 0 ||
		    strcmp(rj_strd(k, "node", ""), x) != 0)
			continue;
		json_array_foreach(rj_arr(k, "evidence"), j, ev)
			if (strstr(rj_strd(ev, "fact", ""), key) != NULL ||
			    (missing_unrefused(m) &&
			     strstr(rj_strd(ev, "fact", ""),
				    "the members' joins to node 0") != NULL))
				return k;
	}
	return rd_pair_cause(causes, x, rj_strd(m, "name", ""));
}

/* See report_decide.h. */
json_t *rd_missing_alone(const struct rctx *c, const json_t *causes,
			 const char *node)
{
	const json_t *d = rd_mesh_doc(c), *f;
	json_t *k = NULL;
	size_t i;

	if (d == NULL || rj_int(json_object_get(d, "mesh"), "joined", 0) > 1)
		return NULL;
	json_array_foreach(c->findings, i, f) {
		json_t *o;

		if (!finding_is(rj_strd(f, "code", ""), FINDING_MESH_NODE_MISSING) ||
		    strcmp(rj_strd(f, "node", ""), node) != 0)
			continue;
		o = rd_missing_owner(c, causes, f);
		if (o == NULL || strcmp(rj_strd(o, "kind", ""), "firewall") != 0 ||
		    (k != NULL && o != k))
			return NULL;
		k = o;
	}
	return k;
}

/* See report_decide.h. */
/* The member's own document, where it left one that was merged (mesh
 * --out on a member that could not join, issue 48): why it could not
 * join, in its words (its route toward node 0 among them), joins cause
 * k's evidence and summary, so "did not join" is not the whole story. */
static void own_words(const struct rctx *c, const char *who, json_t *k)
{
	const struct report_input *in = rd_node_scan(c, who);
	const json_t *e;
	char sum[1400];
	size_t i;

	if (in == NULL)
		return;
	json_array_foreach(rj_arr(in->doc, "errors"), i, e) {
		const char *msg = rj_str(e, "message");

		if (msg == NULL || strcmp(rj_strd(e, "step", ""), "mesh") != 0)
			continue;
		json_array_append_new(
			json_object_get(k, "evidence"),
			json_pack("{s:s, s:s, s:s}", "node", who, "fact", msg,
				  "source", "its own document"));
		snprintf(sum, sizeof(sum), "%s; %s's own document says: %s",
			 rj_strd(k, "summary", ""), who, msg);
		json_object_set_new(k, "summary", json_string(sum));
		return;
	}
}

/* The undecided cause of member who, whose address a refused node 0's
 * probe of the mesh's port: its host answered, but a refusal cannot tell
 * a mesh that was never started from a rule there that rejects or
 * redirects the port; what decides is on who. */
static json_t *refused(const json_t *d, const char *who, const char *a,
		       const char *label, const char *id)
{
	long long port = rj_int(json_object_get(d, "mesh"), "port", 0);
	char sum[700], fix[1400];

	snprintf(sum, sizeof(sum),
		 "%s did not join node 0 and refuses node 0's connections at "
		 "%s:%lld: netprobe mesh is not running there, or a rule "
		 "there rejects or redirects the port",
		 who, a, port);
	snprintf(fix, sizeof(fix),
		 "cannot tell why %s did not join: its address refused node "
		 "0 at %s:%lld, which a mesh never started and a rule there "
		 "that rejects or redirects the port (a sidecar's redirect "
		 "with no proxy behind it) show alike. Decide on %s: is "
		 "netprobe mesh running there (the launcher's log, "
		 "pgrep -a netprobe), ss -ltnp, and nft -a list ruleset (a "
		 "reject, or a redirect or dnat of TCP in its nat table); "
		 "then start it there, or remove the rule",
		 who, a, port, who);
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:{}}, "
			 "s:[], s:[]}",
			 "id", id, "kind", "undecided", "node", label,
			 "severity", "fault", "summary", sum, "fix", "node", who,
			 "text", fix, "commands", "evidence", "findings");
}

void rd_missing_blame(const struct rctx *c, json_t *causes)
{
	const json_t *d = rd_mesh_doc(c), *f, *s;
	const char *x, *xa;
	char label[300], id[320], sum[700], fix[1400], ovl[700], all[2100];
	size_t i;
	json_t *k;
	bool own;

	if (d == NULL || (s = node0(c, d, &x)) == NULL)
		return;
	/* node 0's address, as its scan chose it (its name where none) */
	xa = rj_strd(json_object_get(s, "recommendation"), "address", x);
	json_array_foreach(c->findings, i, f) {
		const json_t *m;
		const char *who, *a;
		bool runs;

		if (!finding_is(rj_strd(f, "code", ""), FINDING_MESH_NODE_MISSING) ||
		    (m = member_of(d, f)) == NULL ||
		    rj_str(m, "probed_addr") == NULL ||
		    rd_missing_owner(c, causes, f) != NULL ||
		    rd_conflict_of(c, rj_strd(m, "name", "")) != NULL ||
		    rd_names_cut(c, x, rj_strd(m, "name", "")) != NULL)
			continue; /* (a name or route that cuts them off: its
				   * setting cause, made later, owns it) */
		runs = strstr(rj_strd(m, "why", ""), "it runs") != NULL;
		who = rj_strd(m, "name", "?");
		/* its own scan found its redirect: that cause is the pair's,
		 * made from its finding, not an undecided one */
		(void)own_redirect(c, causes, who, &own);
		if (own)
			continue;
		a = rj_strd(m, "probed_addr", "?");
		label_of(x, who, label, sizeof(label));
		snprintf(id, sizeof(id), "undecided:%s", label);
		if (!missing_running(m)) {
			k = refused(d, who, a, label, id);
			if (k != NULL) {
				own_words(c, who, k);
				json_array_append_new(causes, k);
			}
			continue;
		}
		/* silence: down, not started, or a path that drops both
		 * ways (the member's own route toward node 0 among them) */
		snprintf(sum, sizeof(sum),
			 "%s %s and did not join node 0, and no rule of %s's "
			 "ruleset drops its joins",
			 who,
			 runs ? "runs (its responder answers node 0)"
			      : "does not answer node 0 either",
			 x);
		snprintf(fix, sizeof(fix),
			 "cannot tell why %s cannot reach node 0 (%s)%s: %s's "
			 "ruleset drops nothing from %s to the mesh's port "
			 "%lld, and %s's own evidence never reached node 0. "
			 "Decide on %s: ip route get %s and nft -a list "
			 "ruleset, and sysctl net.ipv4.ip_local_port_range "
			 "(a netprobe mesh there that cannot join prints its "
			 "route toward node 0, or that it has no source port "
			 "left, and the faults its own scan finds, each with "
			 "its fix); on %s: tcpdump -ni "
			 "any host %s; then a firewall or security group on "
			 "the way is what is left",
			 who, x,
			 runs ? "" : ", nor whether it runs (it is down, not "
				     "started, or the path drops both ways)",
			 x, a,
			 (long long)rj_int(json_object_get(d, "mesh"), "port",
					   0),
			 who, who, xa, x, a);
		/* its address on node 0's VXLAN overlay: the device's
		 * settings decide (issue 48) */
		rd_vxlan_hint(s, x, who, a, ovl, sizeof(ovl));
		snprintf(all, sizeof(all), "%s%s", fix, ovl);
		k = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:{}}, "
			      "s:[], s:[]}",
			      "id", id, "kind", "undecided", "node", label,
			      "severity", "fault", "summary", sum, "fix", "node",
			      who, "text", all, "commands", "evidence",
			      "findings");
		if (k != NULL) {
			own_words(c, who, k);
			json_array_append_new(causes, k);
		}
	}
}

/* The member a mesh-node-died finding names (joined, then no results),
 * or NULL. */
static const json_t *died_member(const json_t *d, const json_t *f)
{
	return member_in(d, f, "joined");
}

/* See report_decide.h. */
json_t *rd_died_owner(const struct rctx *c, const json_t *causes,
		      const json_t *f)
{
	const json_t *d = rd_mesh_doc(c), *m;

	if (d == NULL || (m = died_member(d, f)) == NULL)
		return NULL;
	return rd_pair_cause(causes, rj_strd(f, "node", ""),
			     rj_strd(m, "name", ""));
}

/* See report_decide.h. */
void rd_died_blame(const struct rctx *c, json_t *causes,
		   json_t *(*owner)(const struct rctx *, const json_t *,
				    const json_t *))
{
	const json_t *d = rd_mesh_doc(c), *f;
	char label[300], id[320], sum[700], fix[1200];
	size_t i;
	json_t *k;

	if (d == NULL)
		return;
	json_array_foreach(c->findings, i, f) {
		const json_t *m;
		const char *who, *x = rj_strd(f, "node", "");

		if (!finding_is(rj_strd(f, "code", ""), FINDING_MESH_NODE_DIED) ||
		    (m = died_member(d, f)) == NULL || owner(c, causes, f) != NULL)
			continue;
		who = rj_strd(m, "name", "?");
		label_of(x, who, label, sizeof(label));
		snprintf(id, sizeof(id), "undecided:%s", label);
		snprintf(sum, sizeof(sum),
			 "%s joined node 0, then stopped before its results: "
			 "nothing on %s says why",
			 who, x);
		snprintf(fix, sizeof(fix),
			 "cannot tell why %s stopped after it joined: its "
			 "process was killed or crashed, or its connection to "
			 "node 0 was lost (another machine answering for its "
			 "address or MAC takes it). Decide on %s: the exit "
			 "status and stderr of its netprobe mesh, journalctl "
			 "-k or dmesg (the OOM killer), ip neigh show and ip "
			 "-br link (a MAC or address another host holds too); "
			 "on %s: tcpdump -ni any host %s",
			 who, who, x,
			 rj_strd(m, "observed_addr", rj_strd(m, "target", who)));
		k = json_pack("{s:s, s:s, s:s, s:s, s:s, s:{s:s, s:s, s:{}}, "
			      "s:[], s:[]}",
			      "id", id, "kind", "undecided", "node", label,
			      "severity", "fault", "summary", sum, "fix", "node",
			      who, "text", fix, "commands", "evidence",
			      "findings");
		if (k != NULL) {
			own_words(c, who, k);
			json_array_append_new(causes, k);
		}
	}
}
