/* netprobe report: load many netprobe and ncclcheck documents, decide
 * across nodes once, and render one report (man/netprobe-json.5,
 * "report"). Stages, each calling only those before it: load (load.c),
 * merge (report_merge.h), decide (report_decide.h), model
 * (report_model.h); renderers walk the model (report_emit.h). */
#ifndef NP_REPORT_H
#define NP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "base/outfile.h"
#include "base/xmlesc.h"

#define REPORT_SCHEMA "netprobe-report/1"

/* One document that loaded and passed the schema check. */
struct report_input {
	char *path;  /* as the user named it, or DIR/NAME */
	json_t *doc; /* owned */
};

/* One file that could not be used, and why. */
struct report_skip {
	char *path;
	int line;        /* 1-based; 0 when the position does not apply */
	int column;      /* as jansson counts it */
	long position;   /* byte offset; -1 when it does not apply */
	char why[256];   /* lower case, no full stop */
};

/* Bounds on what report_load_path reads, far above the 1,024 documents
 * (29 MB of text, 170 MB of memory) of bench/mesh's largest report: past
 * them the load refuses by name rather than drop a file (issue 45). */
#define REPORT_MAX_FILES 65536
#define REPORT_MAX_BYTES (1024UL * 1024 * 1024) /* in all */
#define REPORT_MAX_FILE_BYTES (64L * 1024 * 1024) /* one file */

/* How deep a document may nest: those netprobe and ncclcheck write go 7
 * levels deep (tests/fixtures/report); a deeper one is named and left
 * out, so nothing of it reaches a renderer. */
#define REPORT_MAX_DEPTH 64

struct report_set {
	struct report_input *in;
	size_t nin, capin;
	struct report_skip *skip;
	size_t nskip, capskip;
	size_t bytes;              /* read by report_load_path so far */
	size_t max_files;          /* 0: REPORT_MAX_FILES (tests lower it) */
	size_t max_bytes;          /* 0: REPORT_MAX_BYTES */
	char *over;                /* the first file not read, past a bound */
	char overwhy[256];         /* which bound: "more than N documents" */
};

/* What decides the exit status: --fail-on. */
enum report_fail_on {
	REPORT_FAIL_NEVER = 0,
	REPORT_FAIL_WARNING,
	REPORT_FAIL_FAULT,
};

/* The formats a report is written in: --format. */
enum report_format {
	REPORT_FMT_TEXT,
	REPORT_FMT_MD,
	REPORT_FMT_HTML,
	REPORT_FMT_JSON,
	REPORT_FMT_JUNIT,
};

/* --format (text, markdown or md, html, json, junit) and --fail-on
 * (warning, fault, never) by name, as netprobe report and netprobe mesh
 * take them. Return 0, or -1 for an unknown name. */
int report_format_parse(const char *s, enum report_format *out);
int report_fail_on_parse(const char *s, enum report_fail_on *out);

/* Loads one file, or every *.json file of a directory in name order, into
 * the set. Files that cannot be used are recorded in s->skip and do not
 * fail the call. Returns 0; -1 with errno ENOMEM on no memory; or -1 with
 * errno E2BIG when the set would pass its bound on files or bytes: s->over
 * then names the first file not read (a directory whose files would pass
 * it is refused before any of them is read) and s->overwhy the bound, and
 * every later call is refused alike. */
int report_load_path(struct report_set *s, const char *path);

/* Loads a document from memory as if read from `name` (node 0 of a mesh,
 * tests), outside the bounds on files and bytes (a mesh bounds its own
 * members). Returns 0, or -1 with errno on no memory; a bad document,
 * one nested deeper than REPORT_MAX_DEPTH included, goes to s->skip. */
int report_load_buffer(struct report_set *s, const char *name,
		       const char *buf, size_t len);

/* Two snapshots (scan, ifaces, layers) of one node: refused, or which one
 * is kept (--allow-duplicates). */
enum report_dup {
	REPORT_DUP_REFUSE = 0,
	REPORT_DUP_FIRST,  /* the one given first */
	REPORT_DUP_LAST,   /* the one given last */
	REPORT_DUP_NEWEST, /* the one started last */
};

/* --allow-duplicates by name (first, last, newest). Returns 0, or -1. */
int report_dup_parse(const char *s, enum report_dup *out);

struct cmd_run; /* doc/cmdrun.h: how a command speaks */

/* Finds snapshots of one node by one command among the loaded documents.
 * Under REPORT_DUP_REFUSE returns -1 with why naming both files; else
 * keeps the winner, says which through note's run (NULL: quiet) and
 * returns 0. */
int report_dedupe(struct report_set *s, enum report_dup policy,
		  struct cmd_run *note, char *why, size_t whylen);

/* Releases everything the set holds. Safe on a zeroed set. */
void report_set_free(struct report_set *s);

/* The report, decided once: the merged document and its layout. Renderers
 * only read it (report_model.h). */
struct report_model;

/* Merges and decides across every loaded document, once, and lays the
 * result out for the renderers. Returns the model, or NULL on no memory.
 * Pure: reads only the set, which may be freed afterwards. */
struct report_model *report_build(const struct report_set *s);

/* Releases the model. Safe on NULL. */
void report_model_free(struct report_model *m);

/* The merged document (schema REPORT_SCHEMA), owned by the model. */
const json_t *report_doc(const struct report_model *m);

/* The exit status the report means under fail_on: 0 pass, 1 fail. Any
 * input file skipped, or any error a document holds (a part that could
 * not run), fails it unless fail_on is REPORT_FAIL_NEVER. */
int report_gate(const struct report_model *m, enum report_fail_on fail_on);

/* Text with every pair of the matrix and every citation (-v); without,
 * the reachable pairs are one line and the citations left out. */
void report_set_verbose(struct report_model *m, bool verbose);

/* Renderers: each writes the whole report to fp. Return 0, or -1 when a
 * write failed. Colour only when `colour` is set (text). */
int report_render_text(const struct report_model *m, FILE *fp, bool colour);
int report_render_md(const struct report_model *m, FILE *fp);
int report_render_html(const struct report_model *m, FILE *fp);
int report_render_json(const struct report_model *m, FILE *fp);
int report_render_junit(const struct report_model *m, FILE *fp,
			enum report_fail_on fail_on);

/* Writes the report in format f to path through outfile_open (oo: its
 * options, NULL for none: a regular file replaced atomically, a device or
 * FIFO written in place), or to stdout for NULL or "-" (colour for text on
 * a terminal without NO_COLOR). Returns 0, or -1 with "cannot write
 * 'path'" (or why it refused) reported through run (cmd_fail). */
int report_emit(const struct report_model *m, const char *path,
		enum report_format f, enum report_fail_on fail_on,
		struct cmd_run *run, const struct outfile_opts *oo);

/* Small accessors shared by every stage (util.c). */

/* The string at key, or NULL when absent or not a string. */
const char *rj_str(const json_t *o, const char *key);
/* The string at key, or def. */
const char *rj_strd(const json_t *o, const char *key, const char *def);
/* The integer (or real, truncated) at key; def when absent or null. */
long long rj_int(const json_t *o, const char *key, long long def);
/* The number at key as a double; def when absent or null. */
double rj_num(const json_t *o, const char *key, double def);
/* The array at key, or NULL when absent (jansson's array calls and
 * json_array_foreach accept NULL as empty). */
json_t *rj_arr(const json_t *o, const char *key);
/* Severity rank: fault 2, warning 1, anything else 0. */
int rj_sev(const char *severity);
/* Milliseconds since the epoch of an RFC 3339 UTC time as the watch
 * writes them ("2026-12-06T09:27:48.123Z"; the fraction optional, up to
 * nine digits), -1 when s is NULL or not that. */
long long rj_utc_ms(const char *s);
/* Formats microseconds for humans ("412us", "1.25ms", "2.00s"). */
char *rj_fmt_us(double us, char *buf, size_t len);
/* The name of a file without its directories: the paths of the machine
 * that renders a report stay out of it. */
const char *rj_basename(const char *path);
/* The when-and-where line of a report: "2026-11-21 17:29:51 UTC, over
 * 4 min 40 s; nodes gpu-a, gpu-b" ("" when no document says when). */
char *rj_fmt_run(const char *started, long long span_s, const json_t *nodes,
		 char *buf, size_t len);
/* Formats a byte count for humans ("8 B", "64 KiB", "128 MiB"). */
char *rj_fmt_bytes(double bytes, char *buf, size_t len);
/* Sorts a JSON array in place with cmp (over json_t * elements). Returns
 * 0, or -1 on no memory. */
int rj_sort(json_t *arr, int (*cmp)(const void *, const void *));
/* The first object of arr whose k1 and k2 hold the strings v1 and v2, or
 * NULL. */
json_t *rj_find2(const json_t *arr, const char *k1, const char *v1,
		 const char *k2, const char *v2);
/* Appends the string s to arr unless it is there. */
void rj_add_unique(json_t *arr, const char *s);

/* Memory freed all at once. */
struct rj_arena {
	void **mem;
	size_t n, cap;
};
/* Zeroed memory for n items of size bytes (at least one), freed with the
 * arena; NULL on no memory. */
void *rj_alloc(struct rj_arena *a, size_t n, size_t size);
/* Frees everything the arena gave; safe on a zeroed arena. */
void rj_arena_free(struct rj_arena *a);

/* `netprobe report`: argv as main gives it (argv[0] "report"); returns
 * the exit status (0 no fault, 1 fault found, 2 could not run). Declared
 * here, not in probes/commands.h, so reports/ needs nothing of probes/. */
int cmd_report(int argc, char **argv);

#endif
