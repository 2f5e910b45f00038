/* netprobe explain: Open MPI's "unable to reach each other" between two
 * processes of one host (issue 42: blind42f b11). The help text names
 * the pair's hosts on lines of their own; where both are the same host,
 * no network between nodes was in the way: Open MPI found no transport
 * on that node (shared memory not loaded or excluded, "BTLs attempted:
 * self"; open-mpi/ompi#10955) or failed in its own exchange of
 * addresses (open-mpi/ompi#4277: pmix_base_async_modex=1). A cause that
 * is not the network, so the help text's network candidates stay shut.
 * explain.c calls them. */
#include "decide/explain.h"
#include "decide/explain_priv.h"

#include <stdio.h>
#include <string.h>

/* How far below the help text's first line its host lines may be. */
#define MPI_HOST_LINES 12

/* The host the help text below h names for process proc ("1" or "2"),
 * or NULL. */
static const char *pair_host(const struct explain_log *lg,
			     const struct explain_hit *h, const char *proc)
{
	for (size_t i = 0; i < lg->nhits; i++) {
		const struct explain_hit *o = &lg->hits[i];
		const char *p = logmatch_field(&o->m, "proc");

		if (strcmp(o->m.sig->id, "ompi-unreachable-host") != 0 ||
		    o->file != h->file || o->line <= h->line ||
		    o->line > h->line + MPI_HOST_LINES || p == NULL ||
		    strcmp(p, proc) != 0)
			continue;
		return logmatch_field(&o->m, "host");
	}
	return NULL;
}

/* True when h is Open MPI's unreachable pair and the help text puts
 * both processes on one known host. */
bool explain_mpi_one_host(const struct explain_log *lg,
			  const struct explain_hit *h)
{
	const char *a, *b;

	if (strcmp(h->m.sig->id, "ompi-unreachable") != 0)
		return false;
	a = pair_host(lg, h, "1");
	b = pair_host(lg, h, "2");
	return a != NULL && b != NULL && strcmp(a, b) == 0 &&
	       strcmp(a, "unknown") != 0;
}

/* The cause that is not the network, with what decides it. */
void explain_mpi_other(const struct explain_log *lg,
		       const struct explain_hit *h, struct explain_result *r)
{
	struct explain_cause *c = explain_cause_for(r, EXPLAIN_OTHER, false,
						    "mpi-transport");

	if (c == NULL)
		return;
	explain_add_ref(c, h);
	if (c->why[0] != '\0')
		return;
	snprintf(c->why, sizeof(c->why), "both processes are on host %s: "
		 "no network between nodes is involved; Open MPI found no "
		 "transport on that node (shared memory not loaded or "
		 "excluded) or failed in its own address exchange",
		 pair_host(lg, h, "1"));
	snprintf(c->next, sizeof(c->next), "on %s: ompi_info | grep 'MCA "
		 "btl'; rerun with --mca btl_base_verbose 100",
		 pair_host(lg, h, "1"));
}
