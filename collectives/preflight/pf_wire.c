/* The pre-flight's wire formats (preflight.h): one rank's info, one pair
 * result and a list of findings, packed the same on every host (network
 * order, fixed fields). Each is a field table of lib/wire's codec
 * (wire/proto_codec.h), walked by its one encoder and decoder; the row
 * order is the wire format: never reorder. No CUDA, no NCCL. */
#include "preflight/preflight.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "wire/proto_codec.h"

#define RI(m) offsetof(struct nc_rankinfo, m)

/* One rank's info: 480 bytes of fields, then zeros to NC_RANKINFO_WIRE
 * (508, room the format keeps); ints as two's complement. */
static const struct pf_field rankinfo_f[] = {
	PF_NUM(PF_U32, RI(rank)),
	PF_NUM(PF_U32, RI(proc)),
	PF_FIX(struct nc_rankinfo, host),
	PF_FIX(struct nc_rankinfo, gpu),
	PF_FIX(struct nc_rankinfo, pci),
	PF_NUM(PF_U32, RI(cuda_runtime)),
	PF_NUM(PF_U32, RI(driver)),
	PF_FIX(struct nc_rankinfo, driver_version),
	PF_NUM(PF_U32, RI(nccl_version)),
	PF_FIX(struct nc_rankinfo, iface),
	PF_FIX(struct nc_rankinfo, address),
	PF_NUM(PF_U32, RI(port)),
	PF_NUM(PF_U64, RI(shm_bytes)),
	PF_FIX(struct nc_rankinfo, rule),
	PF_FIX(struct nc_rankinfo, ib_env),
};
static const struct pf_msg rankinfo_m = {
	rankinfo_f, PF_LEN(rankinfo_f), sizeof(struct nc_rankinfo), NULL,
	true};

/* from, to, ok, then the error word: NC_PAIR_WIRE bytes. */
static const struct pf_field pair_f[] = {
	PF_NUM(PF_U32, offsetof(struct nc_pair, from)),
	PF_NUM(PF_U32, offsetof(struct nc_pair, to)),
	PF_NUM(PF_BOOL32, offsetof(struct nc_pair, ok)),
	PF_FIX(struct nc_pair, error),
};
static const struct pf_msg pair_m = PF_MSG(pair_f, struct nc_pair, NULL);

/* One finding, NC_PF_FINDING_WIRE bytes: code, severity, summary. */
static const struct pf_field finding_f[] = {
	PF_FIX(struct nc_pf_finding, code),
	PF_NUM(PF_U32, offsetof(struct nc_pf_finding, severity)),
	PF_FIX(struct nc_pf_finding, summary),
};
static const struct pf_msg finding_m =
	PF_MSG(finding_f, struct nc_pf_finding, NULL);

/* The findings' count ahead of them. */
struct count {
	uint32_t n;
};
static const struct pf_field count_f[] = {PF_NUM(PF_U32, 0)};
static const struct pf_msg count_m = PF_MSG(count_f, struct count, NULL);

/* See preflight.h. */
void nc_rankinfo_pack(const struct nc_rankinfo *ri, unsigned char *b)
{
	pf_pack_fixed(&rankinfo_m, ri, b, NC_RANKINFO_WIRE);
}

/* The inverse of nc_rankinfo_pack. */
void nc_rankinfo_unpack(const unsigned char *b, struct nc_rankinfo *ri)
{
	pf_unpack_fixed(&rankinfo_m, b, NC_RANKINFO_WIRE, ri);
}

/* See preflight.h. */
void nc_pair_pack(const struct nc_pair *pr, unsigned char *b)
{
	pf_pack_fixed(&pair_m, pr, b, NC_PAIR_WIRE);
}

/* The inverse of nc_pair_pack. */
void nc_pair_unpack(const unsigned char *b, struct nc_pair *pr)
{
	pf_unpack_fixed(&pair_m, b, NC_PAIR_WIRE, pr);
}

/* Room for the count and n findings. */
size_t nc_pf_findings_size(int n)
{
	return 4 + (size_t)(n > 0 ? n : 0) * NC_PF_FINDING_WIRE;
}

/* The count, then each finding; severity in two's complement. */
void nc_pf_findings_pack(const struct nc_pf_finding *f, int n,
			 unsigned char *b)
{
	struct count c = {(uint32_t)n};

	pf_pack_fixed(&count_m, &c, b, 4);
	for (int i = 0; i < n; i++)
		pf_pack_fixed(&finding_m, &f[i], b + nc_pf_findings_size(i),
		     NC_PF_FINDING_WIRE);
}

/* The count comes from another host: checked against the length. */
int nc_pf_findings_unpack(const unsigned char *b, size_t len,
			  struct nc_pf_finding *f, int max)
{
	struct count c;

	if (len < 4)
		return -1;
	pf_unpack_fixed(&count_m, b, 4, &c);
	if (c.n > (len - 4) / NC_PF_FINDING_WIRE)
		return -1;
	for (uint32_t i = 0; i < c.n && (int)i < max; i++)
		pf_unpack_fixed(&finding_m, b + nc_pf_findings_size((int)i),
		       NC_PF_FINDING_WIRE, &f[i]);
	return (int)c.n < max ? (int)c.n : max;
}
