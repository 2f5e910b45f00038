/* ncclcheck's messages (say.h): every error and warning line goes through
 * here, so all carry the same rank prefix. No CUDA, no NCCL. */
#include "results/say.h"

/* Formats first, then writes in one call, so lines of ranks that share a
 * terminal do not interleave mid-line. */
void nc_vsay_to(FILE *fp, const char *prefix, const char *fmt, va_list ap)
{
	char buf[NC_SAY_MAX + 1];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	fprintf(fp, "%s: %s\n", prefix, buf);
}

/* The variadic form of nc_vsay_to. */
void nc_say_to(FILE *fp, const char *prefix, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nc_vsay_to(fp, prefix, fmt, ap);
	va_end(ap);
}
