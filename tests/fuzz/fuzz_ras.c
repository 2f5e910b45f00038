/* libFuzzer target for NCCL RAS answers (issues 45, 43): the input is
 * what a RAS service sent to `netprobe explain --job` (at most
 * RAS_MAX_ANSWER bytes, NUL-terminated as ras_query hands it over, so a
 * NUL inside ends it there), parsed by ras_parse_json when it is JSON and
 * ras_parse otherwise and, when it parses, its stragglers found (one look
 * and two) and made into explain's JSON document (the job object, the
 * verdict and the findings) as the command does; the same bytes are read
 * as a MONITOR stream too. */
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
static void emit(const struct ras_state *st,
		 const struct ras_straggler *sg, size_t n)
{
	struct explain_run *r = calloc(1, sizeof(*r));

	if (r == NULL)
		return;
	r->o.job = true;
	r->o.no_probe = true;
	r->ras = *st;
	r->ras_tried = r->ras_answered = true;
	r->o.watch_s = n % 2 ? 3 : 0;
	memcpy(r->stragglers, sg, n * sizeof(*sg));
	r->nstragglers = n;
	for (size_t i = 0; i < n; i++) {
		struct jv_suspect s = {"ras", sg[i].rank, "", "", sg[i].pid,
				       (int)i, "behind", "", false};

		snprintf(s.host, sizeof(s.host), "%s", sg[i].node);
		jv_suspect(&r->jv, &s);
		jv_event(&r->jv, (long long)i, NULL, "host", sg[i].node,
			 "%s", sg[i].op);
	}
	jv_host(&r->jv, r->nstragglers ? sg[0].node : "", true, "changed");
	jv_decide(&r->jv);
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
	static struct ras_straggler sg[RAS_MAX_STRAGGLERS];
	static struct ras_event ev[64];
	struct ras_state *st;
	char *text;
	size_t n;

	if (size > RAS_MAX_ANSWER)
		return 0;
	text = malloc(size + 1);
	st = malloc(sizeof(*st));
	if (text == NULL || st == NULL)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	if ((ras_answer_is_json(text) ? ras_parse_json(text, st)
				       : ras_parse(text, st)) == 0) {
		n = ras_stragglers(st, st, sg, RAS_MAX_STRAGGLERS);
		n = ras_stragglers(st, NULL, sg, RAS_MAX_STRAGGLERS);
		emit(st, sg, n);
	}
	(void)ras_parse_events(text, ev, 64, &n);
out:
	free(st);
	free(text);
	return 0;
}
