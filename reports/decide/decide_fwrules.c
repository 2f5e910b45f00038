/* netprobe report, decide: the firewall entries' shape. One entry per
 * node; single ports a range already opens folded into it; ports sorted;
 * the nftables, ufw and firewalld commands written with the scan's own
 * formatter (decide/fwcmd.h), so every part of the project spells a
 * command the same way. */
#include <stdlib.h>
#include <string.h>

#include "decide/fwcmd.h"
#include "report_decide.h"

json_t *rd_fw_node(json_t *fw, const char *node)
{
	size_t i;
	json_t *e;

	json_array_foreach(fw, i, e)
		if (strcmp(rj_str(e, "node"), node) == 0)
			return e;
	e = json_pack("{s:s, s:[], s:[], s:{s:[], s:[], s:[]}}", "node", node,
		      "open", "cites", "commands", "nftables", "ufw",
		      "firewalld");
	json_array_append_new(fw, e);
	return e;
}

/* Port bounds of an entry: a number or "lo-hi". Returns 0, or -1. */
static int port_bounds(const json_t *p, long *lo, long *hi)
{
	char *end;

	if (json_is_integer(p)) {
		*lo = *hi = (long)json_integer_value(p);
		return 0;
	}
	if (!json_is_string(p))
		return -1;
	*lo = strtol(json_string_value(p), &end, 10);
	if (*end == '\0') {
		*hi = *lo;
		return 0;
	}
	if (*end != '-')
		return -1;
	*hi = strtol(end + 1, &end, 10);
	return *end == '\0' && *hi >= *lo ? 0 : -1;
}

/* Orders ports by first port, then protocol. */
static int cmp_port(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	long xl = 0, xh = 0, yl = 0, yh = 0;

	port_bounds(json_object_get(x, "port"), &xl, &xh);
	port_bounds(json_object_get(y, "port"), &yl, &yh);
	if (xl != yl)
		return xl < yl ? -1 : 1;
	if (xh != yh)
		return xh > yh ? -1 : 1;
	return strcmp(rj_str(x, "proto"), rj_str(y, "proto"));
}

/* True when a range entry of open other than the one at skip opens the
 * single port o (same protocol). */
static bool covered(const json_t *open, size_t skip, const json_t *o)
{
	long lo, hi, rl, rh;
	size_t k;
	json_t *r;

	if (port_bounds(json_object_get(o, "port"), &lo, &hi) < 0 || lo != hi)
		return false;
	json_array_foreach(open, k, r)
		if (k != skip &&
		    port_bounds(json_object_get(r, "port"), &rl, &rh) == 0 &&
		    rl != rh &&
		    strcmp(rj_str(r, "proto"), rj_str(o, "proto")) == 0 &&
		    lo >= rl && lo <= rh)
			return true;
	return false;
}

int rd_fw_fold(json_t *fw)
{
	size_t i, j;
	json_t *e;

	json_array_foreach(fw, i, e) {
		json_t *open = json_object_get(e, "open");

		for (j = 0; j < json_array_size(open);) {
			if (covered(open, j, json_array_get(open, j)))
				json_array_remove(open, j);
			else
				j++;
		}
		if (rj_sort(open, cmp_port) < 0)
			return -1;
	}
	return 0;
}

/* The source a port entry's why names ("inbound from 10.0.0.3 to port
 * 29500/tcp", "connect-back from 10.0.0.2 to ..."): the address the
 * drop was met from, so a rule limited to some sources is matched
 * against it; "" where none is named. */
static void src_of(const char *why, char *buf, size_t len)
{
	const char *p = strstr(why, "from ");
	size_t n;

	buf[0] = '\0';
	if (p == NULL)
		return;
	p += 5;
	n = strspn(p, "0123456789abcdefABCDEF.:");
	if (n > 0 && n < len && (p[n] == ' ' || p[n] == '\0'))
		snprintf(buf, len, "%.*s", (int)n, p);
}

/* The rule for one port entry; false when the port is neither a number
 * nor "lo-hi". */
static bool rule_of(const json_t *o, struct fw_rule *r)
{
	json_t *port = json_object_get(o, "port");

	memset(r, 0, sizeof(*r));
	if (json_is_integer(port))
		r->lo = r->hi = (unsigned)json_integer_value(port);
	else if (!json_is_string(port) ||
		 sscanf(json_string_value(port), "%u-%u", &r->lo, &r->hi) != 2)
		return false;
	snprintf(r->proto, sizeof(r->proto), "%s", rj_strd(o, "proto", "tcp"));
	src_of(rj_strd(o, "why", ""), r->src, sizeof(r->src));
	return true;
}

/* The scan's `firewall` object of node, or NULL where none was read. */
static const json_t *node_ruleset(const struct rctx *c, const char *node)
{
	const struct report_input *in = rd_node_scan(c, node);
	const json_t *fwj;

	if (in == NULL)
		return NULL;
	fwj = json_object_get(in->doc, "firewall");
	return json_is_object(fwj) && rj_str(fwj, "backend") != NULL ? fwj
								       : NULL;
}

/* Whether the node's firewall takes svc's ("ufw", "firewalld")
 * commands (fwcmd_service_takes); where the scan could not read the
 * service's state, a note in e's "notes" says why it cannot tell. */
static bool svc_takes(const json_t *fwj, const char *svc, json_t *e)
{
	char note[320];
	const char *why = NULL;

	if (!fwcmd_service_takes(fwj, svc, &why))
		return false;
	if (why == NULL)
		return true;
	snprintf(note, sizeof(note),
		 "cannot tell whether %s runs, because %s: its commands are "
		 "for where it does",
		 svc, why);
	if (json_object_get(e, "notes") == NULL)
		json_object_set_new(e, "notes", json_array());
	rj_add_unique(json_object_get(e, "notes"), note);
	return true;
}

void rd_fw_commands(const struct rctx *c, json_t *fw)
{
	static const struct {
		enum fw_dialect dl;
		const char *key;
	} dialects[] = {{FW_NFTABLES, "nftables"},
			{FW_UFW, "ufw"},
			{FW_FIREWALLD, "firewalld"}};
	size_t i, j;
	json_t *e, *o;

	json_array_foreach(fw, i, e) {
		json_t *cmds = json_object_get(e, "commands");
		const json_t *fwj = node_ruleset(c, rj_str(e, "node"));

		if (fwj != NULL) {
			/* the blocks this node's firewall really has */
			json_object_set_new(cmds, "nftables", json_array());
			if (strcmp(rj_str(fwj, "backend"), "iptables-legacy") ==
			    0) {
				json_object_del(cmds, "nftables");
				json_object_set_new(cmds, "iptables-legacy",
						    json_array());
			}
			if (!svc_takes(fwj, "ufw", e))
				json_object_del(cmds, "ufw");
			if (!svc_takes(fwj, "firewalld", e))
				json_object_del(cmds, "firewalld");
		} else {
			/* no ruleset of this node was read: an nftables
			 * command would guess the table and chain that drop
			 * (`inet filter input` fails where the drop lives in
			 * another table, and changes nothing beside one), so
			 * none; ufw and firewalld write their own rules */
			json_object_del(cmds, "nftables");
		}
		json_array_foreach(json_object_get(e, "open"), j, o) {
			struct fw_rule r;
			char cmd[256];

			if (!rule_of(o, &r))
				continue;
			/* the shared writer: the table and chain that drop */
			if (fwj != NULL && fwcmd_ruleset_cmds(fwj, &r, cmds) < 0)
				continue;
			for (size_t k = 0; k < 3; k++)
				if ((fwj == NULL || k > 0) &&
				    json_object_get(cmds, dialects[k].key) &&
				    fwcmd_format(dialects[k].dl, &r, cmd,
						 sizeof(cmd)) > 0)
					rj_add_unique(
						json_object_get(
							cmds, dialects[k].key),
						cmd);
		}
	}
}
