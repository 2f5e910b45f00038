/* netprobe report: reading documents from files and directories, checking
 * their schema, and recording every file that cannot be used with where. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doc/doc.h"
#include "report.h"

/* Records a file that cannot be used. Returns 0, or -1 on no memory. */
static int add_skip(struct report_set *s, const char *path, int line,
		    int column, long position, const char *why)
{
	struct report_skip *k;

	if (s->nskip == s->capskip) {
		size_t cap = s->capskip ? s->capskip * 2 : 8;
		void *p = realloc(s->skip, cap * sizeof(*s->skip));

		if (p == NULL)
			return -1;
		s->skip = p;
		s->capskip = cap;
	}
	k = &s->skip[s->nskip];
	if ((k->path = strdup(path)) == NULL)
		return -1;
	k->line = line;
	k->column = column;
	k->position = position;
	snprintf(k->why, sizeof(k->why), "%s", why);
	s->nskip++;
	return 0;
}

/* Keeps a document that passed the checks (steals doc). Returns 0 or -1. */
static int add_input(struct report_set *s, const char *path, json_t *doc)
{
	struct report_input *in;

	if (s->nin == s->capin) {
		size_t cap = s->capin ? s->capin * 2 : 8;
		void *p = realloc(s->in, cap * sizeof(*s->in));

		if (p == NULL)
			goto fail;
		s->in = p;
		s->capin = cap;
	}
	in = &s->in[s->nin];
	if ((in->path = strdup(path)) == NULL)
		goto fail;
	in->doc = doc;
	s->nin++;
	return 0;
fail:
	json_decref(doc);
	errno = ENOMEM;
	return -1;
}

/* Marks the set full: path is the first file not read, past the bound
 * why names. Returns -1 with errno E2BIG (ENOMEM when path cannot be
 * kept). */
static int set_over(struct report_set *s, const char *path, const char *why)
{
	if ((s->over = strdup(path)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	snprintf(s->overwhy, sizeof(s->overwhy), "%s", why);
	errno = E2BIG;
	return -1;
}

/* Whether n more files pass the set's bound on files; why is written when
 * they would. */
static bool over_files(const struct report_set *s, size_t n, char *why,
		       size_t len)
{
	size_t max = s->max_files ? s->max_files : REPORT_MAX_FILES;

	if (s->nin + s->nskip + n <= max)
		return false;
	snprintf(why, len, "more than %zu documents", max);
	return true;
}

/* Whether a document's text nests deeper than REPORT_MAX_DEPTH, checked
 * before jansson builds its tree: a renderer indents every level of it
 * (issue 45). Returns 0, or -1 with where the first bracket past the
 * bound is, counted as jansson counts a malformed document's position. */
static int check_depth(const char *buf, size_t len, int *line, int *column,
		       long *position)
{
	int depth = 0, ln = 1, col = 0;
	bool str = false;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\n') {
			ln++;
			col = 0;
			continue;
		}
		if ((c & 0xc0) != 0x80)
			col++; /* a character, not a UTF-8 continuation */
		if (str) {
			if (c == '\\')
				i++; /* the escaped byte is ASCII: no column */
			else if (c == '"')
				str = false;
			continue;
		}
		if (c == '"') {
			str = true;
		} else if (c == '{' || c == '[') {
			if (++depth > REPORT_MAX_DEPTH) {
				*line = ln;
				*column = col;
				*position = (long)i + 1;
				return -1;
			}
		} else if (c == '}' || c == ']') {
			depth--;
		}
	}
	return 0;
}

/* The interfaces a scan or ifaces document lists: an array of objects
 * whose name and addresses have the types the merge reads. Returns 0, or
 * -1 with buf naming the field. */
static int check_ifaces(const json_t *ifs, char *buf, size_t len)
{
	size_t i, j;
	json_t *v, *a;

	if (ifs == NULL || json_is_null(ifs))
		return 0;
	if (!json_is_array(ifs)) {
		snprintf(buf, len, "'interfaces' is not an array");
		return -1;
	}
	json_array_foreach(ifs, i, v) {
		const json_t *name = json_object_get(v, "name");
		const json_t *addrs = json_object_get(v, "addresses");

		if (!json_is_object(v)) {
			snprintf(buf, len, "'interfaces[%zu]' is not an object",
				 i);
			return -1;
		}
		if (name == NULL || !json_is_string(name)) {
			snprintf(buf, len,
				 "'interfaces[%zu].name' is %s, not a string",
				 i, name == NULL ? "missing" : "of another type");
			return -1;
		}
		if (addrs == NULL || json_is_null(addrs))
			continue;
		if (!json_is_array(addrs)) {
			snprintf(buf, len,
				 "'interfaces[%zu].addresses' is not an array",
				 i);
			return -1;
		}
		json_array_foreach(addrs, j, a) {
			const json_t *ad = json_object_get(a, "address");

			if (!json_is_object(a) ||
			    (ad != NULL && !json_is_string(ad))) {
				snprintf(buf, len,
					 "'interfaces[%zu].addresses[%zu]' is "
					 "not an object with a string "
					 "'address'",
					 i, j);
				return -1;
			}
		}
	}
	return 0;
}

/* Checks the header a reader relies on. Returns NULL when the document is
 * usable, else why not (written into buf). */
static const char *check_schema(const json_t *doc, char *buf, size_t len)
{
	const char *schema, *tool, *slash;
	long major;
	char *end;

	if (!json_is_object(doc))
		return "not a JSON object";
	schema = rj_str(doc, "schema");
	if (schema == NULL)
		return "no 'schema' key: not a netprobe or ncclcheck document";
	slash = strchr(schema, '/');
	if (slash == NULL || slash[1] == '\0') {
		snprintf(buf, len, "unknown schema '%s'", schema);
		return buf;
	}
	if (strncmp(schema, "netprobe-report/", 16) == 0) {
		snprintf(buf, len,
			 "a report ('%s'), not a probe document; give the "
			 "documents it was made from",
			 schema);
		return buf;
	}
	if (strncmp(schema, "netprobe/", 9) != 0) {
		snprintf(buf, len, "unknown schema '%s'", schema);
		return buf;
	}
	errno = 0;
	major = strtol(slash + 1, &end, 10);
	if (errno != 0 || end == slash + 1 || *end != '\0' || major < 1) {
		snprintf(buf, len, "unknown schema '%s'", schema);
		return buf;
	}
	if (major != DOC_SCHEMA_MAJOR) {
		snprintf(buf, len,
			 "unknown major schema version '%s' (this netprobe "
			 "reads '%s')",
			 schema, DOC_SCHEMA);
		return buf;
	}
	tool = rj_str(doc, "tool");
	if (tool == NULL ||
	    (strcmp(tool, "netprobe") != 0 && strcmp(tool, "ncclcheck") != 0))
		return "'tool' is neither 'netprobe' nor 'ncclcheck'";
	if (json_object_get(doc, "host") != NULL &&
	    !json_is_string(json_object_get(doc, "host")))
		return "'host' is not a string";
	if (rj_str(doc, "host") == NULL)
		return "no 'host' key: cannot tell which node wrote it";
	if (check_ifaces(json_object_get(doc, "interfaces"), buf, len))
		return buf;
	if (json_object_get(doc, "findings") != NULL &&
	    !json_is_array(json_object_get(doc, "findings")))
		return "'findings' is not an array";
	return NULL;
}

int report_load_buffer(struct report_set *s, const char *name,
		       const char *buf, size_t len)
{
	json_error_t jerr;
	const char *why;
	char whybuf[256];
	int line, column;
	long position;
	json_t *doc;

	if (len == 0)
		return add_skip(s, name, 0, 0, -1, "empty file");
	if (check_depth(buf, len, &line, &column, &position) < 0) {
		snprintf(whybuf, sizeof(whybuf), "nested deeper than %d levels",
			 REPORT_MAX_DEPTH);
		return add_skip(s, name, line, column, position, whybuf);
	}
	doc = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (doc == NULL) {
		snprintf(whybuf, sizeof(whybuf), "malformed JSON: %s",
			 jerr.text);
		return add_skip(s, name, jerr.line, jerr.column,
				(long)jerr.position, whybuf);
	}
	why = check_schema(doc, whybuf, sizeof(whybuf));
	if (why != NULL) {
		json_decref(doc);
		return add_skip(s, name, 0, 0, -1, why);
	}
	return add_input(s, name, doc);
}

/* Reads one regular file whole (bounded) and loads it. */
static int load_file(struct report_set *s, const char *path)
{
	char why[256];
	size_t cap = 0, n = 0, max;
	char *buf = NULL;
	struct stat st = {0};
	FILE *fp;
	int fd, rc;

	/* O_NONBLOCK: a FIFO must not hang the open; fstat then tells what
	 * was opened, so a file swapped after a stat is caught too */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, sizeof(why), "cannot open: %s", strerror(errno));
		return add_skip(s, path, 0, 0, -1, why);
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, sizeof(why), "not a regular file (%s)",
			 S_ISFIFO(st.st_mode)   ? "a FIFO"
			 : S_ISSOCK(st.st_mode) ? "a socket"
			 : S_ISCHR(st.st_mode)  ? "a character device"
			 : S_ISBLK(st.st_mode)  ? "a block device"
			 : S_ISDIR(st.st_mode)  ? "a directory"
						: "not a file");
		close(fd);
		return add_skip(s, path, 0, 0, -1, why);
	}
	fp = fdopen(fd, "rb");
	if (fp == NULL) {
		snprintf(why, sizeof(why), "cannot open: %s", strerror(errno));
		close(fd);
		return add_skip(s, path, 0, 0, -1, why);
	}
	for (;;) {
		size_t got;

		if (n == cap) {
			char *p;

			if (cap >= (size_t)REPORT_MAX_FILE_BYTES) {
				fclose(fp);
				free(buf);
				return add_skip(s, path, 0, 0, -1,
						"larger than 64 MiB");
			}
			cap = cap ? cap * 2 : 65536;
			if ((p = realloc(buf, cap)) == NULL) {
				fclose(fp);
				free(buf);
				return -1;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(fp)) {
		snprintf(why, sizeof(why), "read error: %s", strerror(errno));
		fclose(fp);
		free(buf);
		return add_skip(s, path, 0, 0, -1, why);
	}
	fclose(fp);
	max = s->max_bytes ? s->max_bytes : REPORT_MAX_BYTES;
	if (n > max - s->bytes) {
		free(buf);
		snprintf(why, sizeof(why), "more than %zu bytes", max);
		return set_over(s, path, why);
	}
	s->bytes += n;
	rc = report_load_buffer(s, path, buf, n);
	free(buf);
	return rc;
}

/* scandir filter: visible *.json names. */
static int json_name(const struct dirent *e)
{
	size_t l = strlen(e->d_name);

	return e->d_name[0] != '.' && l > 5 &&
	       strcmp(e->d_name + l - 5, ".json") == 0;
}

int report_load_path(struct report_set *s, const char *path)
{
	struct dirent **names = NULL;
	char why[256];
	struct stat st;
	int n, rc = 0;
	size_t l = strlen(path);
	const char *sep = l > 0 && path[l - 1] == '/' ? "" : "/";

	if (s->over != NULL) {
		errno = E2BIG;
		return -1;
	}
	if (over_files(s, 1, why, sizeof(why)))
		return set_over(s, path, why);
	if (stat(path, &st) < 0) {
		snprintf(why, sizeof(why), "cannot read: %s", strerror(errno));
		return add_skip(s, path, 0, 0, -1, why);
	}
	if (!S_ISDIR(st.st_mode))
		return load_file(s, path);
	n = scandir(path, &names, json_name, alphasort);
	if (n < 0) {
		snprintf(why, sizeof(why), "cannot list: %s", strerror(errno));
		return add_skip(s, path, 0, 0, -1, why);
	}
	if (n == 0)
		rc = add_skip(s, path, 0, 0, -1, "no *.json files in it");
	/* refused before any is read: the first name past the bound is the
	 * first file not read */
	if (n > 0 && over_files(s, (size_t)n, why, sizeof(why))) {
		size_t max = s->max_files ? s->max_files : REPORT_MAX_FILES;
		size_t first = max - (s->nin + s->nskip);
		char full[4096];

		snprintf(full, sizeof(full), "%s%s%s", path, sep,
			 names[first]->d_name);
		rc = set_over(s, full, why);
	}
	for (int i = 0; i < n; i++) {
		char full[4096];

		snprintf(full, sizeof(full), "%s%s%s", path, sep,
			 names[i]->d_name);
		/* every *.json name is loaded or skipped by name: a FIFO, a
		 * socket or a directory so named is counted, never passed
		 * over in silence (load_file opens without blocking) */
		if (rc == 0)
			rc = load_file(s, full);
		free(names[i]);
	}
	free(names);
	return rc;
}

void report_set_free(struct report_set *s)
{
	for (size_t i = 0; i < s->nin; i++) {
		free(s->in[i].path);
		json_decref(s->in[i].doc);
	}
	for (size_t i = 0; i < s->nskip; i++)
		free(s->skip[i].path);
	free(s->in);
	free(s->skip);
	free(s->over);
	memset(s, 0, sizeof(*s));
}
