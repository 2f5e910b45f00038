/* netprobe report: small accessors over jansson values and formatters that
 * every stage shares. Calls nothing else in reports/. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "report.h"

const char *rj_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

const char *rj_strd(const json_t *o, const char *key, const char *def)
{
	const char *s = rj_str(o, key);

	return s != NULL ? s : def;
}

long long rj_int(const json_t *o, const char *key, long long def)
{
	json_t *v = json_object_get(o, key);

	if (json_is_integer(v))
		return json_integer_value(v);
	if (json_is_real(v))
		return (long long)json_real_value(v);
	return def;
}

double rj_num(const json_t *o, const char *key, double def)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : def;
}

json_t *rj_arr(const json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_array(v) ? v : NULL;
}

int rj_sev(const char *severity)
{
	if (severity == NULL)
		return 0;
	if (strcmp(severity, "fault") == 0)
		return 2;
	if (strcmp(severity, "warning") == 0)
		return 1;
	return 0;
}

char *rj_fmt_us(double us, char *buf, size_t len)
{
	if (us < 1000)
		snprintf(buf, len, "%.0fus", us);
	else if (us < 1000000)
		snprintf(buf, len, "%.2fms", us / 1000);
	else
		snprintf(buf, len, "%.2fs", us / 1000000);
	return buf;
}

const char *rj_basename(const char *path)
{
	const char *s = path != NULL ? strrchr(path, '/') : NULL;

	return s != NULL ? s + 1 : path;
}

/* Formats a span of seconds for humans ("31 s", "4 min 40 s",
 * "2 h 5 min"). */
static char *rj_fmt_span(long long s, char *buf, size_t len)
{
	if (s < 60)
		snprintf(buf, len, "%lld s", s < 0 ? 0 : s);
	else if (s < 3600 && s % 60 == 0)
		snprintf(buf, len, "%lld min", s / 60);
	else if (s < 3600)
		snprintf(buf, len, "%lld min %lld s", s / 60, s % 60);
	else
		snprintf(buf, len, "%lld h %lld min", s / 3600, s / 60 % 60);
	return buf;
}

char *rj_fmt_run(const char *started, long long span_s, const json_t *nodes,
		 char *buf, size_t len)
{
	char span[32];
	size_t l = 0, i;
	json_t *n;
	int k;

	buf[0] = '\0';
	if (started != NULL && strlen(started) >= 19)
		l = (size_t)snprintf(buf, len, "run %.10s %.8s UTC, over %s",
				     started, started + 11,
				     rj_fmt_span(span_s, span, sizeof(span)));
	json_array_foreach(nodes, i, n) {
		if (l >= len)
			break;
		k = snprintf(buf + l, len - l, "%s%s",
			     i ? ", " : l ? "; nodes " : "nodes ",
			     rj_strd(n, "name", "?"));
		l += k > 0 ? (size_t)k : 0;
	}
	return buf;
}

char *rj_fmt_bytes(double bytes, char *buf, size_t len)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	int i = 0;

	while (bytes >= 1024 && i < 4) {
		bytes /= 1024;
		i++;
	}
	if (bytes == (double)(long long)bytes)
		snprintf(buf, len, "%lld %s", (long long)bytes, unit[i]);
	else
		snprintf(buf, len, "%.1f %s", bytes, unit[i]);
	return buf;
}

int rj_sort(json_t *arr, int (*cmp)(const void *, const void *))
{
	size_t n = json_array_size(arr);
	json_t **v = calloc(n ? n : 1, sizeof(*v));

	if (v == NULL)
		return -1;
	for (size_t i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(arr, i));
	qsort(v, n, sizeof(*v), cmp);
	json_array_clear(arr);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(arr, v[i]);
	free(v);
	return 0;
}

json_t *rj_find2(const json_t *arr, const char *k1, const char *v1,
		 const char *k2, const char *v2)
{
	size_t i;
	json_t *e;

	json_array_foreach(arr, i, e)
		if (strcmp(rj_strd(e, k1, ""), v1) == 0 &&
		    strcmp(rj_strd(e, k2, ""), v2) == 0)
			return e;
	return NULL;
}

void rj_add_unique(json_t *arr, const char *s)
{
	size_t i;
	json_t *v;

	json_array_foreach(arr, i, v)
		if (strcmp(json_string_value(v), s) == 0)
			return;
	json_array_append_new(arr, json_string(s));
}

void *rj_alloc(struct rj_arena *a, size_t n, size_t size)
{
	void *p;

	if (a->n == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 16;
		void **v = realloc(a->mem, cap * sizeof(*v));

		if (v == NULL)
			return NULL;
		a->mem = v;
		a->cap = cap;
	}
	p = calloc(n ? n : 1, size);
	if (p != NULL)
		a->mem[a->n++] = p;
	return p;
}

void rj_arena_free(struct rj_arena *a)
{
	for (size_t i = 0; i < a->n; i++)
		free(a->mem[i]);
	free(a->mem);
	a->mem = NULL;
	a->n = a->cap = 0;
}

/* See report.h. */
long long rj_utc_ms(const char *s)
{
	struct tm tm = {0};
	int ms = 0, pos = 0, k;

	if (s == NULL ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon,
	           &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &pos) != 6)
		return -1;
	s += pos;
	if (*s == '.') {
		for (k = 0, s++; k < 9 && *s >= '0' && *s <= '9'; k++, s++)
			if (k < 3)
				ms = ms * 10 + (*s - '0');
		for (; k < 3; k++)
			ms *= 10;
	}
	if (strcmp(s, "Z") != 0)
		return -1;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (long long)timegm(&tm) * 1000 + ms;
}
