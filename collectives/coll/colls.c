/* The table of collectives: one descriptor per collective (coll_*.c),
 * looked up by enum or by name. Its rows come from colls.def; the
 * coll_*.c files know none of the others. No CUDA. */
#include "coll/coll.h"

#include <string.h>

static const struct nc_coll_desc *const colls[NC_NCOLL] = {
#define NC_COLL(id, file) [NC_##id] = &nc_coll_##file,
#include "coll/colls.def"
#undef NC_COLL
};
/* The descriptor table, indexed by enum nc_coll. */
const struct nc_coll_desc *nc_coll_get(enum nc_coll c)
{
	return colls[c];
}

/* Accepts nccl-tests' spellings too: "allreduce", "all_reduce". */
int nc_coll_parse(const char *s)
{
	char buf[32];
	size_t j = 0;

	for (size_t i = 0; s[i] != '\0' && j < sizeof(buf) - 1; i++)
		if (s[i] != '_' && s[i] != '-')
			buf[j++] = s[i];
	buf[j] = '\0';
	for (int c = 0; c < NC_NCOLL; c++) {
		char n[32];
		size_t k = 0;

		for (const char *p = colls[c]->name; *p != '\0'; p++)
			if (*p != '_')
				n[k++] = *p;
		n[k] = '\0';
		if (strcmp(buf, n) == 0)
			return c;
	}
	return -1;
}

/* Writes words of text to fp from column `col` on, folded before column
 * 76 with a 4-space indent. */
static void fold(FILE *fp, const char *text, size_t col)
{
	const char *p = text;

	while (*p != '\0') {
		size_t w = strcspn(p, " ");

		if (col + 1 + w > 76 && col > 4) {
			fputs("\n   ", fp);
			col = 3;
		}
		fprintf(fp, " %.*s", (int)w, p);
		col += 1 + w;
		p += w;
		p += strspn(p, " ");
	}
	fputc('\n', fp);
}

int nc_coll_list(FILE *fp)
{
	for (int c = 0; c < NC_NCOLL; c++) {
		const struct nc_coll_desc *d = colls[c];
		bool dflt = c == NC_ALL_REDUCE;
		int n = fprintf(fp, "%s%s%s%s%s:", d->name,
				dflt || d->in_place ? " (" : "",
				dflt ? "default" : "",
				dflt && d->in_place ? ", " : "",
				d->in_place ? "in place too)" : dflt ? ")" : "");

		char text[512];

		if (n < 0)
			return -1;
		/* the factor's words come from the field busbw is computed
		 * from, so the two cannot disagree */
		snprintf(text, sizeof(text), "%s; busbw factor %s", d->about,
			 nc_busf_text(d->busf));
		fold(fp, text, (size_t)n);
	}
	return fflush(fp) == 0 && !ferror(fp) ? 0 : -1;
}
