/* netprobe report: Markdown for a ticket or a pull-request comment. Text
 * from documents goes into tables and lists with the characters Markdown
 * and HTML would act on escaped; commands go into fenced blocks. */
#include <string.h>

#include "report.h"

/* Prints document text safe for Markdown prose and table cells. */
static void md(FILE *fp, const char *s)
{
	for (; s != NULL && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fputc(' ', fp);
		else if (strchr("\\`*_[]<>|#", c) != NULL)
			fprintf(fp, "\\%c", c);
		else if (c == '&')
			fputs("&amp;", fp);
		else
			fputc(c, fp);
	}
}

/* Prints text for a fenced code block: backticks cannot close it. */
static void code(FILE *fp, const char *s)
{
	for (; s != NULL && *s; s++)
		fputc(*s == '`' ? '\'' : ((unsigned char)*s < 0x20 ? ' ' : *s),
		      fp);
}

/* " (node: code, ...)" for a cites array. */
static void cites(FILE *fp, const json_t *arr)
{
	size_t i;
	json_t *c;

	if (json_array_size(arr) == 0)
		return;
	fputs(" — rests on: ", fp);
	json_array_foreach(arr, i, c) {
		fputs(i ? ", " : "", fp);
		fputc('`', fp);
		if (rj_str(c, "node") != NULL) {
			code(fp, rj_str(c, "node"));
			fputc(':', fp);
		}
		code(fp, rj_str(c, "code"));
		fputc('`', fp);
	}
}

/* Faults or warnings as a list with fix and evidence. */
static void findings(FILE *fp, const json_t *rep, int sev, const char *title)
{
	size_t i, j;
	json_t *f, *e;
	bool any = false;

	json_array_foreach(rj_arr(rep, "findings"), i, f) {
		if (rj_sev(rj_str(f, "severity")) != sev)
			continue;
		if (!any)
			fprintf(fp, "\n## %s\n\n", title);
		any = true;
		fputs("- **`", fp);
		code(fp, rj_str(f, "code"));
		fputs("`** on **", fp);
		md(fp, rj_str(f, "node"));
		fputs("**: ", fp);
		md(fp, rj_str(f, "summary"));
		fputs("\n  - fix: `", fp);
		code(fp, rj_str(f, "fix"));
		fputs("`\n", fp);
		json_array_foreach(rj_arr(f, "evidence"), j, e) {
			fputs("  - evidence: ", fp);
			md(fp, rj_str(e, "fact"));
			fputs(" (", fp);
			md(fp, rj_str(e, "source"));
			fputs(")\n", fp);
		}
	}
}

/* The recommendation: a table of settings, then commands per node. */
static void recommendation(FILE *fp, const json_t *rep)
{
	const json_t *r = json_object_get(rep, "recommendation");
	size_t i, j;
	json_t *v, *c;

	fputs("\n## Recommendation\n\n", fp);
	json_array_foreach(rj_arr(r, "notes"), i, v) {
		fputs("> Note: ", fp);
		md(fp, json_string_value(v));
		fputs("\n\n", fp);
	}
	if (rj_str(json_object_get(r, "interface"), "common") != NULL) {
		fputs("Interface **", fp);
		md(fp, rj_str(json_object_get(r, "interface"), "common"));
		fputs("** on every node.\n\n", fp);
	}
	json_array_foreach(rj_arr(r, "blocked"), i, v) {
		fputs("- **Blocked by ", fp);
		md(fp, rj_str(v, "node"));
		fputs("**: ", fp);
		md(fp, rj_str(v, "why"));
		cites(fp, rj_arr(v, "cites"));
		fputc('\n', fp);
	}
	if (json_array_size(rj_arr(r, "blocked")) > 0)
		fputc('\n', fp);
	if (json_array_size(rj_arr(json_object_get(r, "interface"),
				   "per_node")) > 0) {
		fputs("| node | interface | address |\n|---|---|---|\n", fp);
		json_array_foreach(rj_arr(json_object_get(r, "interface"),
					  "per_node"),
				   i, v) {
			fputs("| ", fp);
			md(fp, rj_str(v, "node"));
			fputs(" | `", fp);
			code(fp, rj_str(v, "interface"));
			fputs("` | ", fp);
			md(fp, rj_strd(v, "address", "-"));
			fputs(" |\n", fp);
		}
		fputc('\n', fp);
	}
	if (json_array_size(rj_arr(r, "settings")) > 0) {
		fputs("| setting | where | value | why |\n|---|---|---|---|\n",
		      fp);
		json_array_foreach(rj_arr(r, "settings"), i, v) {
			fputs("| `", fp);
			code(fp, rj_str(v, "name"));
			fputs("` | ", fp);
			md(fp, rj_strd(v, "node", "every node"));
			fputs(" | ", fp);
			if (rj_str(v, "value") != NULL) {
				fputc('`', fp);
				code(fp, rj_str(v, "value"));
				fputc('`', fp);
			} else {
				fputs("**none works**", fp);
			}
			fputs(" | ", fp);
			md(fp, rj_str(v, "why"));
			if (json_is_true(json_object_get(v, "disputed")))
				fputs(" **(disputed: see conflicts)**", fp);
			cites(fp, rj_arr(v, "cites"));
			fputs(" |\n", fp);
		}
	}
	if (json_array_size(rj_arr(r, "nccl_conf")) > 0) {
		fputs("\n`/etc/nccl.conf` per node:\n\n```\n", fp);
		json_array_foreach(rj_arr(r, "nccl_conf"), i, v) {
			fputs("# ", fp);
			code(fp, rj_str(v, "node"));
			fputc('\n', fp);
			code(fp, rj_str(v, "line"));
			fputc('\n', fp);
		}
		fputs("```\n", fp);
	}
	json_array_foreach(rj_arr(r, "firewall"), i, v) {
		static const char *const dia[] = {"nftables", "ufw", "firewalld",
						  NULL};

		fputs("\n### Open on ", fp);
		md(fp, rj_str(v, "node"));
		fputs("\n\n", fp);
		json_array_foreach(rj_arr(v, "open"), j, c) {
			json_t *p = json_object_get(c, "port");

			fputs("- `", fp);
			if (json_is_integer(p))
				fprintf(fp, "%lld",
					(long long)json_integer_value(p));
			else
				code(fp, json_string_value(p));
			fputc('/', fp);
			code(fp, rj_str(c, "proto"));
			fputs("`: ", fp);
			md(fp, rj_str(c, "why"));
			fputc('\n', fp);
		}
		fputs("\nRests on:", fp);
		cites(fp, rj_arr(v, "cites"));
		fputs("\n", fp);
		for (const char *const *d = dia; *d; d++) {
			json_t *cmds = rj_arr(json_object_get(v, "commands"),
					      *d);

			if (json_array_size(cmds) == 0)
				continue;
			fprintf(fp, "\n%s:\n\n```sh\n", *d);
			json_array_foreach(cmds, j, c) {
				code(fp, json_string_value(c));
				fputc('\n', fp);
			}
			fputs("```\n", fp);
		}
	}
	if (json_array_size(rj_arr(r, "changes")) > 0) {
		fputs("\n### Changes to how nodes run\n\n", fp);
		json_array_foreach(rj_arr(r, "changes"), i, v) {
			fputs("- **", fp);
			md(fp, rj_str(v, "node"));
			fputs("**: ", fp);
			md(fp, rj_str(v, "change"));
			cites(fp, rj_arr(v, "cites"));
			fputc('\n', fp);
		}
	}
	if (json_array_size(rj_arr(r, "mtu")) > 0) {
		fputs("\n### MTU\n\n", fp);
		json_array_foreach(rj_arr(r, "mtu"), i, v) {
			fputs("- **", fp);
			md(fp, rj_str(v, "node"));
			fputs("**: `", fp);
			code(fp, rj_str(v, "command"));
			fputs("` — ", fp);
			md(fp, rj_str(v, "why"));
			cites(fp, rj_arr(v, "cites"));
			fputc('\n', fp);
		}
	}
}

/* Conflicts, each claim with its source file. */
static void conflicts(FILE *fp, const json_t *rep)
{
	json_t *cf = rj_arr(json_object_get(rep, "recommendation"),
			    "conflicts"),
	       *v, *c;
	size_t i, j;

	if (json_array_size(cf) == 0)
		return;
	fputs("\n## Conflicting evidence\n\nNot resolved by the report: "
	      "check these by hand.\n\n",
	      fp);
	json_array_foreach(cf, i, v) {
		fputs("- **", fp);
		md(fp, rj_str(v, "subject"));
		fputs("**\n", fp);
		json_array_foreach(rj_arr(v, "claims"), j, c) {
			fputs("  - ", fp);
			md(fp, rj_str(c, "node"));
			fputs(": ", fp);
			md(fp, rj_str(c, "claim"));
			fputs(" (`", fp);
			code(fp, rj_str(c, "source"));
			fputs("`)\n", fp);
		}
	}
}

/* Connectivity matrix, NCCL summary, inputs. */
static void details(FILE *fp, const json_t *rep)
{
	json_t *m = json_object_get(rep, "matrix"), *v, *c, *a, *b;
	size_t i, j, k;
	char b1[32], b2[32];

	fputs("\n## Details\n", fp);
	if (json_is_object(m)) {
		fputs("\n### Connectivity (row: from, column: to)\n\n| |", fp);
		json_array_foreach(rj_arr(m, "nodes"), i, a) {
			fputc(' ', fp);
			md(fp, json_string_value(a));
			fputs(" |", fp);
		}
		fputs("\n|---|", fp);
		json_array_foreach(rj_arr(m, "nodes"), i, a)
			fputs("---|", fp);
		fputc('\n', fp);
		json_array_foreach(rj_arr(m, "nodes"), i, a) {
			fputs("| **", fp);
			md(fp, json_string_value(a));
			fputs("** |", fp);
			json_array_foreach(rj_arr(m, "nodes"), j, b) {
				const char *st = i == j ? "—" : "";

				json_array_foreach(rj_arr(m, "cells"), k, c)
					if (strcmp(rj_str(c, "from"),
						   json_string_value(a)) == 0 &&
					    strcmp(rj_str(c, "to"),
						   json_string_value(b)) == 0) {
						st = rj_str(c, "state");
						if (json_is_number(
							    json_object_get(
								    c,
								    "rtt_us"))) {
							fprintf(fp, " %s %s |",
								st,
								rj_fmt_us(rj_num(
										  c,
										  "rtt_us",
										  0),
									  b1,
									  sizeof(b1)));
							st = NULL;
						}
						break;
					}
				if (st != NULL)
					fprintf(fp, " %s |", st);
			}
			fputc('\n', fp);
		}
	}
	json_array_foreach(rj_arr(rep, "heartbeats"), i, v) {
		json_t *s = json_object_get(v, "tcp");

		if (!json_is_object(s))
			s = json_object_get(v, "udp");
		fputs("\nHeartbeat ", fp);
		md(fp, rj_str(v, "from"));
		fputs(" → ", fp);
		md(fp, rj_str(v, "to"));
		fprintf(fp, ": median %s, p99 %s, loss %.2f%%\n",
			rj_fmt_us(rj_num(json_object_get(s, "rtt_us"), "median",
					 0),
				  b1, sizeof(b1)),
			rj_fmt_us(rj_num(json_object_get(s, "rtt_us"), "p99",
					 0),
				  b2, sizeof(b2)),
			rj_num(s, "loss_pct", 0));
	}
	json_array_foreach(rj_arr(rep, "nccl"), i, v) {
		json_t *g = json_object_get(v, "gate");

		fputs("\n### NCCL (ncclcheck from ", fp);
		md(fp, rj_str(v, "host"));
		fprintf(fp, ", %zu ranks)\n\n| collective | peak busbw | at "
			    "|\n|---|---|---|\n",
			json_array_size(rj_arr(v, "ranks")));
		json_array_foreach(rj_arr(v, "collectives"), j, c) {
			json_t *pk = json_object_get(c, "peak");

			fputs("| ", fp);
			md(fp, rj_str(c, "name"));
			fprintf(fp, " | %.2f GB/s | %s |\n",
				rj_num(pk, "busbw_gbps", 0),
				rj_fmt_bytes(rj_num(pk, "bytes", 0), b1,
					     sizeof(b1)));
		}
		if (json_is_object(g)) {
			fputs("\n| gate check | result | detail |\n|---|---|---|"
			      "\n",
			      fp);
			json_array_foreach(rj_arr(g, "checks"), j, c) {
				fputs("| ", fp);
				md(fp, rj_str(c, "name"));
				fprintf(fp, " | %s | ",
					json_is_true(json_object_get(c,
								     "passed"))
						? "pass"
						: "**FAIL**");
				md(fp, rj_str(c, "detail"));
				fputs(" |\n", fp);
			}
		}
	}
	fprintf(fp, "\n### Inputs\n\n%zu documents read",
		json_array_size(rj_arr(rep, "inputs")));
	if (json_array_size(rj_arr(rep, "skipped")) > 0)
		fprintf(fp, ", %zu skipped",
			json_array_size(rj_arr(rep, "skipped")));
	fputs(".\n", fp);
	json_array_foreach(rj_arr(rep, "skipped"), i, v) {
		fputs("- skipped `", fp);
		code(fp, rj_str(v, "file"));
		if (rj_int(v, "line", 0) > 0)
			fprintf(fp, ":%lld:%lld", rj_int(v, "line", 0),
				rj_int(v, "column", 0));
		fputs("`: ", fp);
		md(fp, rj_str(v, "why"));
		fputc('\n', fp);
	}
}

int report_render_md(const json_t *rep, FILE *fp)
{
	const char *v = rj_str(rep, "verdict");
	const json_t *n = json_object_get(rep, "counts");

	fprintf(fp, "# netprobe report: %s\n\n**%lld fault(s), %lld "
		    "warning(s)** on %lld node(s).\n",
		strcmp(v, "fault") == 0	    ? "FAULT"
		: strcmp(v, "warning") == 0 ? "WARNING"
					    : "PASS",
		rj_int(n, "faults", 0), rj_int(n, "warnings", 0),
		rj_int(n, "nodes", 0));
	findings(fp, rep, 2, "Faults");
	findings(fp, rep, 1, "Warnings");
	conflicts(fp, rep);
	recommendation(fp, rep);
	details(fp, rep);
	return fflush(fp) == EOF || ferror(fp) ? -1 : 0;
}
