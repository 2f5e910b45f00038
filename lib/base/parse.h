/* Checked parsers for numbers, durations and sizes: the only way command
 * lines and files turn text into numbers (never atoi). */
#ifndef NP_PARSE_H
#define NP_PARSE_H

#include <stddef.h>

/* Parses a whole decimal integer in [min, max] into *out. Returns 0, or -1
 * with *errstr set to a static phrase ("not a number", "too small",
 * "too large"). */
int parse_num(const char *s, long long min, long long max, long long *out,
	      const char **errstr);

/* Parses a duration with a unit: "250ms", "5s", "2m", "1h", "1.5s", "20us".
 * A bare number is seconds. Result in microseconds within [min_us, max_us].
 * Returns 0, or -1 with *errstr set. */
int parse_duration_us(const char *s, long long min_us, long long max_us,
		      long long *out, const char **errstr);

/* Parses a byte count with an optional K, M, G or T suffix (powers of 1024,
 * as nccl-tests does) and an optional trailing 'B'. Returns 0, or -1 with
 * *errstr set. */
int parse_size(const char *s, unsigned long long min, unsigned long long max,
	       unsigned long long *out, const char **errstr);

/* Formats a duration in microseconds as the shortest exact form parse
 * accepts ("250ms", "5s"). Returns buf. */
char *fmt_duration(long long us, char *buf, size_t len);

/* Formats a byte count as the shortest exact form parse_size accepts
 * ("4K", "1T", "1500"). Returns buf. */
char *fmt_size(unsigned long long n, char *buf, size_t len);

#endif
