/* Pre-flight (preflight.h): the rank-info wire format, the reachability
 * probe between ranks, and the deciders over what was gathered. */
#include "preflight.h"
#include "bootstrap.h"
#include "doc/finding.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Big-endian field writers and readers over a cursor. */
static void put32(unsigned char **p, uint32_t v)
{
	(*p)[0] = (unsigned char)(v >> 24);
	(*p)[1] = (unsigned char)(v >> 16);
	(*p)[2] = (unsigned char)(v >> 8);
	(*p)[3] = (unsigned char)v;
	*p += 4;
}

/* Reads a big-endian u32 and advances the cursor. */
static uint32_t get32(const unsigned char **p)
{
	uint32_t v = (uint32_t)(*p)[0] << 24 | (uint32_t)(*p)[1] << 16 |
		     (uint32_t)(*p)[2] << 8 | (*p)[3];

	*p += 4;
	return v;
}

/* Writes a fixed-width, NUL-padded string field. */
static void putstr(unsigned char **p, const char *s, size_t n)
{
	size_t l = strnlen(s, n - 1);

	memset(*p, 0, n);
	memcpy(*p, s, l);
	*p += n;
}

/* Reads a fixed-width string field, always terminated. */
static void getstr(const unsigned char **p, char *s, size_t n)
{
	memcpy(s, *p, n);
	s[n - 1] = '\0';
	*p += n;
}

/* Field order is the wire format: never reorder. */
void nc_rankinfo_pack(const struct nc_rankinfo *ri, unsigned char *b)
{
	unsigned char *p = b;

	memset(b, 0, NC_RANKINFO_WIRE);
	put32(&p, (uint32_t)ri->rank);
	put32(&p, (uint32_t)ri->proc);
	putstr(&p, ri->host, sizeof(ri->host));
	putstr(&p, ri->gpu, sizeof(ri->gpu));
	putstr(&p, ri->pci, sizeof(ri->pci));
	put32(&p, (uint32_t)ri->cuda_runtime);
	put32(&p, (uint32_t)ri->driver);
	put32(&p, (uint32_t)ri->nccl_version);
	putstr(&p, ri->iface, sizeof(ri->iface));
	putstr(&p, ri->address, sizeof(ri->address));
	put32(&p, (uint32_t)ri->port);
	put32(&p, (uint32_t)(ri->shm_bytes >> 32));
	put32(&p, (uint32_t)ri->shm_bytes);
	putstr(&p, ri->rule, sizeof(ri->rule));
}

/* The inverse of nc_rankinfo_pack. */
void nc_rankinfo_unpack(const unsigned char *b, struct nc_rankinfo *ri)
{
	const unsigned char *p = b;
	unsigned long long hi;

	memset(ri, 0, sizeof(*ri));
	ri->rank = (int)get32(&p);
	ri->proc = (int)get32(&p);
	getstr(&p, ri->host, sizeof(ri->host));
	getstr(&p, ri->gpu, sizeof(ri->gpu));
	getstr(&p, ri->pci, sizeof(ri->pci));
	ri->cuda_runtime = (int)get32(&p);
	ri->driver = (int)get32(&p);
	ri->nccl_version = (int)get32(&p);
	getstr(&p, ri->iface, sizeof(ri->iface));
	getstr(&p, ri->address, sizeof(ri->address));
	ri->port = (int)get32(&p);
	hi = get32(&p);
	ri->shm_bytes = hi << 32 | get32(&p);
	getstr(&p, ri->rule, sizeof(ri->rule));
}

/* from, to, ok, then the error word. */
void nc_pair_pack(const struct nc_pair *pr, unsigned char *b)
{
	unsigned char *p = b;

	memset(b, 0, NC_PAIR_WIRE);
	put32(&p, (uint32_t)pr->from);
	put32(&p, (uint32_t)pr->to);
	put32(&p, pr->ok ? 1 : 0);
	putstr(&p, pr->error, sizeof(pr->error));
}

/* The inverse of nc_pair_pack. */
void nc_pair_unpack(const unsigned char *b, struct nc_pair *pr)
{
	const unsigned char *p = b;

	pr->from = (int)get32(&p);
	pr->to = (int)get32(&p);
	pr->ok = get32(&p) != 0;
	getstr(&p, pr->error, sizeof(pr->error));
}

/* All pairs for small N, doubling offsets beyond. */
int nc_preflight_targets(int me, int n, int *out, int max)
{
	int k = 0;

	if (n <= NC_PREFLIGHT_ALL_PAIRS) {
		for (int i = 0; i < n && k < max; i++)
			if (i != me)
				out[k++] = i;
		return k;
	}
	for (int d = 1; d < n && k < max; d *= 2) {
		int t = (me + d) % n;
		bool dup = false;

		for (int i = 0; i < k; i++)
			dup |= out[i] == t;
		if (!dup && t != me)
			out[k++] = t;
	}
	return k;
}

/* The word for a connect error, as the summary uses it. */
static const char *err_word(int e)
{
	switch (e) {
	case ETIMEDOUT:
		return "time out";
	case ECONNREFUSED:
		return "are refused";
	case EHOSTUNREACH:
		return "get host unreachable";
	case ENETUNREACH:
		return "get network unreachable";
	case EACCES:
	case EPERM:
		return "are prohibited";
	default:
		return "fail";
	}
}

/* Non-blocking connects polled together; one deadline for all. */
int nc_preflight_probe(int me, const struct nc_rankinfo *byproc,
		       const int *targets, int nt, int listen_fd,
		       long long timeout_us, struct nc_pair *out)
{
	struct pollfd pf[NC_PREFLIGHT_MAX_TARGETS + 1];
	int fds[NC_PREFLIGHT_MAX_TARGETS];
	long long deadline = sc_now_us() + timeout_us;
	int pending = 0;

	if (nt > NC_PREFLIGHT_MAX_TARGETS)
		nt = NC_PREFLIGHT_MAX_TARGETS;
	for (int i = 0; i < nt; i++) {
		const struct nc_rankinfo *t = &byproc[targets[i]];
		struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
					  .ai_flags = AI_NUMERICHOST |
						      AI_NUMERICSERV };
		struct addrinfo *res = NULL;
		char ps[16];

		out[i].from = me;
		out[i].to = targets[i];
		out[i].ok = false;
		snprintf(out[i].error, sizeof(out[i].error), "fail");
		fds[i] = -1;
		snprintf(ps, sizeof(ps), "%d", t->port);
		if (t->address[0] == '\0' ||
		    getaddrinfo(t->address, ps, &hints, &res) != 0) {
			snprintf(out[i].error, sizeof(out[i].error),
				 "no address");
			continue;
		}
		fds[i] = socket(res->ai_family,
				SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
		if (fds[i] >= 0 &&
		    connect(fds[i], res->ai_addr, res->ai_addrlen) < 0 &&
		    errno != EINPROGRESS) {
			snprintf(out[i].error, sizeof(out[i].error), "%s",
				 err_word(errno));
			close(fds[i]);
			fds[i] = -1;
		} else if (fds[i] >= 0) {
			pending++;
		}
		freeaddrinfo(res);
	}
	while (sc_now_us() < deadline) {
		int n = 0, map[NC_PREFLIGHT_MAX_TARGETS + 1];
		long long left = (deadline - sc_now_us()) / 1000;

		for (int i = 0; i < nt; i++)
			if (fds[i] >= 0) {
				pf[n].fd = fds[i];
				pf[n].events = POLLOUT;
				map[n++] = i;
			}
		if (listen_fd >= 0) {
			pf[n].fd = listen_fd;
			pf[n].events = POLLIN;
			map[n++] = -1;
		}
		if (pending == 0)
			break;
		if (poll(pf, (nfds_t)n, left > 100 ? 100 : (int)left + 1) <= 0)
			continue;
		for (int k = 0; k < n; k++) {
			int i = map[k], err = 0;
			socklen_t el = sizeof(err);

			if (pf[k].revents == 0)
				continue;
			if (i < 0) {
				int c = accept4(listen_fd, NULL, NULL,
						SOCK_CLOEXEC);

				if (c >= 0)
					close(c);
				continue;
			}
			getsockopt(fds[i], SOL_SOCKET, SO_ERROR, &err, &el);
			out[i].ok = err == 0;
			snprintf(out[i].error, sizeof(out[i].error), "%s",
				 err == 0 ? "" : err_word(err));
			close(fds[i]);
			fds[i] = -1;
			pending--;
		}
	}
	for (int i = 0; i < nt; i++)
		if (fds[i] >= 0) {
			snprintf(out[i].error, sizeof(out[i].error), "%s",
				 err_word(ETIMEDOUT));
			close(fds[i]);
		}
	return nt;
}

/* Appends a finding; returns 1 when added. */
static int add(struct nc_pf_finding *out, int max, int n, const char *code,
	       int sev, const char *summary)
{
	if (n >= max)
		return 0;
	snprintf(out[n].code, sizeof(out[n].code), "%s", code);
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
					     "CUDA driver" };
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

/* NCCL and CUDA runtime differences are faults, driver a warning. */
int nc_decide_versions(const struct nc_rankinfo *byproc, int nprocs,
		       struct nc_pf_finding *out, int max)
{
	char buf[512];
	int n = 0;

	for (int w = 0; w < 3; w++)
		if (versions_of(byproc, nprocs, w, buf, sizeof(buf)))
			n += add(out, max, n, "nccl-version-mismatch",
				 w == 2 ? SEV_WARNING : -1, buf);
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
			 "rank %d on %s advertises %s:%d (%s), rank%s %s %s%s",
			 t, byproc[t].host, byproc[t].address, byproc[t].port,
			 byproc[t].iface[0] ? byproc[t].iface : "no interface",
			 nf > 1 ? "s" : "", sc_ranges(from, nf, rb, sizeof(rb)),
			 word, nf == tested ? "" : " (others reach it)");
		n += add(out, max, n, "rank-unreachable", -1, buf);
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
		 socket_ifname != NULL ? "nccl-ifname-nomatch" :
					 "no-usable-interface", -1, buf);
	return n;
}
