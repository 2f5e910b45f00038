/* libFuzzer target for NCCL RAS answers (issue 45): the input is the text
 * a RAS service sent to `netprobe explain --job` (at most RAS_MAX_ANSWER
 * bytes, NUL-terminated as ras_query hands it over, so a NUL inside ends
 * it there), parsed by ras_parse and, when it parses, made into explain's
 * JSON document (the job object and its findings) as the command does. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/ras_parse.h"
#include "explain/explain_int.h"
#include "probe/ras.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The answer as a document: explain_job's share after ras_parse, then
 * explain_emit in JSON mode (nothing is written: no stream). */
static void emit(const struct ras_state *st)
{
	struct explain_run *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return;
	r->o.json = true;
	r->o.job = true;
	r->o.no_probe = true;
	r->ras = *st;
	r->ras_tried = r->ras_answered = true;
	snprintf(r->ras_addr, sizeof(r->ras_addr), "localhost:28028");
	if (cmd_init(&r->run, "netprobe", "explain", NULL, NULL) == 0) {
		r->run.json = true;
		explain_decide(&r->lg, &r->res);
		/* an answer that parses is one explain can write down */
		if (explain_emit(r) < 0) {
			fprintf(stderr, "fuzz_ras: explain_emit failed\n");
			abort();
		}
	}
	doc_free(&r->run.doc);
	explain_log_free(&r->lg);
	for (int i = 0; i < r->npool; i++)
		free(r->pool[i]);
	free(r);
}

/* One answer, whole, as ras_query returns it. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ras_state *st;
	char *text;

	if (size > RAS_MAX_ANSWER)
		return 0;
	text = malloc(size + 1);
	st = malloc(sizeof(*st));
	if (text == NULL || st == NULL)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	if (ras_parse(text, st) == 0)
		emit(st);
out:
	free(st);
	free(text);
	return 0;
}
