/* The firewall plan: which ports to open, merged, and the commands for
 * nftables, ufw and firewalld. Pure functions, no I/O. */
#include "decide/fwcmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/portrange.h"

/* True for the two protocols a host firewall rule names here. */
static bool proto_ok(const char *proto)
{
	return proto != NULL &&
	       (strcmp(proto, "tcp") == 0 || strcmp(proto, "udp") == 0);
}

/* A port that connected: a service's ("open") or the responder's
 * ("reachable"). */
static bool result_connected(const struct fw_result *r)
{
	return r->state != NULL && (strcmp(r->state, "open") == 0 ||
				    strcmp(r->state, "reachable") == 0);
}

/* A result that needs a port opened: it was tested and did not connect. */
static bool result_failed(const struct fw_result *r)
{
	return r->state != NULL && !result_connected(r) &&
	       strcmp(r->state, "unknown") != 0;
}

int fwcmd_add(struct fw_plan *p, unsigned lo, unsigned hi, const char *proto,
              const char *node, const char *why)
{
	struct fw_rule *r;

	if (node == NULL)
		node = "";
	if (lo == 0 || hi < lo || hi > 65535 || !proto_ok(proto)) {
		errno = EINVAL;
		return -1;
	}
	for (size_t i = 0; i < p->n; i++) {
		r = &p->v[i];
		if (strcmp(r->proto, proto) == 0 &&
		    strcmp(r->node, node) == 0 && r->lo <= lo && hi <= r->hi)
			return 0;
	}
	if (p->n >= FW_MAX_RULES) {
		errno = ENOSPC;
		return -1;
	}
	r = &p->v[p->n++];
	memset(r, 0, sizeof(*r));
	r->lo = lo;
	r->hi = hi;
	snprintf(r->proto, sizeof(r->proto), "%s", proto);
	snprintf(r->node, sizeof(r->node), "%s", node);
	snprintf(r->why, sizeof(r->why), "%s", why != NULL ? why : "");
	return 0;
}

int fwcmd_plan_results(struct fw_plan *p, const struct fw_result *r, size_t n,
                       unsigned eph_lo, unsigned eph_hi, const char *what,
                       const char *node)
{
	char why[FW_WHY_MAX];
	int failed = 0;

	/* the single ports first, so a range added later does not hide why
	 * a fixed port failed; ranges swallow only ports inside them */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < n; i++) {
			bool eph;

			if (!result_failed(&r[i]))
				continue;
			eph = eph_lo != 0 && eph_lo <= r[i].port &&
			      r[i].port <= eph_hi;
			if (eph != (pass == 1))
				continue;
			failed++;
			if (eph)
				snprintf(why, sizeof(why),
				         "%s to ephemeral port %u/%s: %s (%s); "
				         "NCCL, Gloo and Ray workers listen on "
				         "ports from %u-%u",
				         what, r[i].port, r[i].proto,
				         r[i].state,
				         r[i].reason ? r[i].reason : "?",
				         eph_lo, eph_hi);
			else
				snprintf(why, sizeof(why),
				         "%s to port %u/%s: %s (%s)", what,
				         r[i].port, r[i].proto, r[i].state,
				         r[i].reason ? r[i].reason : "?");
			if (fwcmd_add(p, eph ? eph_lo : r[i].port,
			              eph ? eph_hi : r[i].port, r[i].proto,
			              node, why) < 0)
				return -1;
		}
	}
	return failed;
}

bool fwcmd_ephemeral_only(const struct fw_result *r, size_t n, unsigned eph_lo,
                          unsigned eph_hi)
{
	bool fixed_open = false, eph_failed = false;

	if (eph_lo == 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		bool eph = eph_lo <= r[i].port && r[i].port <= eph_hi;

		if (result_failed(&r[i]) && !eph)
			return false;
		if (result_failed(&r[i]))
			eph_failed = true;
		else if (!eph && result_connected(&r[i]))
			fixed_open = true;
	}
	return fixed_open && eph_failed;
}

/* The kernel group's parser under the name fwcmd's callers know. */
int fwcmd_parse_range(const char *line, unsigned *lo, unsigned *hi)
{
	return port_range_parse(line, lo, hi);
}

/* "29500", or the range with sep between its ends ("32768-60999"). */
static void port_text(const struct fw_rule *r, char sep, char *buf, size_t len)
{
	if (r->lo == r->hi)
		snprintf(buf, len, "%u", r->lo);
	else
		snprintf(buf, len, "%u%c%u", r->lo, sep, r->hi);
}

int fwcmd_format(enum fw_dialect dl, const struct fw_rule *r, char *buf,
                 size_t len)
{
	char ports[16];
	int n;

	switch (dl) {
	case FW_UFW:
		port_text(r, ':', ports, sizeof(ports));
		n = snprintf(buf, len, "ufw allow %s/%s", ports, r->proto);
		break;
	case FW_FIREWALLD:
		port_text(r, '-', ports, sizeof(ports));
		n = snprintf(buf, len,
		             "firewall-cmd --permanent --add-port=%s/%s && "
		             "firewall-cmd --reload",
		             ports, r->proto);
		break;
	default:
		errno = EINVAL;
		return -1;
	}
	if (n < 0 || (size_t)n >= len) {
		errno = ENOSPC;
		return -1;
	}
	return n;
}

json_t *fwcmd_ports_json(const struct fw_plan *p)
{
	json_t *a = json_array();
	char range[16];

	for (size_t i = 0; a != NULL && i < p->n; i++) {
		const struct fw_rule *r = &p->v[i];
		json_t *o, *port;

		port_text(r, '-', range, sizeof(range));
		port =
		    r->lo == r->hi ? json_integer(r->lo) : json_string(range);
		o = json_pack("{s:o, s:s, s:s}", "port", port, "proto",
		              r->proto, "why", r->why);
		if (o != NULL && r->node[0] != '\0')
			json_object_set_new(o, "nodes",
			                    json_pack("[s]", r->node));
		if (o == NULL || json_array_append_new(a, o) < 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}
