/* findings-doc: writes docs/findings.md, the list of codes in netprobe(1)
 * and the list of ncclcheck's codes in ncclcheck(1) from the findings
 * table (lib/doc/findings.def), so none is kept by hand. Run by `make
 * findings-doc`; `make check` compares. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/finding.h"

#define MAN_BEGIN ".\\\" ---- begin: findings"
#define MAN_END ".\\\" ---- end: findings ----"
#define MAN_LINE_MAX 4096

/* Markdown text: the characters that would start markup are escaped. */
static void md_text(FILE *fp, const char *s)
{
	for (; *s != '\0'; s++) {
		if (strchr("\\*<|`", *s) != NULL)
			fputc('\\', fp);
		fputc(*s, fp);
	}
}

/* A sentence ends with a full stop unless it has its own. */
static const char *stop(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && strchr(".!?)", s[n - 1]) != NULL ? "" : ".";
}

/* docs/findings.md: a summary table, then one section per code. */
static void md_write(FILE *fp)
{
	size_t n;
	const struct finding_def *all = finding_all(&n);

	fputs("# Finding codes\n\n"
	      "<!-- Made by `make findings-doc` from lib/doc/findings.def; "
	      "edit the table, not this file. -->\n\n"
	      "Every finding netprobe and ncclcheck write carries one of "
	      "these codes, a severity\n(`fault`, `warning` or `info`), a "
	      "summary, its evidence (the facts, each with where\nit came "
	      "from) and an exact fix. A code never changes meaning once "
	      "released; new\nones may be added. The severity below is the "
	      "default: a producer may raise or\nlower it with a reason "
	      "(the summary says which). The class is the report's check\n"
	      "class (one JUnit test case per node and class); the cause is "
	      "the root-cause group\nthe report files the finding under; the "
	      "family, where a code has one, is the\nchecks that measure it "
	      "(port or rdma), by which explain sorts what a scan\nfound.\n\n"
	      "| code | severity | raised by | class | cause |\n"
	      "|---|---|---|---|---|\n",
	      fp);
	for (size_t i = 0; i < n; i++) {
		const char *cause = finding_cause_name(all[i].cause);

		fprintf(fp, "| [`%s`](#%s) | %s | %s | %s | %s |\n",
		        all[i].code, all[i].code, severity_name(all[i].sev),
		        all[i].stage, all[i].cls, cause[0] ? cause : "-");
	}
	for (size_t i = 0; i < n; i++) {
		const char *cause = finding_cause_name(all[i].cause);
		const char *fam = finding_family_name(all[i].family);

		fprintf(fp, "\n## %s\n\n", all[i].code);
		fprintf(fp, "**%s**; raised by %s; class %s; cause %s%s%s.\n\n",
		        severity_name(all[i].sev), all[i].stage, all[i].cls,
		        cause[0] ? cause : "none", fam[0] ? "; family " : "",
		        fam);
		fputs("Meaning: ", fp);
		md_text(fp, all[i].title);
		fprintf(fp, "%s ", stop(all[i].title));
		md_text(fp, all[i].detail);
		fputs("\n\n- fix: ", fp);
		md_text(fp, all[i].fix);
		fputs("\n- what the frameworks show: ", fp);
		md_text(fp, all[i].symptom);
		fputs("\n- in C: `FINDING_", fp);
		for (const char *c = all[i].code; *c != '\0'; c++)
			fputc(*c == '-' ? '_' : toupper((unsigned char)*c), fp);
		fputs("`\n", fp);
	}
}

/* mdoc text: a backslash is \e, a line never starts with a dot, and
 * each sentence starts a line. */
static void man_line(FILE *fp, const char *prefix, const char *s)
{
	const char *end = stop(s);

	fputs(prefix, fp);
	if (prefix[0] == '\0' && (s[0] == '.' || s[0] == '\''))
		fputs("\\&", fp);
	for (; *s != '\0'; s++)
		if (*s == '\\')
			fputs("\\e", fp);
		else if (*s == '.' && s[1] == ' ' &&
		         isupper((unsigned char)s[2])) {
			fputs(".\n", fp);
			s++;
		} else
			fputc(*s, fp);
	fprintf(fp, "%s\n", end);
}

/* True when cmd is one of the commands of stage ("scan, ncclcheck"), or
 * cmd is NULL (every code). */
static int raised_by(const char *stage, const char *cmd)
{
	size_t len;

	if (cmd == NULL)
		return 1;
	len = strlen(cmd);
	for (const char *p = stage; (p = strstr(p, cmd)) != NULL; p += len)
		if ((p == stage || p[-1] == ' ' || p[-1] == ',') &&
		    (p[len] == '\0' || p[len] == ','))
			return 1;
	return 0;
}

/* The .Bl list of a page's FINDINGS section, between markers: every code
 * (netprobe(1)), or those cmd raises (ncclcheck(1)). */
static void man_list(FILE *fp, const char *cmd)
{
	size_t n;
	const struct finding_def *all = finding_all(&n);

	fputs(MAN_BEGIN " (make findings-doc writes this list from "
	                "lib/doc/findings.def) ----\n.Bl -tag -width Ds\n",
	      fp);
	for (size_t i = 0; i < n; i++) {
		if (!raised_by(all[i].stage, cmd))
			continue;
		fprintf(fp, ".It Cm %s Pq %s\n", all[i].code,
		        severity_name(all[i].sev));
		man_line(fp, "", all[i].detail);
		man_line(fp, "Raised by: ", all[i].stage);
		man_line(fp, "Fix: ", all[i].fix);
		man_line(fp, "Seen as: ", all[i].symptom);
	}
	fputs(".El\n" MAN_END "\n", fp);
}

/* Copies the page with its list between the markers replaced (the codes
 * cmd raises, or every code when cmd is NULL). Returns 0, or -1 when the
 * page cannot be read or lacks the markers. */
static int man_write(FILE *fp, const char *path, const char *cmd)
{
	char line[MAN_LINE_MAX];
	int state = 0; /* 0 before, 1 inside, 2 after the list */
	FILE *in = fopen(path, "r");

	if (in == NULL) {
		perror(path);
		return -1;
	}
	while (fgets(line, sizeof(line), in) != NULL) {
		if (state == 0 &&
		    strncmp(line, MAN_BEGIN, strlen(MAN_BEGIN)) == 0) {
			man_list(fp, cmd);
			state = 1;
		} else if (state == 1 &&
		           strncmp(line, MAN_END, strlen(MAN_END)) == 0) {
			state = 2;
		} else if (state != 1) {
			fputs(line, fp);
		}
	}
	fclose(in);
	if (state != 2) {
		fprintf(stderr, "findings-doc: %s: no '%s' ... '%s' block\n",
		        path, MAN_BEGIN, MAN_END);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	size_t n;
	const struct finding_def *all = finding_all(&n);

	if (argc == 2 && strcmp(argv[1], "md") == 0) {
		md_write(stdout);
	} else if ((argc == 3 || argc == 4) && strcmp(argv[1], "man") == 0) {
		if (man_write(stdout, argv[2], argc == 4 ? argv[3] : NULL) < 0)
			return 2;
	} else if ((argc == 2 || argc == 3) && strcmp(argv[1], "list") == 0) {
		for (size_t i = 0; i < n; i++)
			if (raised_by(all[i].stage, argc == 3 ? argv[2] : NULL))
				printf("%s\n", all[i].code);
	} else {
		fputs("usage: findings-doc md | man PAGE [COMMAND] | "
		      "list [COMMAND]\n",
		      stderr);
		return 2;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("findings-doc: stdout");
		return 2;
	}
	return 0;
}
