/* Port specifications: "22,80,8000-8010", "4789/udp", "7946/tcp+udp" and
 * presets naming what each framework listens on. */
#include "probe/portspec.h"

#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"

#define P_TCP 0x1
#define P_UDP 0x2
#define P_BOTH (P_TCP | P_UDP)

struct preset_item {
	uint16_t lo, hi;
	uint8_t protos; /* P_* */
	uint8_t flags;  /* PSPEC_F_* */
};

struct preset {
	const char *name;
	const char *doc;
	bool ephemeral; /* also the peer's ip_local_port_range samples */
	struct preset_item items[8];
	size_t nitems;
};

/*
 * Ray: GCS 6379, dashboard 8265, client server 10001, and the worker range
 * min_worker_port 10002 to max_worker_port 19999, sampled at both ends and
 * the middle. Open MPI: the TCP BTL and the OOB let the kernel choose their
 * ports by default (btl_tcp_port_min_v4 1024, btl_tcp_port_range_v4 64511,
 * no oob_tcp_static_ipv4_ports), so `mpi` is the ends of the BTL window
 * plus the peer's ephemeral range samples. Every sample is held by the
 * responder: a running job's ephemeral ports are never connected to.
 */
static const struct preset presets[] = {
	{"ray",
	 "6379, 8265, 10001/tcp and worker samples 10002, 10003, 15000, "
	 "19998, 19999",
	 false,
	 {{6379, 6379, P_TCP, 0},
	  {8265, 8265, P_TCP, 0},
	  {10001, 10001, P_TCP, 0},
	  {10002, 10003, P_TCP, PSPEC_F_SAMPLE},
	  {15000, 15000, P_TCP, PSPEC_F_SAMPLE},
	  {19998, 19999, P_TCP, PSPEC_F_SAMPLE}},
	 6},
	{"torch", "29500, 29400/tcp", false,
	 {{29500, 29500, P_TCP, 0}, {29400, 29400, P_TCP, 0}}, 2},
	{"ssh", "22/tcp", false, {{22, 22, P_TCP, 0}}, 1},
	{"swarm", "2377/tcp, 7946/tcp+udp, 4789/udp", false,
	 {{2377, 2377, P_TCP, 0},
	  {7946, 7946, P_BOTH, 0},
	  {4789, 4789, P_UDP, 0}},
	 3},
	{"slurm", "6817-6819/tcp", false, {{6817, 6819, P_TCP, 0}}, 1},
	{"mpi",
	 "samples 1024, 65535/tcp (the BTL window) and the ephemeral samples",
	 true,
	 {{1024, 1024, P_TCP, PSPEC_F_SAMPLE},
	  {65535, 65535, P_TCP, PSPEC_F_SAMPLE}},
	 2},
	{"ephemeral",
	 "2 samples at each end of the peer's ip_local_port_range/tcp", true,
	 {{0, 0, 0, 0}}, 0},
};

#define NPRESETS (sizeof(presets) / sizeof(presets[0]))

/* An empty list: no allocation until the first port. */
void port_list_init(struct port_list *pl)
{
	memset(pl, 0, sizeof(*pl));
}

/* Frees the ports and leaves an empty list. */
void port_list_free(struct port_list *pl)
{
	free(pl->v);
	port_list_init(pl);
}

/* The duplicates bitmap is indexed by protocol: 0 tcp, 1 udp. */
static int port_list_add(struct port_list *pl, uint16_t port, uint8_t proto,
                         uint8_t flags, const char *why)
{
	int pi = proto == IPPROTO_UDP ? 1 : 0;
	uint8_t bit = (uint8_t)(1u << (port & 7));

	if (pl->seen[pi][port >> 3] & bit)
		return 0;
	if (pl->n >= PORTSPEC_MAX) {
		errno = ENOSPC;
		return -1;
	}
	if (pl->n == pl->cap) {
		size_t ncap = pl->cap ? pl->cap * 2 : 32;
		struct port_req *nv;

		if (ncap > PORTSPEC_MAX)
			ncap = PORTSPEC_MAX;
		nv = realloc(pl->v, ncap * sizeof(*nv));
		if (nv == NULL) {
			errno = ENOMEM;
			return -1;
		}
		pl->v = nv;
		pl->cap = ncap;
	}
	pl->v[pl->n++] = (struct port_req){port, proto, flags, why};
	pl->seen[pi][port >> 3] |= bit;
	return 1;
}

/* Adds lo..hi for each protocol in protos; false (errno kept) when full. */
static bool add_range(struct port_list *pl, unsigned lo, unsigned hi,
                      unsigned protos, uint8_t flags, const char *why)
{
	for (unsigned p = lo; p <= hi; p++) {
		if ((protos & P_TCP) &&
		    port_list_add(pl, (uint16_t)p, IPPROTO_TCP, flags, why) < 0)
			return false;
		if ((protos & P_UDP) &&
		    port_list_add(pl, (uint16_t)p, IPPROTO_UDP, flags, why) < 0)
			return false;
	}
	return true;
}

/* Records the offending item (truncated to fit) and the reason. */
static int fail(struct portspec_err *e, const char *tok, size_t len,
                const char *why)
{
	if (len >= sizeof(e->token))
		len = sizeof(e->token) - 1;
	memcpy(e->token, tok, len);
	e->token[len] = '\0';
	e->why = why;
	return -1;
}

/* One port number; the phrase says what is wrong with it. */
static int parse_port(const char *s, unsigned *out, const char **why)
{
	long long v;
	const char *err;

	if (parse_num(s, 1, 65535, &v, &err) < 0) {
		*why = strcmp(err, "not a number") == 0
			       ? "not a port number"
			       : "port out of range 1-65535";
		return -1;
	}
	*out = (unsigned)v;
	return 0;
}

/* Expands one item (already trimmed, NUL-terminated in buf). */
static int parse_item(char *buf, struct port_list *pl, struct portspec_err *e)
{
	char tok[64];
	size_t toklen = strlen(buf);
	unsigned protos = P_TCP, lo, hi;
	char *slash, *dash;
	const char *why;

	/* the caller's buffer fits in tok; keep the item as written */
	snprintf(tok, sizeof(tok), "%s", buf);
	if (isalpha((unsigned char)*buf)) {
		for (size_t i = 0; i < NPRESETS; i++) {
			const struct preset *p = &presets[i];

			if (strcmp(buf, p->name) != 0)
				continue;
			for (size_t j = 0; j < p->nitems; j++)
				if (!add_range(pl, p->items[j].lo,
					       p->items[j].hi,
					       p->items[j].protos,
					       p->items[j].flags, p->name))
					goto full;
			if (p->ephemeral)
				pl->ephemeral = true;
			return 0;
		}
		return fail(e, tok, toklen,
			    "unknown preset (ray, torch, ssh, swarm, slurm, "
			    "mpi, ephemeral)");
	}
	slash = strchr(buf, '/');
	if (slash != NULL) {
		*slash++ = '\0';
		if (strcmp(slash, "tcp") == 0)
			protos = P_TCP;
		else if (strcmp(slash, "udp") == 0)
			protos = P_UDP;
		else if (strcmp(slash, "tcp+udp") == 0 ||
			 strcmp(slash, "udp+tcp") == 0)
			protos = P_BOTH;
		else
			return fail(e, tok, toklen,
				    "unknown protocol (tcp, udp, tcp+udp)");
	}
	dash = strchr(buf, '-');
	if (dash != NULL)
		*dash++ = '\0';
	if (parse_port(buf, &lo, &why) < 0)
		return fail(e, tok, toklen, why);
	hi = lo;
	if (dash != NULL && parse_port(dash, &hi, &why) < 0)
		return fail(e, tok, toklen, why);
	if (hi < lo)
		return fail(e, tok, toklen, "reversed range");
	if (!add_range(pl, lo, hi, protos, 0, NULL))
		goto full;
	return 0;
full:
	return fail(e, tok, toklen,
		    errno == ENOSPC ? "more than 65535 ports in all"
				    : "out of memory");
}

/* Items split on commas, trimmed, expanded in order; the first bad item
 * stops the parse with its text and the reason in *e. */
int portspec_parse(const char *spec, struct port_list *pl,
		   struct portspec_err *e)
{
	const char *p = spec;
	bool first = true;

	memset(e, 0, sizeof(*e));
	if (spec == NULL)
		return fail(e, "", 0, "empty port list");
	for (;;) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char buf[64];

		while (len > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len == 0)
			return fail(e, spec, strlen(spec),
				    end == NULL && first
					    ? "empty port list"
					    : "empty item in port list");
		if (len >= sizeof(buf))
			return fail(e, p, len, "item too long");
		memcpy(buf, p, len);
		buf[len] = '\0';
		if (parse_item(buf, pl, e) < 0)
			return -1;
		if (end == NULL)
			break;
		p = end + 1;
		first = false;
	}
	return 0;
}

/* Names and descriptions of the presets, for usage text. */
const struct portspec_preset *portspec_presets(size_t *n)
{
	static struct portspec_preset out[NPRESETS];

	for (size_t i = 0; i < NPRESETS; i++) {
		out[i].name = presets[i].name;
		out[i].doc = presets[i].doc;
	}
	*n = NPRESETS;
	return out;
}

/* Samples at both ends of a range, ascending, never repeated. */
size_t portspec_ephemeral_samples(uint16_t lo, uint16_t hi, uint16_t *out,
				  size_t max)
{
	size_t n = 0;
	unsigned k = PORTSPEC_EPHEMERAL_PER_END;

	if (lo == 0 || hi < lo)
		return 0;
	for (unsigned i = 0; i < k && lo + i <= hi && n < max; i++)
		out[n++] = (uint16_t)(lo + i);
	for (unsigned i = k; i > 0 && n < max; i--) {
		long v = (long)hi - (long)(i - 1);

		if (v < lo || (n > 0 && v <= out[n - 1]))
			continue;
		out[n++] = (uint16_t)v;
	}
	return n;
}

/* Consecutive ports collapse into LO<rsep>HI; returns a malloc'd string. */
char *portspec_ranges(const uint16_t *ports, size_t n, const char *prefix,
		      const char *sep, const char *rsep, const char *suffix)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);

	if (fp == NULL)
		return NULL;
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j + 1 < n && ports[j + 1] == ports[j] + 1)
			j++;
		fprintf(fp, "%s%s%u", i ? sep : "", prefix, ports[i]);
		if (j > i)
			fprintf(fp, "%s%u", rsep, ports[j]);
		fputs(suffix, fp);
		i = j + 1;
	}
	if (fclose(fp) != 0) {
		free(buf);
		errno = ENOMEM;
		return NULL;
	}
	return buf;
}

/* The JSON and text name of a transport. */
const char *portspec_proto_name(uint8_t proto)
{
	return proto == IPPROTO_UDP ? "udp" : "tcp";
}
