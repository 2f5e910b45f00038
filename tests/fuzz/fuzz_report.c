/* libFuzzer target for `netprobe report`'s document loader and everything
 * after it: up to three documents (the input split at NUL bytes) loaded,
 * the duplicates settled, the model built and every format rendered. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Renders m in every format into memory. */
static void render_all(const struct report_model *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (fp == NULL)
		return;
	report_render_text(m, fp, true);
	report_render_md(m, fp);
	report_render_html(m, fp);
	report_render_json(m, fp);
	report_render_junit(m, fp, REPORT_FAIL_WARNING);
	report_gate(m, REPORT_FAIL_WARNING);
	fclose(fp);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {"a.json", "b.json", "c.json"};
	struct report_set set = {0};
	struct report_model *m;
	const uint8_t *p = data, *end = data + size;
	char why[512];

	if (size > 1 << 20)
		return 0;
	for (int i = 0; i < 3 && p <= end; i++) {
		const uint8_t *z = memchr(p, 0, (size_t)(end - p));
		size_t n = z ? (size_t)(z - p) : (size_t)(end - p);

		if (report_load_buffer(&set, names[i], (const char *)p, n) < 0)
			break;
		if (z == NULL)
			break;
		p = z + 1;
	}
	if (report_dedupe(&set, data[0] & 1 ? REPORT_DUP_NEWEST
					    : REPORT_DUP_REFUSE,
			  NULL, why, sizeof(why)) == 0) {
		m = report_build(&set);
		if (m != NULL)
			render_all(m);
		report_model_free(m);
	}
	report_set_free(&set);
	return 0;
}
