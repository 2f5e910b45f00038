/* netprobe report, decide: MTUs to set. From path measurements (the
 * largest packet that crossed below the interface MTU, or a peer whose
 * interface MTU is smaller), and the MTU findings no measurement explains,
 * each with the exact `ip link set ... mtu N`. */
#include <string.h>

#include "report_decide.h"

/* The MTU one path document says its interface should have, with why;
 * -1 when the path is fine or was not measured. */
static long long wanted_mtu(const json_t *d, const char *target, char *why,
			    size_t len)
{
	json_t *pm = json_object_get(d, "pmtu");
	const char *ifc = rj_str(json_object_get(d, "route"), "out_interface");
	const char *peer_name = target ? target : "the peer";
	long long ok = rj_int(pm, "largest_ok", -1);
	long long mine = rj_int(pm, "interface_mtu", -1);
	long long peer = rj_int(pm, "peer_interface_mtu", -1);
	size_t l;

	if (peer > 0 && mine > 0 && peer < mine) {
		/* the peer's MTU is the real limit; the largest probe that
		 * crossed can exceed it by a few bytes */
		snprintf(why, len,
			 "%s has MTU %lld but %s's interface has %lld", ifc,
			 mine, peer_name, peer);
		if (ok > 0 && ok < mine) {
			l = strlen(why);
			snprintf(why + l, len - l,
				 "; packets above %lld bytes vanish", ok);
		}
		l = strlen(why);
		snprintf(why + l, len - l,
			 "; or raise %s's interface to MTU %lld if the rest of "
			 "the network runs that",
			 peer_name, mine);
		return peer;
	}
	if (ok > 0 && mine > 0 && ok < mine) {
		snprintf(why, len,
			 "packets above %lld bytes toward %s vanish; %s has "
			 "MTU %lld",
			 ok, peer_name, ifc, mine);
		return ok;
	}
	return -1;
}

/* The MTU entries the path documents call for. */
static void from_paths(const struct rctx *c, json_t *out)
{
	for (size_t k = 0; k < c->set->nin; k++) {
		const json_t *d = c->set->in[k].doc;
		const char *host = rj_str(d, "host");
		const char *ifc =
			rj_str(json_object_get(d, "route"), "out_interface");
		char tbuf[256], why[512], cmd[128];
		const char *target = rn_target(c, d, tbuf, sizeof(tbuf));
		long long want;
		json_t *cites;

		if (!json_is_object(json_object_get(d, "pmtu")) || ifc == NULL)
			continue;
		if ((want = wanted_mtu(d, target, why, sizeof(why))) < 0)
			continue;
		cites = json_pack("[o]", rd_cite(host, "path.pmtu"));
		rd_cite_findings(c, cites, host, "mtu", 1);
		snprintf(cmd, sizeof(cmd), "ip link set dev %s mtu %lld", ifc,
			 want);
		json_array_append_new(
			out, json_pack("{s:s, s:s, s:I, s:s, s:s, s:o}", "node",
				       host, "interface", ifc, "mtu",
				       (json_int_t)want, "why", why, "command",
				       cmd, "cites", cites));
	}
}

json_t *rd_mtu(const struct rctx *c)
{
	static const char *const codes[] = {"mtu-blackhole", "mtu-mismatch",
					    NULL};
	json_t *out = json_array(), *f, *e;
	size_t i, j;

	from_paths(c, out);
	json_array_foreach(c->findings, i, f) {
		const char *node = rj_str(f, "node"), *code = rj_str(f, "code");
		bool have = false, want = false;

		for (const char *const *q = codes; *q; q++)
			want |= strcmp(*q, code) == 0;
		if (!want)
			continue;
		json_array_foreach(out, j, e)
			if (strcmp(rj_str(e, "node"), node) == 0) {
				rd_cite_add(json_object_get(e, "cites"), node,
					    code);
				have = true;
			}
		if (!have)
			json_array_append_new(
				out,
				json_pack("{s:s, s:n, s:n, s:s, s:s, s:[o]}",
					  "node", node, "interface", "mtu",
					  "why", rj_str(f, "summary"),
					  "command", rj_str(f, "fix"), "cites",
					  rd_cite(node, code)));
	}
	return out;
}
