/* netprobe explain --fr-dumps DIR: torch's Flight Recorder dumps, one file
 * a rank, read and judged (lib/decide/frdump*.c); the hook explain.c and
 * explain_out.c call. */
#ifndef NP_EXPLAIN_FR_H
#define NP_EXPLAIN_FR_H

#include <stdio.h>

#include "decide/frdump.h"
#include "decide/jobverdict.h"
#include "doc/doc.h"

struct explain_fr {
	struct fr_verdict v;
	int nread, nbad;
	char bad[8][640]; /* files that could not be read, and why */
};

/* Reads every dump in dir (FILE names end in the rank: fr_0, fr_0.json;
 * a pickle wins over a JSON of the same rank), decides, and adds the
 * findings and the "flight_recorder" object (its timeline inside) to doc.
 * Returns the verdict (free with explain_fr_free), or NULL with why when
 * the folder cannot be read or holds no dump. */
struct explain_fr *explain_fr(const char *dir, struct doc *doc, char *why,
			      size_t whylen);
/* The verdict as text, on fp. */
void explain_fr_print(const struct explain_fr *x, const char *dir, FILE *fp);
void explain_fr_free(struct explain_fr *x);
/* With --job: the dumps' suspects (a rank that never arrived, did not
 * finish or wrote no dump; by rank, as the dumps name no host), their
 * times and what the dumps could not tell join jv before it is decided.
 * A desync names no suspect: it is a code bug, said as the source's word. */
void explain_fr_join(const struct explain_fr *x, struct job_verdict *jv);
/* After jv_decide: where no source names a suspect but the dumps show a
 * desync, the headline says so (a code bug, not the network). */
void explain_fr_settle(const struct explain_fr *x, struct job_verdict *jv);

#endif
