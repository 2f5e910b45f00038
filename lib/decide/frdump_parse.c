/* A Flight Recorder dump's tree (from the pickle reader or from JSON) into
 * struct fr_dump: the keys torch has written since FR version 2.0, in
 * either form (JSON writes a missing time as 0 and pg_status's numbers as
 * strings; the pickle writes None and integers). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decide/frdump.h"

static int fail(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Says why; returns -1. */
static int fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -1;
}

void frdump_utf8_trim(char *s)
{
	size_t n = strlen(s), i = n, want;
	unsigned char c;

	while (i > 0 && n - i < 4 && ((unsigned char)s[i - 1] & 0xc0) == 0x80)
		i--;
	if (i == 0)
		return;
	c = (unsigned char)s[i - 1];
	if (c < 0x80)
		return;
	want = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
	if (n - (i - 1) < want)
		s[i - 1] = '\0';
}

static void copy(char *dst, size_t cap, const json_t *s)
{
	snprintf(dst, cap, "%s", json_is_string(s) ? json_string_value(s) : "");
	frdump_utf8_trim(dst);
}

/* An integer that may come as a string (JSON's pg_status) or a real (a
 * real out of long long's range is none: dflt). */
static long long num(const json_t *v, long long dflt)
{
	if (json_is_integer(v))
		return (long long)json_integer_value(v);
	if (json_is_real(v)) {
		double r = json_real_value(v);

		return r > -9.2e18 && r < 9.2e18 ? (long long)r : dflt;
	}
	if (json_is_string(v)) {
		char *end;
		long long n = strtoll(json_string_value(v), &end, 10);

		return *end == '\0' && end != json_string_value(v) ? n : dflt;
	}
	return dflt;
}

/* The first key of names that the object has. */
static json_t *pick(const json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);

	return v != NULL || b == NULL ? v : json_object_get(o, b);
}

/* A list as compact JSON ("[[4096]]"), cut to cap; dtypes joined. */
static void render(char *dst, size_t cap, const json_t *v)
{
	char *s;

	dst[0] = '\0';
	if (v == NULL || json_is_null(v))
		return;
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
	if (s == NULL)
		return;
	snprintf(dst, cap, "%s", s);
	frdump_utf8_trim(dst);
	free(s);
}

/* The caller's frame: the first that is not torch's own code, so the
 * line in the user's script that made the collective. */
static void frame_of(char *dst, size_t cap, const json_t *frames)
{
	size_t i;
	json_t *f;

	dst[0] = '\0';
	json_array_foreach(frames, i, f) {
		const char *file = json_string_value(json_object_get(f,
							"filename"));
		const char *name = json_string_value(json_object_get(f,
							"name"));

		if (file == NULL || strstr(file, "/torch/") != NULL)
			continue;
		snprintf(dst, cap, "%s (%s:%lld)", name ? name : "?", file,
			 num(json_object_get(f, "line"), 0));
		frdump_utf8_trim(dst);
		return;
	}
}

/* The group named name in d, added when new; -1 when there are too
 * many. */
static int group(struct fr_dump *d, const char *name, const char *desc,
		 const char *op)
{
	struct fr_pg *g;
	const char *colon = strchr(op, ':');

	for (int i = 0; i < d->npgs; i++)
		if (strcmp(d->pgs[i].name, name) == 0)
			return i;
	if (d->npgs >= FR_MAX_PGS)
		return -1;
	g = &d->pgs[d->npgs];
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	snprintf(g->desc, sizeof(g->desc), "%s", desc);
	g->enqueued = -1;
	if (colon != NULL)
		snprintf(g->backend, sizeof(g->backend), "%.*s",
			 (int)(colon - op), op);
	frdump_utf8_trim(g->backend);
	return d->npgs++;
}

/* A ranks value: "[0, 1]" as torch writes it, or a list. */
static void parse_ranks(struct fr_pg *g, const json_t *rk)
{
	const char *s = json_string_value(rk);
	size_t k;
	json_t *x;

	g->nranks = 0;
	json_array_foreach(rk, k, x)
		if (g->nranks < 64 && json_is_integer(x) &&
		    json_integer_value(x) >= 0 &&
		    json_integer_value(x) < FR_MAX_RANKS)
			g->ranks[g->nranks++] = (int)json_integer_value(x);
	while (s != NULL && *s != '\0' && g->nranks < 64) {
		char *end;
		long v = strtol(s, &end, 10);

		if (end == s) {
			s++;
			continue;
		}
		if (v >= 0 && v < FR_MAX_RANKS)
			g->ranks[g->nranks++] = (int)v;
		s = end;
	}
}

/* pg_config's ranks ("[0, 1]" as torch writes it, or a list) for the
 * groups whose name it gives. */
static void config_ranks(struct fr_dump *d, const json_t *cfg)
{
	const char *key;
	json_t *c;

	json_object_foreach((json_t *)cfg, key, c) {
		const json_t *rk = json_object_get(c, "ranks");
		struct fr_pg any = {.nranks = 0};

		/* every rank of any group is a rank of the world: Gloo
		 * registers its groups under an empty name, so this is
		 * what its dumps say of the world's size */
		parse_ranks(&any, rk);
		for (int k = 0; k < any.nranks; k++)
			if (any.ranks[k] + 1 > d->world_hint)
				d->world_hint = any.ranks[k] + 1;
		for (int i = 0; i < d->npgs; i++)
			if (strcmp(d->pgs[i].name, key) == 0)
				parse_ranks(&d->pgs[i], rk);
	}
}

/* One entry of the dump. */
static int entry(struct fr_dump *d, const json_t *e, struct fr_entry *out)
{
	const json_t *pg = pick(e, "process_group", "pg_name");
	const json_t *done = json_object_get(e, "time_discovered_completed_ns");
	char name[64], desc[64];
	int gi;

	memset(out, 0, sizeof(*out));
	copy(out->op, sizeof(out->op), json_object_get(e, "profiling_name"));
	if (json_is_array(pg)) {
		copy(name, sizeof(name), json_array_get(pg, 0));
		copy(desc, sizeof(desc), json_array_get(pg, 1));
	} else {
		snprintf(name, sizeof(name), "%lld",
			 num(json_object_get(e, "pg_id"), 0));
		copy(desc, sizeof(desc), pg);
	}
	if ((gi = group(d, name, desc, out->op)) < 0)
		return -1;
	out->pg = gi;
	out->p2p = json_is_true(json_object_get(e, "is_p2p"));
	out->seq = out->p2p ? num(json_object_get(e, "p2p_seq_id"), -1) :
		   num(pick(e, "collective_seq_id", "seq_id"), -1);
	copy(out->state, sizeof(out->state), json_object_get(e, "state"));
	out->completed = strcmp(out->state, "completed") == 0 ||
			 num(done, 0) > 0;
	out->retired = json_is_true(json_object_get(e, "retired"));
	out->created_ns = num(json_object_get(e, "time_created_ns"), 0);
	out->timeout_ms = num(json_object_get(e, "timeout_ms"), 0);
	render(out->in_sizes, sizeof(out->in_sizes),
	       json_object_get(e, "input_sizes"));
	render(out->dtypes, sizeof(out->dtypes),
	       json_object_get(e, "input_dtypes"));
	frame_of(out->frame, sizeof(out->frame), json_object_get(e, "frames"));
	return 0;
}

/* Only the latest FR_KEEP collectives of each group stay (p2p ops
 * aside): the verdict reads the end of each rank's record, and a job of
 * thousands of ranks must fit in memory. */
static void keep_latest(struct fr_dump *d)
{
	size_t count[FR_MAX_PGS] = {0}, seen[FR_MAX_PGS] = {0}, out = 0;
	struct fr_entry *e;

	for (size_t i = 0; i < d->nentries; i++)
		count[d->entries[i].pg]++;
	for (size_t i = 0; i < d->nentries; i++) {
		int g = d->entries[i].pg;

		if (count[g] - seen[g]++ > FR_KEEP)
			continue;
		if (out != i)
			d->entries[out] = d->entries[i];
		out++;
	}
	d->nentries = out;
	e = realloc(d->entries, (out + 1) * sizeof(*e));
	if (e != NULL)
		d->entries = e;
}

/* pg_status: how far each group got by its counters (the record's
 * ring may have lost a group's entries that the counter still counts). */
static void status(struct fr_dump *d, const json_t *st)
{
	for (int i = 0; i < d->npgs; i++) {
		const json_t *s = json_object_get(st, d->pgs[i].name);

		d->pgs[i].enqueued = num(json_object_get(s,
					"last_enqueued_collective"), -1);
	}
}

int frdump_parse(const json_t *root, struct fr_dump *d, char *why,
		 size_t whylen)
{
	const json_t *ents = json_object_get(root, "entries");
	const char *ver = json_string_value(json_object_get(root, "version"));
	size_t i;
	json_t *e;

	d->npgs = 0;
	d->world_hint = 0;
	d->entries = NULL;
	d->nentries = 0;
	if (!json_is_object(root))
		return fail(why, whylen, "the dump is not a dict");
	if (ver == NULL)
		return fail(why, whylen, "the dump has no version");
	if (strtol(ver, NULL, 10) != 2)
		return fail(why, whylen, "Flight Recorder version '%.15s' not "
			    "known (2.x is)", ver);
	snprintf(d->version, sizeof(d->version), "%s", ver);
	copy(d->comm_lib, sizeof(d->comm_lib),
	     json_object_get(root, "comm_lib_version"));
	if (!json_is_array(ents))
		return fail(why, whylen, "the dump has no entries list");
	if (json_array_size(ents) > FR_MAX_ENTRIES)
		return fail(why, whylen, "the dump has %zu entries (at most "
			    "%d)", json_array_size(ents), FR_MAX_ENTRIES);
	if (json_array_size(ents) > 0) {
		d->entries = calloc(json_array_size(ents), sizeof(*d->entries));
		if (d->entries == NULL) {
			errno = ENOMEM;
			return fail(why, whylen, "out of memory");
		}
	}
	json_array_foreach(ents, i, e) {
		if (!json_is_object(e))
			continue;
		if (entry(d, e, &d->entries[d->nentries]) < 0) {
			frdump_free(d);
			return fail(why, whylen, "the dump has more than %d "
				    "process groups", FR_MAX_PGS);
		}
		d->nentries++;
	}
	keep_latest(d);
	config_ranks(d, json_object_get(root, "pg_config"));
	status(d, json_object_get(root, "pg_status"));
	return 0;
}

int frdump_read_buf(const unsigned char *buf, size_t len, struct fr_dump *d,
		    char *why, size_t whylen)
{
	json_t *root;
	json_error_t err;
	int rc;

	if (len > 0 && buf[0] == 0x80) {
		d->pickle = true;
		root = frp_load(buf, len, why, whylen);
	} else {
		d->pickle = false;
		if (len > FRP_MAX_BYTES)
			return fail(why, whylen, "dump of %zu bytes (at most "
				    "%u)", len, FRP_MAX_BYTES);
		root = json_loadb((const char *)buf, len,
				  JSON_REJECT_DUPLICATES, &err);
		if (root == NULL)
			fail(why, whylen, "neither a pickle nor JSON (%s at "
			     "line %d)", err.text, err.line);
	}
	if (root == NULL)
		return -1;
	rc = frdump_parse(root, d, why, whylen);
	json_decref(root);
	return rc;
}

void frdump_free(struct fr_dump *d)
{
	free(d->entries);
	d->entries = NULL;
	d->nentries = 0;
}
