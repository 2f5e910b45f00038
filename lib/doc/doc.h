/* One JSON document per run (man/netprobe-json.5): schema, tool, version,
 * host, started, the results, findings and errors. Built with jansson. */
#ifndef NP_DOC_H
#define NP_DOC_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "base/outfile.h"
#include "doc/finding.h"

#define DOC_SCHEMA "netprobe/1"
#define DOC_SCHEMA_MAJOR 1

struct doc {
	json_t *root;     /* the whole document */
	json_t *findings; /* borrowed from root */
	json_t *errors;   /* borrowed from root */
	int nfault;       /* findings of severity fault */
	int nwarning;
	int nerror;       /* errors: a part that could not run */
};

/* Starts a document for tool ("netprobe" or "ncclcheck") and command ("scan";
 * NULL for none). `started` is taken now; doc_set_started overrides it for
 * golden tests. Returns 0, or -1 with errno ENOMEM. */
int doc_init(struct doc *d, const char *tool, const char *command);

/* Releases the document. Safe on a zeroed struct. */
void doc_free(struct doc *d);

/* Replaces `started` and `host` (golden files need fixed values). */
void doc_set_fixed(struct doc *d, const char *started, const char *host);

/* Sets a top-level result key, stealing the reference to val. Returns 0, or
 * -1 when val is NULL (a failed allocation) or the key is reserved. */
int doc_set(struct doc *d, const char *key, json_t *val);

/* The last finding added gets "command": one shell line that is the whole
 * of its fix on this node, runnable as it stands (the report makes it a
 * root cause's command, which the closed loop runs verbatim). Returns 0,
 * or -1 with errno EINVAL (no finding yet) or ENOMEM. */
int doc_finding_command(struct doc *d, const char *cmd);

/* Adds a finding: severity from the catalogue unless sev >= 0 overrides it,
 * summary formatted from fmt, evidence an array of {fact, source} objects
 * (stolen; NULL for none), fix the exact change (NULL: the catalogue's).
 * Returns 0, or -1 with errno ENOMEM (no memory) or EINVAL (a code out of
 * range, which only a cast can make). */
int doc_add_finding(struct doc *d, enum finding_code code, int sev,
		    json_t *evidence, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Appends one {fact, source} object to an evidence array (created when *ev
 * is NULL). Returns 0, or -1 on no memory. */
int evidence_add(json_t **ev, const char *source, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Records an error: what could not be done and why. `what` names the step
 * ("netlink", "sysroot"); the message follows the house style. */
int doc_add_error(struct doc *d, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Moves from's findings and errors to the end of into's, counts too
 * (from is left empty): what a probe thread found joins the document.
 * Returns 0, or -1 with errno ENOMEM. */
int doc_merge(struct doc *into, struct doc *from);

/* True when a finding with this code is present (tests and deciders). */
bool doc_has_finding(const struct doc *d, const char *code);

/* Writes the document with sorted keys and fixed indentation, then a
 * newline. Returns 0, or -1 when the write failed. */
int doc_write(const struct doc *d, FILE *fp);

/* Writes to path ("-" for stdout) through outfile_open: a regular file is
 * replaced atomically (never half a document), a device, FIFO or socket
 * written in place, a symlink followed. Returns 0, or -1 with errno. */
int doc_write_file(const struct doc *d, const char *path);

/* doc_write_file with options (--no-clobber, the run's inputs); on failure
 * the whole message ("refusing to write 'x': it is also an input") goes to
 * why when it is not NULL. Returns 0, or -1 with errno. */
int doc_write_output(const struct doc *d, const char *path,
		     const struct outfile_opts *opts, char *why,
		     size_t whylen);

/* The same for any JSON value (a peer's document kept by the mesh). */
int doc_json_write_output(const json_t *j, const char *path,
			  const struct outfile_opts *opts, char *why,
			  size_t whylen);

/* The same for a document that came as JSON text and was parsed (a
 * member's, kept by node 0 of a mesh): the text indented as doc_write
 * would write its tree (json_indent.h), without dumping a tree; parsed,
 * the tree, is dumped only when the text cannot be indented so. */
int doc_text_write_output(const char *text, size_t len, const json_t *parsed,
                          const char *path, const struct outfile_opts *opts,
                          char *why, size_t whylen);

/* Exit status for the run: 2 when errors prevented the main job (caller
 * decides via `ran`), 1 when a fault was found, else 0. */
int doc_exit_status(const struct doc *d, bool ran);

/* Text output shared by the commands: one line per finding, "SEVERITY
 * CODE: SUMMARY", then "  fix: FIX" when with_fix. Returns 0, or -1 when
 * the write failed. */
int doc_print_findings(const struct doc *d, FILE *fp, bool with_fix);

/* Text read from a peer into a field of fixed size, made fit for a
 * document: JSON is UTF-8, so each byte that does not belong to a
 * well-formed UTF-8 character (a Latin-1 host name, a corrupt answer, a
 * character cut where a field ends) becomes '?', in place; a character
 * that is well formed stays. */
void doc_utf8_fix(char *s);

#endif
