/* The pre-flight's exchanges (pf_round.h). */
#include "preflight/pf_round.h"
#include "preflight/pf_exchange.h"
#include "bootstrap/bootstrap_wire.h"

#include <stdlib.h>
#include <string.h>

/* One process's part of the probe round: a u32 count, then per target a
 * u32 process rank and its packed info. */
#define TARGET_WIRE (4 + NC_RANKINFO_WIRE)

/* The hub's half: sorts what was gathered and builds every process's
 * part (its targets' infos). Returns 0, or -1 on no memory. */
static int hub_parts(struct sc *sc, const struct nc_pf_in *in,
		     const unsigned char *all, struct nc_pf_out *out,
		     struct nc_rankinfo *byproc, unsigned char ***parts,
		     size_t **lens)
{
	int np = sc->nprocs;
	char (*hosts)[64] = calloc((size_t)np, sizeof(*hosts));

	if (out->ranks == NULL)
		out->ranks = calloc((size_t)in->nranks, sizeof(*out->ranks));
	*parts = calloc((size_t)np, sizeof(**parts));
	*lens = calloc((size_t)np, sizeof(**lens));
	if (hosts == NULL || out->ranks == NULL || *parts == NULL ||
	    *lens == NULL) {
		free(hosts);
		return -1;
	}
	out->nhosts = nc_pf_sort_infos(all, np, in->ndev, out->ranks,
				       in->nranks, byproc, hosts);
	sc_set_hosts(sc, (const char(*)[64])hosts);
	free(hosts);
	for (int p = 0; in->probe && p < np; p++) {
		int t[NC_PREFLIGHT_MAX_TARGETS];
		int nt = nc_preflight_targets(p, np, t,
					      NC_PREFLIGHT_MAX_TARGETS);
		unsigned char *b = malloc(4 + (size_t)nt * TARGET_WIRE);

		if (b == NULL)
			return -1;
		sc_u32_pack((uint32_t)nt, b);
		for (int k = 0; k < nt; k++) {
			unsigned char *e = b + 4 + (size_t)k * TARGET_WIRE;

			sc_u32_pack((uint32_t)t[k], e);
			nc_rankinfo_pack(&byproc[t[k]], e + 4);
		}
		(*parts)[p] = b;
		(*lens)[p] = 4 + (size_t)nt * TARGET_WIRE;
	}
	return 0;
}

/* Every process's half of the probe round: reads its targets from its
 * part, probes them and sends the pair results to the hub, whose pairs
 * land in out->pairs. Returns 0, or -1. */
static int probe_round(struct sc *sc, const struct nc_pf_in *in,
		       const unsigned char *part, size_t plen,
		       struct nc_pf_out *out)
{
	int np = sc->nprocs, nt = 0, rc = -1;
	int targets[NC_PREFLIGHT_MAX_TARGETS];
	struct nc_pair pr[NC_PREFLIGHT_MAX_TARGETS];
	struct nc_rankinfo *known = calloc((size_t)np, sizeof(*known));
	unsigned char pb[NC_PAIR_BLOCK], *pall = NULL;

	if (known == NULL)
		goto out;
	if (plen >= 4)
		nt = (int)sc_u32_unpack(part);
	if (nt < 0 || nt > NC_PREFLIGHT_MAX_TARGETS ||
	    plen != 4 + (size_t)nt * TARGET_WIRE)
		nt = 0; /* nothing usable: test no one */
	for (int k = 0; k < nt; k++) {
		const unsigned char *e = part + 4 + (size_t)k * TARGET_WIRE;

		targets[k] = (int)sc_u32_unpack(e);
		if (targets[k] < 0 || targets[k] >= np) {
			nt = k;
			break;
		}
		nc_rankinfo_unpack(e + 4, &known[targets[k]]);
	}
	nc_preflight_probe(sc->rank, known, targets, nt, in->listen_fd,
			   in->probe_timeout_us, pr);
	nc_pair_block_pack(pr, nt, pb);
	if (sc->rank == 0) {
		pall = calloc((size_t)np, NC_PAIR_BLOCK);
		out->pairs = calloc((size_t)np * NC_PREFLIGHT_MAX_TARGETS,
				    sizeof(*out->pairs));
		if (pall == NULL || out->pairs == NULL)
			goto out;
	}
	if (sc_gather(sc, pb, NC_PAIR_BLOCK, pall, in->deadline_us) < 0)
		goto out;
	for (int p = 0; sc->rank == 0 && p < np; p++)
		out->npairs += nc_pair_block_unpack(
			pall + (size_t)p * NC_PAIR_BLOCK,
			&out->pairs[out->npairs]);
	out->ran = sc->rank == 0;
	rc = 0;
out:
	free(known);
	free(pall);
	return rc;
}

/* Gather, scatter the targets, probe, gather the pairs, decide at the
 * hub, send the findings to all. */
int nc_pf_round(struct sc *sc, const struct nc_pf_in *in,
		struct nc_pf_out *out, struct nc_pf_finding *f, int max)
{
	int np = sc->nprocs, nf = 0, rc = -1;
	size_t per = (size_t)in->ndev * NC_RANKINFO_WIRE, mylen = 0;
	unsigned char *buf = calloc(1, per), *all = NULL, **parts = NULL;
	unsigned char *fb = NULL;
	struct nc_rankinfo *byproc = NULL;
	size_t *lens = NULL;
	void *mine = NULL;

	if (buf == NULL)
		goto nomem;
	for (int i = 0; i < in->ndev; i++)
		nc_rankinfo_pack(&in->mine[i], buf + (size_t)i * NC_RANKINFO_WIRE);
	if (sc->rank == 0) {
		all = calloc((size_t)np, per);
		byproc = calloc((size_t)np, sizeof(*byproc));
		if (all == NULL || byproc == NULL)
			goto nomem;
	}
	if (sc_gather(sc, buf, per, all, in->deadline_us) < 0)
		goto out;
	if (sc->rank == 0 &&
	    hub_parts(sc, in, all, out, byproc, &parts, &lens) < 0)
		goto nomem;
	if (in->probe && np > 1) {
		if (sc_scatterv(sc, (const void *const *)parts, lens, &mine,
				&mylen, in->deadline_us) < 0 ||
		    probe_round(sc, in, mine, mylen, out) < 0)
			goto out;
	}
	if (sc->rank == 0) {
		nf += nc_decide_ifaces(byproc, np, in->socket_ifname, f + nf,
				       max - nf);
		nf += nc_decide_versions(byproc, np, f + nf, max - nf);
		nf += nc_decide_ib_env(byproc, np, f + nf, max - nf);
		if (out->ran)
			nf += nc_decide_pairs(byproc, np, out->pairs,
					      out->npairs, f + nf, max - nf);
	}
	if (np > 1) {
		size_t fl = nc_pf_findings_size(nf);
		unsigned char n32[4];

		/* the length first, then the list: clients learn its size */
		sc_u32_pack((uint32_t)fl, n32);
		if (sc_bcast(sc, n32, 4, in->deadline_us) < 0)
			goto out;
		fl = sc_u32_unpack(n32);
		fb = calloc(1, fl);
		if (fb == NULL)
			goto nomem;
		if (sc->rank == 0)
			nc_pf_findings_pack(f, nf, fb);
		if (sc_bcast(sc, fb, fl, in->deadline_us) < 0)
			goto out;
		if (sc->rank != 0 &&
		    (nf = nc_pf_findings_unpack(fb, fl, f, max)) < 0) {
			sc_abort(sc, "pre-flight: rank 0 sent a malformed list "
				 "of findings (different ncclcheck versions?)");
			goto out;
		}
	}
	rc = nf;
	goto out;
nomem:
	sc_abort(sc, "pre-flight: no memory");
out:
	for (int p = 0; parts != NULL && p < np; p++)
		free(parts[p]);
	free(parts);
	free(lens);
	free(mine);
	free(buf);
	free(all);
	free(byproc);
	free(fb);
	return rc;
}
