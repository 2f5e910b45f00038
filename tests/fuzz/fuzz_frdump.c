/* libFuzzer target for torch Flight Recorder dumps (issue 43): the input
 * is one dump file's bytes, pickle or JSON as its first byte says, read by
 * frdump_read_buf (the restricted pickle reader first); a dump that reads
 * is judged as two ranks' (itself as rank 0 and rank 2), and the verdict
 * made into findings and the document's object, as explain --fr-dumps
 * does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/frdump.h"
#include "doc/doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fr_dump *d = calloc(2, sizeof(*d));
	struct fr_verdict *v = calloc(1, sizeof(*v));
	struct doc doc;
	char why[256];
	json_t *j;

	if (d == NULL || v == NULL || size > (1u << 20))
		goto out;
	d[0].rank = 0;
	snprintf(d[0].file, sizeof(d[0].file), "fr_0");
	if (frdump_read_buf(data, size, &d[0], why, sizeof(why)) < 0) {
		if (why[0] == '\0') {
			fprintf(stderr, "fuzz_frdump: refused with no why\n");
			abort();
		}
		goto out;
	}
	/* the same dump as a second rank's, one entry shorter: a laggard */
	d[1] = d[0];
	d[1].rank = 2;
	d[1].entries = NULL;
	if (d[0].nentries > 0) {
		d[1].nentries = d[0].nentries - 1;
		d[1].entries = malloc(d[0].nentries * sizeof(*d[0].entries));
		if (d[1].entries == NULL)
			goto out;
		memcpy(d[1].entries, d[0].entries,
		       d[0].nentries * sizeof(*d[0].entries));
	}
	if (frdump_decide(d, 2, v) < 0)
		goto out;
	if (doc_init(&doc, "netprobe", "explain") == 0) {
		if (frdump_findings(&doc, v, "dumps") < 0)
			abort();
		j = frdump_json(v, "dumps");
		if (j == NULL || doc_set(&doc, "flight_recorder", j) < 0)
			abort();
		doc_free(&doc);
	}
	frdump_verdict_free(v);
out:
	if (d != NULL) {
		frdump_free(&d[0]);
		frdump_free(&d[1]);
	}
	free(d);
	free(v);
	return 0;
}
