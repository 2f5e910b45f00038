/* netprobe report: the merged document as JSON (schema netprobe-report/1),
 * keys sorted and indentation fixed like every netprobe document. */
#include "report.h"

int report_render_json(const json_t *rep, FILE *fp)
{
	if (json_dumpf(rep, fp,
		       JSON_SORT_KEYS | JSON_INDENT(2) | JSON_ENSURE_ASCII) < 0)
		return -1;
	if (fputc('\n', fp) == EOF || fflush(fp) == EOF || ferror(fp))
		return -1;
	return 0;
}
