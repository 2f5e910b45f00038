/* netprobe report: the merged document as JSON (schema netprobe-report/1),
 * keys sorted and indentation fixed like every netprobe document. It is
 * the model's document itself: there is nothing to walk. */
#include "report_model.h"

int report_render_json(const struct report_model *m, FILE *fp)
{
	if (json_dumpf(m->doc, fp,
		       JSON_SORT_KEYS | JSON_INDENT(2) | JSON_ENSURE_ASCII) < 0)
		return -1;
	if (fputc('\n', fp) == EOF || fflush(fp) == EOF || ferror(fp))
		return -1;
	return 0;
}
