/* The side channel's exchanges (bootstrap.h): gather to the hub, a part
 * from the hub to each process, one buffer to all, the barrier. Every
 * wait and every send loop ends at the caller's deadline. */
#include "bootstrap/bootstrap.h"
#include "bootstrap/bootstrap_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/monoclock.h"

/* The hub waits until every process's next part is queued, then takes
 * one from each; clients send and go on. */
int sc_gather(struct sc *sc, const void *mine, size_t len, void *all,
	      long long deadline_us)
{
	char *out = all;

	if (out != NULL)
		memcpy(out + (size_t)sc->rank * len, mine, len);
	if (sc->nprocs <= 1)
		return 0;
	if (sc->failed)
		return -1;
	if (sc->rank != 0) {
		if (sc_send_frame(sc->hub_fd, SC_CONTRIB, mine, len,
				  deadline_us + SC_IO_GRACE_US) < 0) {
			sc_why(sc, "bootstrap: rank 0 unreachable: %s",
			    strerror(errno));
			return -1;
		}
		return sc_poll(sc);
	}
	for (;;) {
		int missing[64], nm = 0, total = 0;

		for (int i = 1; i < sc->nprocs; i++)
			if (sc->peers[i].q == NULL) {
				total++;
				if (nm < 64)
					missing[nm++] = i;
			}
		if (total == 0)
			break;
		if (sc_service(sc, mono_left_ms(deadline_us, 50)) < 0)
			return -1;
		if (mono_now_us() >= deadline_us) {
			char rb[256], msg[400];

			snprintf(msg, sizeof(msg), "ranks %s had not arrived "
				 "at the exchange after the deadline",
				 sc_ranges(missing, nm, rb, sizeof(rb)));
			sc_abort(sc, msg);
			sc->timed_out = true;
			return -1;
		}
	}
	for (int i = 1; i < sc->nprocs; i++) {
		struct sc_peer *pe = &sc->peers[i];
		struct sc_msg *m = pe->q;
		bool ok = m->len == len;

		pe->q = m->next;
		if (pe->q == NULL)
			pe->q_tail = NULL;
		if (ok && out != NULL)
			memcpy(out + (size_t)i * len, m->p, len);
		if (!ok)
			sc_why(sc, "bootstrap: rank %d sent %zu bytes, expected "
			    "%zu (different ncclcheck versions?)", i, m->len,
			    len);
		free(m->p);
		free(m);
	}
	return sc->failed ? -1 : 0;
}

/* Clients wait for their SC_RESULT; the hub sends every part within the
 * caller's deadline. */
int sc_scatterv(struct sc *sc, const void *const *parts, const size_t *lens,
		void **mine, size_t *mylen, long long deadline_us)
{
	*mine = NULL;
	*mylen = 0;
	if (sc->failed)
		return -1;
	if (sc->rank == 0) {
		long long dl = deadline_us + SC_IO_GRACE_US;

		for (int i = 1; i < sc->nprocs; i++)
			if (sc->peers[i].alive &&
			    sc_send_frame(sc->peers[i].fd, SC_RESULT, parts[i],
					  lens[i], dl) < 0)
				sc_hub_lost(sc, i, errno == ETIMEDOUT ?
						    "it took nothing in time" :
						    "connection closed");
		if (lens[0] > 0) {
			*mine = malloc(lens[0]);
			if (*mine == NULL) {
				sc_why(sc, "bootstrap: no memory");
				return -1;
			}
			memcpy(*mine, parts[0], lens[0]);
			*mylen = lens[0];
		}
		return sc->failed ? -1 : 0;
	}
	while (!sc->have_result) {
		if (sc_service(sc, mono_left_ms(deadline_us, 50)) < 0)
			return -1;
		if (!sc->have_result && mono_now_us() >= deadline_us) {
			sc_why(sc, "rank 0 did not complete the exchange in time");
			sc->timed_out = true;
			return -1;
		}
	}
	sc->have_result = false;
	*mine = sc->result;
	*mylen = sc->result_len;
	sc->result = NULL;
	sc->result_len = 0;
	return 0;
}

/* scatterv with one part for everyone. */
int sc_bcast(struct sc *sc, void *buf, size_t len, long long deadline_us)
{
	const void **parts = NULL;
	size_t *lens = NULL, got = 0;
	void *p = NULL;
	int rc = -1;

	if (sc->nprocs <= 1)
		return sc->failed ? -1 : 0;
	if (sc->rank == 0) {
		parts = malloc((size_t)sc->nprocs * sizeof(*parts));
		lens = malloc((size_t)sc->nprocs * sizeof(*lens));
		if (parts == NULL || lens == NULL) {
			sc_why(sc, "bootstrap: no memory");
			goto out;
		}
		for (int i = 0; i < sc->nprocs; i++) {
			parts[i] = buf;
			lens[i] = i == 0 ? 0 : len;
		}
	}
	if (sc_scatterv(sc, parts, lens, &p, &got, deadline_us) < 0)
		goto out;
	if (sc->rank != 0) {
		if (got != len) {
			sc_why(sc, "bootstrap: rank 0 sent %zu bytes, expected "
			    "%zu (different ncclcheck versions?)", got, len);
			goto out;
		}
		memcpy(buf, p, len);
	}
	rc = 0;
out:
	free(p);
	free(parts);
	free(lens);
	return rc;
}

/* One byte in, one byte out. */
int sc_barrier(struct sc *sc, long long deadline_us)
{
	char x = 0, *all = NULL;
	int rc;

	if (sc->nprocs <= 1)
		return sc->failed ? -1 : 0;
	if (sc->rank == 0) {
		all = calloc((size_t)sc->nprocs, 1);
		if (all == NULL) {
			sc_why(sc, "bootstrap: no memory");
			return -1;
		}
	}
	rc = sc_gather(sc, &x, 1, all, deadline_us);
	free(all);
	if (rc < 0)
		return -1;
	return sc_bcast(sc, &x, 1, deadline_us);
}

