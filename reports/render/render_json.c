/* netprobe report: the merged document as JSON (schema netprobe-report/1),
 * keys sorted and indentation fixed like every netprobe document. It is
 * the model's document itself: there is nothing to walk. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "doc/json_indent.h"
#include "report_model.h"

/* Levels indented: a report goes 7 deep (tests/fixtures/report/golden),
 * and is written as jansson's JSON_INDENT(2) dump would write it, byte for
 * byte; a document's deeper text (its evidence, up to REPORT_MAX_DEPTH) is
 * written compact, so the report stays within a small multiple of its
 * documents (indenting at every level made 206 kB 417 MB, issue 45). */
#define REPORT_JSON_INDENT 10

int report_render_json(const struct report_model *m, FILE *fp)
{
	char *flat, *text;
	size_t n = 0;
	int rc = -1;

	flat = json_dumps(m->doc,
			  JSON_COMPACT | JSON_SORT_KEYS | JSON_ENSURE_ASCII);
	if (flat == NULL) {
		errno = ENOMEM;
		return -1;
	}
	text = json_indent_to(flat, strlen(flat), REPORT_JSON_INDENT, &n);
	/* NULL is no memory (jansson's own text is JSON, and no deeper than
	 * the indenter follows once REPORT_MAX_DEPTH bounds the documents) */
	if (text == NULL) {
		errno = ENOMEM;
		goto out;
	}
	if (fwrite(text, 1, n, fp) != n || fflush(fp) == EOF || ferror(fp))
		goto out;
	rc = 0;
out:
	free(text);
	free(flat);
	return rc;
}
