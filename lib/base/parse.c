/* Checked number, duration and size parsers shared by every program. */
#include "base/parse.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whole-string decimal integer with range check; the one integer parser. */
int parse_num(const char *s, long long min, long long max, long long *out,
	      const char **errstr)
{
	char *end;
	long long v;

	*errstr = "not a number";
	if (s == NULL || *s == '\0' || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (*end != '\0')
		return -1;
	if (errno == ERANGE || v > max) {
		*errstr = v < min ? "too small" : "too large";
		if (errno == ERANGE && v < 0)
			*errstr = "too small";
		return -1;
	}
	if (v < min) {
		*errstr = "too small";
		return -1;
	}
	*out = v;
	*errstr = NULL;
	return 0;
}

/* Decimal with optional fraction; the unit text is left in *unit. Shared by
 * durations and sizes so both accept the same number syntax. */
static int parse_decimal(const char *s, double *v, const char **unit,
			 const char **errstr)
{
	char *end;

	*errstr = "not a number";
	if (s == NULL || !(isdigit((unsigned char)*s) || *s == '.'))
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	if (end == s || errno == ERANGE || !isfinite(*v) || *v < 0)
		return -1;
	/* strtod takes hex and exponents; a duration or size never needs them */
	for (const char *p = s; p < end; p++)
		if (!isdigit((unsigned char)*p) && *p != '.')
			return -1;
	*unit = end;
	return 0;
}

/* Unit table for durations, in microseconds. */
int parse_duration_us(const char *s, long long min_us, long long max_us,
		      long long *out, const char **errstr)
{
	static const struct {
		const char *name;
		double us;
	} units[] = {
		{"", 1e6}, {"us", 1}, {"ms", 1e3}, {"s", 1e6},
		{"m", 60e6}, {"h", 3600e6},
	};
	const char *unit;
	double v, us = -1;

	if (parse_decimal(s, &v, &unit, errstr) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(unit, units[i].name) == 0)
			us = v * units[i].us;
	if (us < 0) {
		*errstr = "unknown unit (use us, ms, s, m or h)";
		return -1;
	}
	if (us > (double)max_us) {
		*errstr = "too large";
		return -1;
	}
	if (us < (double)min_us) {
		*errstr = "too small";
		return -1;
	}
	*out = llround(us);
	*errstr = NULL;
	return 0;
}

/* Sizes in bytes with binary suffixes, as nccl-tests' -b/-e take them. */
int parse_size(const char *s, unsigned long long min, unsigned long long max,
	       unsigned long long *out, const char **errstr)
{
	const char *unit;
	double v, mult = 1;

	if (parse_decimal(s, &v, &unit, errstr) < 0)
		return -1;
	switch (toupper((unsigned char)*unit)) {
	case '\0':
		break;
	case 'K':
		mult = 1024.0;
		unit++;
		break;
	case 'M':
		mult = 1024.0 * 1024;
		unit++;
		break;
	case 'G':
		mult = 1024.0 * 1024 * 1024;
		unit++;
		break;
	case 'T':
		mult = 1024.0 * 1024 * 1024 * 1024;
		unit++;
		break;
	case 'B':
		break;
	default:
		*errstr = "unknown suffix (use K, M, G or T)";
		return -1;
	}
	if ((*unit == 'B' || *unit == 'b') && unit[1] == '\0')
		unit++;
	if (*unit != '\0') {
		*errstr = "unknown suffix (use K, M, G or T)";
		return -1;
	}
	v *= mult;
	if (v != floor(v)) {
		*errstr = "not a whole number of bytes";
		return -1;
	}
	if (v > (double)max) {
		*errstr = "too large";
		return -1;
	}
	if (v < (double)min) {
		*errstr = "too small";
		return -1;
	}
	*out = (unsigned long long)v;
	*errstr = NULL;
	return 0;
}

/* Shortest exact rendering, so a printed value can be fed back. */
char *fmt_duration(long long us, char *buf, size_t len)
{
	if (us != 0 && us % 3600000000LL == 0)
		snprintf(buf, len, "%lldh", us / 3600000000LL);
	else if (us != 0 && us % 60000000LL == 0)
		snprintf(buf, len, "%lldm", us / 60000000LL);
	else if (us % 1000000 == 0)
		snprintf(buf, len, "%llds", us / 1000000);
	else if (us % 1000 == 0)
		snprintf(buf, len, "%lldms", us / 1000);
	else
		snprintf(buf, len, "%lldus", us);
	return buf;
}

char *fmt_size(unsigned long long n, char *buf, size_t len)
{
	static const char suffix[] = "KMGT";
	int i = -1;

	/* the largest power of 1024 that divides n exactly */
	while (n != 0 && n % 1024 == 0 && i < 3) {
		n /= 1024;
		i++;
	}
	if (i < 0)
		snprintf(buf, len, "%llu", n);
	else
		snprintf(buf, len, "%llu%c", n, suffix[i]);
	return buf;
}
