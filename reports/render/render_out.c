/* netprobe report: writing for the emitters. A printf whose %s arguments
 * go through the format's escaper, so an emitter writes a line of markup
 * and document text in one call and no text from a document reaches the
 * output unescaped. */
#include <stdarg.h>
#include <string.h>

#include "report_emit.h"

void out_raw(FILE *fp, const char *s)
{
	if (s != NULL)
		fputs(s, fp);
}

/* Writes the conversion at p (just past its '%'); returns what follows. */
static const char *conversion(const struct out *o, const char *p, va_list *ap)
{
	bool minus = false;
	int prec = 6, lng = 0;

	for (; *p == '-'; p++)
		minus = true;
	if (*p == '.') {
		p++;
		if (*p == '*') {
			prec = va_arg(*ap, int);
			p++;
		} else {
			for (prec = 0; *p >= '0' && *p <= '9'; p++)
				prec = prec * 10 + (*p - '0');
		}
	}
	for (; *p == 'l' || *p == 'z'; p++)
		lng = *p == 'z' ? 3 : lng + 1;
	switch (*p) {
	case 's':
		(minus ? o->alt : o->esc)(o->fp, va_arg(*ap, const char *));
		break;
	case 'd':
		if (lng == 2)
			fprintf(o->fp, "%lld", va_arg(*ap, long long));
		else if (lng != 0) /* l, or z: ssize_t is a long here */
			fprintf(o->fp, "%ld", va_arg(*ap, long));
		else
			fprintf(o->fp, "%d", va_arg(*ap, int));
		break;
	case 'u':
		if (lng == 3)
			fprintf(o->fp, "%zu", va_arg(*ap, size_t));
		else if (lng == 2)
			fprintf(o->fp, "%llu", va_arg(*ap, unsigned long long));
		else if (lng == 1)
			fprintf(o->fp, "%lu", va_arg(*ap, unsigned long));
		else
			fprintf(o->fp, "%u", va_arg(*ap, unsigned));
		break;
	case 'f':
		fprintf(o->fp, "%.*f", prec, va_arg(*ap, double));
		break;
	case '%':
		fputc('%', o->fp);
		break;
	default: /* not used: the format attribute names every caller */
		return *p != '\0' ? p + 1 : p;
	}
	return p + 1;
}

void out_f(const struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	while (*fmt != '\0') {
		const char *pct = strchr(fmt, '%');

		if (pct == NULL) {
			fputs(fmt, o->fp);
			break;
		}
		fwrite(fmt, 1, (size_t)(pct - fmt), o->fp);
		fmt = conversion(o, pct + 1, &ap);
	}
	va_end(ap);
}

void out_port(const struct out *o, const json_t *port, bool alt)
{
	if (json_is_integer(port))
		fprintf(o->fp, "%lld", (long long)json_integer_value(port));
	else
		(alt ? o->alt : o->esc)(o->fp, json_string_value(port));
}

/* See report_emit.h: the one loop over a cites array, each format giving
 * only what wraps a citation. */
void out_cites(const struct out *o, const json_t *arr, const char *pre,
	       const char *post, bool alt)
{
	void (*put)(FILE *, const char *) = alt ? o->alt : o->esc;
	size_t i;
	json_t *c;

	json_array_foreach(arr, i, c) {
		out_raw(o->fp, i ? ", " : "");
		out_raw(o->fp, pre);
		if (rj_str(c, "node") != NULL) {
			put(o->fp, rj_str(c, "node"));
			fputc(':', o->fp);
		}
		put(o->fp, rj_str(c, "code"));
		out_raw(o->fp, post);
	}
}
