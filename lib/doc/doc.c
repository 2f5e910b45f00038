/* JSON documents: the single output format every program writes. */
#include "doc/doc.h"
#include "doc/json_indent.h"
#include "base/outfile.h"
#include "base/termsafe.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const reserved[] = {
	"schema", "tool", "version", "host", "started", "findings", "errors",
};

/* UTC, second precision: stable to compare and sort. */
static char *doc_now_rfc3339(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	if (gmtime_r(&now, &tm) == NULL ||
	    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, len, "1970-01-01T00:00:00Z");
	return buf;
}

/* Fills the fixed header keys; results are added by the caller. */
int doc_init(struct doc *d, const char *tool, const char *command)
{
	char host[256], when[32];

	memset(d, 0, sizeof(*d));
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "unknown");
	host[sizeof(host) - 1] = '\0';
	d->root = json_object();
	d->findings = json_array();
	d->errors = json_array();
	if (d->root == NULL || d->findings == NULL || d->errors == NULL)
		goto fail;
	if (json_object_set_new(d->root, "schema", json_string(DOC_SCHEMA)) ||
	    json_object_set_new(d->root, "tool", json_string(tool)) ||
	    json_object_set_new(d->root, "version",
				json_string(NETPROBE_VERSION)) ||
	    json_object_set_new(d->root, "host", json_string(host)) ||
	    json_object_set_new(d->root, "started",
				json_string(doc_now_rfc3339(when,
							    sizeof(when)))) ||
	    (command != NULL &&
	     json_object_set_new(d->root, "command", json_string(command))) ||
	    json_object_set(d->root, "findings", d->findings) ||
	    json_object_set(d->root, "errors", d->errors))
		goto fail;
	/* root holds its own references; ours become borrowed */
	json_decref(d->findings);
	json_decref(d->errors);
	return 0;
fail:
	json_decref(d->root);
	if (d->root == NULL || json_object_get(d->root, "findings") == NULL)
		json_decref(d->findings);
	if (d->root == NULL || json_object_get(d->root, "errors") == NULL)
		json_decref(d->errors);
	memset(d, 0, sizeof(*d));
	errno = ENOMEM;
	return -1;
}

/* Drops the document and everything borrowed from it. */
void doc_free(struct doc *d)
{
	json_decref(d->root);
	memset(d, 0, sizeof(*d));
}

/* Golden tests pin the two values that change from run to run. */
void doc_set_fixed(struct doc *d, const char *started, const char *host)
{
	if (started != NULL)
		json_object_set_new(d->root, "started", json_string(started));
	if (host != NULL)
		json_object_set_new(d->root, "host", json_string(host));
}

/* Results go beside the header; header keys cannot be overwritten. */
int doc_set(struct doc *d, const char *key, json_t *val)
{
	if (val == NULL)
		return -1;
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
		if (strcmp(key, reserved[i]) == 0) {
			json_decref(val);
			return -1;
		}
	}
	return json_object_set_new(d->root, key, val);
}

/* Findings and errors of a part-document (one thread's) move over in
 * order, with their counts. */
int doc_merge(struct doc *into, struct doc *from)
{
	if (json_array_extend(into->findings, from->findings) < 0 ||
	    json_array_extend(into->errors, from->errors) < 0) {
		errno = ENOMEM;
		return -1;
	}
	into->nfault += from->nfault;
	into->nwarning += from->nwarning;
	into->nerror += from->nerror;
	json_array_clear(from->findings);
	json_array_clear(from->errors);
	from->nfault = from->nwarning = from->nerror = 0;
	return 0;
}

/* vsnprintf into a fresh jansson string. */
static json_t *vstring(const char *fmt, va_list ap)
{
	char buf[1024];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	return json_string(buf);
}

int doc_finding_command(struct doc *d, const char *cmd)
{
	size_t n = json_array_size(d->findings);

	if (n == 0 || cmd == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (json_object_set_new(json_array_get(d->findings, n - 1), "command",
				json_string(cmd)) < 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

int doc_add_finding(struct doc *d, enum finding_code code, int sev,
		    json_t *evidence, const char *fix, const char *fmt, ...)
{
	const struct finding_def *def = finding_get(code);
	enum severity s;
	json_t *f, *summary;
	va_list ap;

	if (def == NULL) {
		json_decref(evidence);
		errno = EINVAL;
		return -1;
	}
	s = sev >= 0 ? (enum severity)sev : def->sev;
	va_start(ap, fmt);
	summary = vstring(fmt, ap);
	va_end(ap);
	if (evidence == NULL)
		evidence = json_array();
	f = json_pack("{s:s, s:s, s:o, s:o, s:s}", "code", def->code, "severity",
		      severity_name(s), "summary", summary, "evidence",
		      evidence, "fix", fix != NULL ? fix : def->fix);
	if (f == NULL || json_array_append_new(d->findings, f) < 0) {
		errno = ENOMEM;
		return -1;
	}
	if (s == SEV_FAULT)
		d->nfault++;
	else if (s == SEV_WARNING)
		d->nwarning++;
	return 0;
}

int evidence_add(json_t **ev, const char *source, const char *fmt, ...)
{
	json_t *fact, *o;
	va_list ap;

	if (*ev == NULL && (*ev = json_array()) == NULL)
		return -1;
	va_start(ap, fmt);
	fact = vstring(fmt, ap);
	va_end(ap);
	o = json_pack("{s:o, s:s}", "fact", fact, "source", source);
	if (o == NULL)
		return -1;
	return json_array_append_new(*ev, o);
}

int doc_add_error(struct doc *d, const char *what, const char *fmt, ...)
{
	json_t *msg, *e;
	va_list ap;

	va_start(ap, fmt);
	msg = vstring(fmt, ap);
	va_end(ap);
	e = json_pack("{s:s, s:o}", "step", what, "message", msg);
	if (e == NULL || json_array_append_new(d->errors, e) < 0)
		return -1;
	d->nerror++;
	return 0;
}

bool doc_has_finding(const struct doc *d, const char *code)
{
	size_t i;
	json_t *f;

	json_array_foreach(d->findings, i, f) {
		const char *c = json_string_value(json_object_get(f, "code"));

		if (c != NULL && strcmp(c, code) == 0)
			return true;
	}
	return false;
}

int doc_write(const struct doc *d, FILE *fp)
{
	if (json_dumpf(d->root, fp,
		       JSON_SORT_KEYS | JSON_INDENT(2) | JSON_ENSURE_ASCII) < 0)
		return -1;
	if (fputc('\n', fp) == EOF || fflush(fp) == EOF || ferror(fp))
		return -1;
	return 0;
}

int doc_write_file(const struct doc *d, const char *path)
{
	return doc_write_output(d, path, NULL, NULL, 0);
}

int doc_write_output(const struct doc *d, const char *path,
		     const struct outfile_opts *opts, char *why,
		     size_t whylen)
{
	return doc_json_write_output(d->root, path, opts, why, whylen);
}

/* Writes through outfile what body writes to its stream: the one place
 * that opens, aborts and closes for the JSON writers below. */
static int write_with(const char *path, const struct outfile_opts *opts,
                      char *why, size_t whylen,
                      int (*body)(FILE *fp, const void *arg), const void *arg)
{
	struct outfile o;
	int err;

	if (outfile_open(&o, path, opts) < 0)
		goto fail;
	errno = 0;
	if (body(o.fp, arg) < 0) {
		err = errno ? errno : EIO;
		outfile_abort(&o);
		snprintf(o.why, sizeof(o.why), "cannot write '%s': %s", path,
			 strerror(err));
		errno = err;
		goto fail;
	}
	if (outfile_close(&o) < 0)
		goto fail;
	return 0;
fail:
	err = errno;
	if (why != NULL && whylen > 0)
		snprintf(why, whylen, "%s", o.why);
	errno = err;
	return -1;
}

/* write_with's body for a tree. */
static int tree_body(FILE *fp, const void *arg)
{
	struct doc d = {.root = (json_t *)arg};

	return doc_write(&d, fp);
}

/* Text and its length, for text_body. */
struct text_arg {
	const char *p;
	size_t n;
};

/* write_with's body for text already written out. */
static int text_body(FILE *fp, const void *arg)
{
	const struct text_arg *t = arg;

	if (fwrite(t->p, 1, t->n, fp) != t->n || fflush(fp) == EOF)
		return -1;
	return 0;
}

int doc_json_write_output(const json_t *j, const char *path,
			  const struct outfile_opts *opts, char *why,
			  size_t whylen)
{
	return write_with(path, opts, why, whylen, tree_body, j);
}

int doc_text_write_output(const char *text, size_t len, const json_t *parsed,
                          const char *path, const struct outfile_opts *opts,
                          char *why, size_t whylen)
{
	struct text_arg t = {NULL, 0};
	char *out = json_indent(text, len, &t.n);
	int rc, err;

	if (out == NULL)
		return doc_json_write_output(parsed, path, opts, why, whylen);
	t.p = out;
	rc = write_with(path, opts, why, whylen, text_body, &t);
	err = errno;
	free(out);
	errno = err;
	return rc;
}

int doc_exit_status(const struct doc *d, bool ran)
{
	if (!ran)
		return 2;
	return d->nfault > 0 ? 1 : 0;
}

int doc_print_findings(const struct doc *d, FILE *fp, bool with_fix)
{
	size_t i;
	json_t *f;

	json_array_foreach(d->findings, i, f) {
		fprintf(fp, "%s %s: %s\n",
			json_string_value(json_object_get(f, "severity")),
			json_string_value(json_object_get(f, "code")),
			json_string_value(json_object_get(f, "summary")));
		if (with_fix)
			fprintf(fp, "  fix: %s\n",
				json_string_value(json_object_get(f, "fix")));
	}
	return ferror(fp) ? -1 : 0;
}

/* See doc.h. */
void doc_utf8_fix(char *s)
{
	unsigned char *p = (unsigned char *)s;
	size_t left = strlen(s);

	while (*p != '\0') {
		size_t n = termsafe_char_len(p, left);

		if (n == 0) {
			*p = '?';
			n = 1;
		}
		p += n;
		left -= n;
	}
}
