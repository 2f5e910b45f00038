/* The pre-flight's deciders (preflight.h): versions, interfaces and
 * unreachable ranks from what was gathered, as findings. Pure. */
#include "preflight/preflight.h"
#include "bootstrap/bootstrap.h"
#include "doc/finding.h"

#include <stdio.h>
#include <string.h>

/* Appends a finding; returns 1 when added. */
static int add(struct nc_pf_finding *out, int max, int n,
	       enum finding_code code, int sev, const char *summary)
{
	if (n >= max)
		return 0;
	snprintf(out[n].code, sizeof(out[n].code), "%s", finding_name(code));
	out[n].severity = sev;
	snprintf(out[n].summary, sizeof(out[n].summary), "%s", summary);
	return 1;
}

/* Formats a version number as NCCL (22803 -> 2.28.3) or CUDA (13000 ->
 * 13.0) spells it. */
static void fmt_ver(int v, bool nccl, char *b, size_t n)
{
	if (nccl)
		snprintf(b, n, "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
	else
		snprintf(b, n, "%d.%d", v / 1000, v / 10 % 100);
}

/* One kind of version: groups processes by value and, when more than one
 * value exists, writes "NCCL 2.28.3 on ranks 0-2 (gpu-a), 2.27.5 on rank 3
 * (gpu-b)". Returns true on a mismatch. */
static bool versions_of(const struct nc_rankinfo *bp, int np, int which,
			char *buf, size_t len)
{
	static const char *const names[] = { "NCCL", "CUDA runtime",
					     "CUDA driver API" };
	int vals[8], nv = 0;
	size_t off;

	for (int i = 0; i < np; i++) {
		int v = which == 0 ? bp[i].nccl_version :
			which == 1 ? bp[i].cuda_runtime : bp[i].driver;
		bool seen = false;

		for (int k = 0; k < nv; k++)
			seen |= vals[k] == v;
		if (!seen && nv < 8)
			vals[nv++] = v;
	}
	if (nv < 2)
		return false;
	off = (size_t)snprintf(buf, len, "%s", names[which]);
	for (int k = 0; k < nv && off < len; k++) {
		int rl[64], nr = 0;
		char vb[32], rb[128];
		const char *host = "";

		for (int i = 0; i < np && nr < 64; i++) {
			int v = which == 0 ? bp[i].nccl_version :
				which == 1 ? bp[i].cuda_runtime : bp[i].driver;

			if (v == vals[k]) {
				if (nr == 0)
					host = bp[i].host;
				rl[nr++] = i;
			}
		}
		fmt_ver(vals[k], which == 0, vb, sizeof(vb));
		off += (size_t)snprintf(buf + off, len - off,
					"%s %s on rank%s %s (%s%s)",
					k ? "," : "", vb, nr > 1 ? "s" : "",
					sc_ranges(rl, nr, rb, sizeof(rb)), host,
					nr > 1 ? "..." : "");
	}
	return true;
}

/* Only NCCL refuses mixed versions; CUDA's differences are warnings. */
int nc_decide_versions(const struct nc_rankinfo *byproc, int nprocs,
		       struct nc_pf_finding *out, int max)
{
	char buf[512];
	int n = 0;

	for (int w = 0; w < 3; w++)
		if (versions_of(byproc, nprocs, w, buf, sizeof(buf)))
			n += add(out, max, n, FINDING_NCCL_VERSION_MISMATCH,
				 w == 0 ? -1 : SEV_WARNING, buf);
	return n;
}

/* Groups failures by target; a rank without address is skipped. */
int nc_decide_pairs(const struct nc_rankinfo *byproc, int nprocs,
		    const struct nc_pair *pairs, int npairs,
		    struct nc_pf_finding *out, int max)
{
	int n = 0;

	for (int t = 0; t < nprocs; t++) {
		int from[64], nf = 0, tested = 0;
		const char *word = NULL;
		char rb[256], buf[512];

		/* a rank with no interface is nccl_decide_ifaces' finding */
		if (byproc[t].address[0] == '\0')
			continue;
		for (int i = 0; i < npairs; i++) {
			if (pairs[i].to != t)
				continue;
			tested++;
			if (!pairs[i].ok && nf < 64) {
				from[nf++] = pairs[i].from;
				if (word == NULL)
					word = pairs[i].error;
			}
		}
		if (nf == 0)
			continue;
		/* sorted tester list for the ranges */
		for (int a = 1; a < nf; a++)
			for (int b = a; b > 0 && from[b - 1] > from[b]; b--) {
				int x = from[b];

				from[b] = from[b - 1];
				from[b - 1] = x;
			}
		snprintf(buf, sizeof(buf),
			 "rank %d on %s advertises %s:%d (%s); connects from "
			 "rank%s %s: %s%s",
			 t, byproc[t].host, byproc[t].address, byproc[t].port,
			 byproc[t].iface[0] ? byproc[t].iface : "no interface",
			 nf > 1 ? "s" : "", sc_ranges(from, nf, rb, sizeof(rb)),
			 word, nf == tested ? "" : " (others reach it)");
		n += add(out, max, n, FINDING_RANK_UNREACHABLE, -1, buf);
	}
	return n;
}

/* nccl-ifname-nomatch when NCCL_SOCKET_IFNAME is set, else
 * no-usable-interface. */
int nc_decide_ifaces(const struct nc_rankinfo *byproc, int nprocs,
		     const char *socket_ifname, struct nc_pf_finding *out,
		     int max)
{
	int none[64], nn = 0, n = 0;
	char rb[256], buf[512];

	for (int i = 0; i < nprocs && nn < 64; i++)
		if (byproc[i].iface[0] == '\0')
			none[nn++] = i;
	if (nn == 0)
		return 0;
	if (socket_ifname != NULL && strlen(socket_ifname) > 1)
		snprintf(buf, sizeof(buf), "NCCL_SOCKET_IFNAME=%s matches no "
			 "running interface with an address on rank%s %s "
			 "(%s): NCCL would fail with 'Bootstrap : no socket "
			 "interface found'", socket_ifname, nn > 1 ? "s" : "",
			 sc_ranges(none, nn, rb, sizeof(rb)), byproc[none[0]].host);
	else
		snprintf(buf, sizeof(buf), "no interface NCCL would use on "
			 "rank%s %s (%s)", nn > 1 ? "s" : "",
			 sc_ranges(none, nn, rb, sizeof(rb)), byproc[none[0]].host);
	n += add(out, max, n,
		 socket_ifname != NULL ? FINDING_NCCL_IFNAME_NOMATCH
				       : FINDING_NO_USABLE_INTERFACE,
		 -1, buf);
	return n;
}
