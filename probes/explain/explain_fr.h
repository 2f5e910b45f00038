/* netprobe explain --fr-dumps DIR: torch's Flight Recorder dumps, one file
 * a rank, read and judged (lib/decide/frdump*.c); the hook explain.c and
 * explain_out.c call. */
#ifndef NP_EXPLAIN_FR_H
#define NP_EXPLAIN_FR_H

#include <stdio.h>

#include "decide/frdump.h"
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

#endif
