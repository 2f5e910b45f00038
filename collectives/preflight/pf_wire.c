/* The pre-flight's wire formats (preflight.h): one rank's info, one pair
 * result and a list of findings, packed the same on every host (network
 * order, fixed fields). No CUDA, no NCCL. */
#include "preflight/preflight.h"

#include <stdio.h>
#include <string.h>

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
	putstr(&p, ri->driver_version, sizeof(ri->driver_version));
	put32(&p, (uint32_t)ri->nccl_version);
	putstr(&p, ri->iface, sizeof(ri->iface));
	putstr(&p, ri->address, sizeof(ri->address));
	put32(&p, (uint32_t)ri->port);
	put32(&p, (uint32_t)(ri->shm_bytes >> 32));
	put32(&p, (uint32_t)ri->shm_bytes);
	putstr(&p, ri->rule, sizeof(ri->rule));
	putstr(&p, ri->ib_env, sizeof(ri->ib_env));
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
	getstr(&p, ri->driver_version, sizeof(ri->driver_version));
	ri->nccl_version = (int)get32(&p);
	getstr(&p, ri->iface, sizeof(ri->iface));
	getstr(&p, ri->address, sizeof(ri->address));
	ri->port = (int)get32(&p);
	hi = get32(&p);
	ri->shm_bytes = hi << 32 | get32(&p);
	getstr(&p, ri->rule, sizeof(ri->rule));
	getstr(&p, ri->ib_env, sizeof(ri->ib_env));
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


/* Room for the count and n findings. */
size_t nc_pf_findings_size(int n)
{
	return 4 + (size_t)(n > 0 ? n : 0) * NC_PF_FINDING_WIRE;
}

/* Code, severity (two's complement), summary. */
void nc_pf_findings_pack(const struct nc_pf_finding *f, int n,
			 unsigned char *b)
{
	unsigned char *p = b;

	put32(&p, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		putstr(&p, f[i].code, sizeof(f[i].code));
		put32(&p, (uint32_t)f[i].severity);
		putstr(&p, f[i].summary, sizeof(f[i].summary));
	}
}

/* The count comes from another host: checked against the length. */
int nc_pf_findings_unpack(const unsigned char *b, size_t len,
			  struct nc_pf_finding *f, int max)
{
	const unsigned char *p = b;
	uint32_t n;

	if (len < 4)
		return -1;
	n = get32(&p);
	if (n > (len - 4) / NC_PF_FINDING_WIRE)
		return -1;
	for (uint32_t i = 0; i < n && (int)i < max; i++) {
		getstr(&p, f[i].code, sizeof(f[i].code));
		f[i].severity = (int)get32(&p);
		getstr(&p, f[i].summary, sizeof(f[i].summary));
	}
	return (int)n < max ? (int)n : max;
}
