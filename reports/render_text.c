/* netprobe report: terminal text. The verdict first, then faults,
 * warnings, conflicts, the recommendation and the details. Colour only
 * when asked (a terminal without NO_COLOR); text from documents is printed
 * with control characters replaced, so a hostname cannot drive the
 * terminal. */
#include <string.h>

#include "report.h"

struct tout {
	FILE *fp;
	bool colour;
};

/* ANSI sequences, empty without colour. */
static const char *c_on(const struct tout *t, const char *seq)
{
	return t->colour ? seq : "";
}

#define RED "\033[1;31m"
#define YEL "\033[1;33m"
#define GRN "\033[1;32m"
#define BLD "\033[1m"
#define DIM "\033[2m"
#define OFF "\033[0m"

/* Prints document text with control characters shown as '?'. */
static void put(const struct tout *t, const char *s)
{
	for (; s != NULL && *s; s++)
		fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, t->fp);
}

/* A section heading. */
static void heading(const struct tout *t, const char *title)
{
	fprintf(t->fp, "\n%s%s%s\n", c_on(t, BLD), title, c_on(t, OFF));
}

/* "[node:code, node:code]" for a cites array. */
static void cites(const struct tout *t, const json_t *arr)
{
	size_t i;
	json_t *c;

	if (json_array_size(arr) == 0)
		return;
	fprintf(t->fp, "%s  [", c_on(t, DIM));
	json_array_foreach(arr, i, c) {
		fputs(i ? ", " : "", t->fp);
		if (rj_str(c, "node") != NULL) {
			put(t, rj_str(c, "node"));
			fputc(':', t->fp);
		}
		put(t, rj_str(c, "code"));
	}
	fprintf(t->fp, "]%s", c_on(t, OFF));
}

/* Faults or warnings: node, code, summary, then fix and evidence. */
static void findings(const struct tout *t, const json_t *rep, int sev,
		     const char *title, const char *col)
{
	size_t i, j;
	json_t *f, *e;
	bool any = false;

	json_array_foreach(rj_arr(rep, "findings"), i, f) {
		if (rj_sev(rj_str(f, "severity")) != sev)
			continue;
		if (!any)
			heading(t, title);
		any = true;
		fprintf(t->fp, "  %s", c_on(t, col));
		put(t, rj_str(f, "code"));
		fprintf(t->fp, "%s on ", c_on(t, OFF));
		put(t, rj_str(f, "node"));
		fputs(": ", t->fp);
		put(t, rj_str(f, "summary"));
		fputs("\n    fix: ", t->fp);
		put(t, rj_str(f, "fix"));
		fputc('\n', t->fp);
		json_array_foreach(rj_arr(f, "evidence"), j, e) {
			fputs("    - ", t->fp);
			put(t, rj_str(e, "fact"));
			fputs(" (", t->fp);
			put(t, rj_str(e, "source"));
			fputs(")\n", t->fp);
		}
	}
}

/* One setting as a shell line with its reason. */
static void setting(const struct tout *t, const json_t *s)
{
	const char *v = rj_str(s, "value");

	fputs("    ", t->fp);
	if (v == NULL) {
		fputs("# ", t->fp);
		put(t, rj_str(s, "name"));
		fputs(": ", t->fp);
		put(t, rj_str(s, "why"));
	} else {
		fputs("export ", t->fp);
		put(t, rj_str(s, "name"));
		fputc('=', t->fp);
		put(t, v);
		fprintf(t->fp, "\n      %s# ", c_on(t, DIM));
		put(t, rj_str(s, "why"));
		fputs(c_on(t, OFF), t->fp);
	}
	if (json_is_true(json_object_get(s, "disputed")))
		fprintf(t->fp, " %s(disputed: see conflicts)%s", c_on(t, YEL),
			c_on(t, OFF));
	cites(t, rj_arr(s, "cites"));
	fputc('\n', t->fp);
}

/* The recommendation: interfaces, settings, nccl.conf, blocks, firewall,
 * changes and MTUs. */
static void recommendation(const struct tout *t, const json_t *rep)
{
	const json_t *r = json_object_get(rep, "recommendation");
	const json_t *ifc = json_object_get(r, "interface");
	size_t i, j;
	json_t *v, *c;
	bool node_scope = false;

	heading(t, "RECOMMENDATION");
	json_array_foreach(rj_arr(r, "notes"), i, v) {
		fputs("  note: ", t->fp);
		put(t, json_string_value(v));
		fputc('\n', t->fp);
	}
	if (rj_str(ifc, "common") != NULL) {
		fputs("  interface: ", t->fp);
		put(t, rj_str(ifc, "common"));
		fputs(" on every node\n", t->fp);
	} else if (json_array_size(rj_arr(ifc, "per_node")) > 0) {
		fputs("  interface per node:\n", t->fp);
	}
	json_array_foreach(rj_arr(ifc, "per_node"), i, v) {
		fputs("    ", t->fp);
		put(t, rj_str(v, "node"));
		fputs(": ", t->fp);
		put(t, rj_str(v, "interface"));
		fputc(' ', t->fp);
		put(t, rj_strd(v, "address", "(no address)"));
		fputc('\n', t->fp);
	}
	json_array_foreach(rj_arr(r, "blocked"), i, v) {
		fprintf(t->fp, "  %sblocked%s by ", c_on(t, RED), c_on(t, OFF));
		put(t, rj_str(v, "node"));
		fputs(": ", t->fp);
		put(t, rj_str(v, "why"));
		cites(t, rj_arr(v, "cites"));
		fputc('\n', t->fp);
	}
	if (json_array_size(rj_arr(r, "settings")) > 0)
		fputs("  cluster-wide:\n", t->fp);
	json_array_foreach(rj_arr(r, "settings"), i, v) {
		if (rj_str(v, "node") == NULL)
			setting(t, v);
		else
			node_scope = true;
	}
	if (node_scope) {
		json_t *nodes = json_object_get(json_object_get(rep, "matrix"),
						"nodes");
		json_t *done = json_object();

		(void)nodes;
		fputs("  per node:\n", t->fp);
		json_array_foreach(rj_arr(r, "settings"), i, v) {
			const char *n = rj_str(v, "node");

			if (n == NULL || json_object_get(done, n) != NULL)
				continue;
			json_object_set_new(done, n, json_true());
			fputs("   on ", t->fp);
			put(t, n);
			fputs(":\n", t->fp);
			json_array_foreach(rj_arr(r, "settings"), j, c)
				if (rj_str(c, "node") != NULL &&
				    strcmp(rj_str(c, "node"), n) == 0)
					setting(t, c);
		}
		json_decref(done);
	}
	if (json_array_size(rj_arr(r, "nccl_conf")) > 0) {
		fputs("  /etc/nccl.conf, per node:\n", t->fp);
		json_array_foreach(rj_arr(r, "nccl_conf"), i, v) {
			fputs("    ", t->fp);
			put(t, rj_str(v, "node"));
			fputs(": ", t->fp);
			put(t, rj_str(v, "line"));
			fputc('\n', t->fp);
		}
	}
	json_array_foreach(rj_arr(r, "firewall"), i, v) {
		static const char *const dia[] = {"nftables", "ufw", "firewalld",
						  NULL};

		fputs("  open on ", t->fp);
		put(t, rj_str(v, "node"));
		fputs(":", t->fp);
		json_array_foreach(rj_arr(v, "open"), j, c) {
			json_t *p = json_object_get(c, "port");

			fputs(j ? ", " : " ", t->fp);
			if (json_is_integer(p))
				fprintf(t->fp, "%lld",
					(long long)json_integer_value(p));
			else
				put(t, json_string_value(p));
			fputc('/', t->fp);
			put(t, rj_str(c, "proto"));
		}
		cites(t, rj_arr(v, "cites"));
		fputc('\n', t->fp);
		json_array_foreach(rj_arr(v, "open"), j, c) {
			fputs("    # ", t->fp);
			put(t, rj_str(c, "why"));
			fputc('\n', t->fp);
		}
		for (const char *const *d = dia; *d; d++) {
			json_t *cmds = rj_arr(json_object_get(v, "commands"),
					      *d);

			if (json_array_size(cmds) == 0)
				continue;
			fprintf(t->fp, "    %s:\n", *d);
			json_array_foreach(cmds, j, c) {
				fputs("      ", t->fp);
				put(t, json_string_value(c));
				fputc('\n', t->fp);
			}
		}
	}
	json_array_foreach(rj_arr(r, "changes"), i, v) {
		fputs("  change on ", t->fp);
		put(t, rj_str(v, "node"));
		fputs(": ", t->fp);
		put(t, rj_str(v, "change"));
		cites(t, rj_arr(v, "cites"));
		fputc('\n', t->fp);
	}
	json_array_foreach(rj_arr(r, "mtu"), i, v) {
		fputs("  MTU on ", t->fp);
		put(t, rj_str(v, "node"));
		fputs(": ", t->fp);
		put(t, rj_str(v, "command"));
		fputs("\n    # ", t->fp);
		put(t, rj_str(v, "why"));
		cites(t, rj_arr(v, "cites"));
		fputc('\n', t->fp);
	}
}

/* Conflicting evidence, each claim with where it came from. */
static void conflicts(const struct tout *t, const json_t *rep)
{
	json_t *cf = rj_arr(json_object_get(rep, "recommendation"),
			    "conflicts"),
	       *v, *c;
	size_t i, j;

	if (json_array_size(cf) == 0)
		return;
	heading(t, "CONFLICTING EVIDENCE (not resolved: check by hand)");
	json_array_foreach(cf, i, v) {
		fprintf(t->fp, "  %s", c_on(t, YEL));
		put(t, rj_str(v, "subject"));
		fprintf(t->fp, "%s\n", c_on(t, OFF));
		json_array_foreach(rj_arr(v, "claims"), j, c) {
			fputs("    - ", t->fp);
			put(t, rj_str(c, "node"));
			fputs(": ", t->fp);
			put(t, rj_str(c, "claim"));
			fputs(" (", t->fp);
			put(t, rj_str(c, "source"));
			fputs(")\n", t->fp);
		}
	}
}

/* Nodes, connectivity, heartbeats, NCCL and the inputs. */
static void details(const struct tout *t, const json_t *rep)
{
	json_t *m = json_object_get(rep, "matrix"), *v, *c;
	size_t i, j;
	char b1[32], b2[32];

	heading(t, "DETAILS");
	fputs("  nodes:\n", t->fp);
	json_array_foreach(rj_arr(rep, "nodes"), i, v) {
		fputs("    ", t->fp);
		put(t, rj_str(v, "name"));
		fputs(": ", t->fp);
		json_array_foreach(rj_arr(v, "commands"), j, c) {
			fputs(j ? "," : "", t->fp);
			put(t, json_string_value(c));
		}
		if (rj_str(v, "container") != NULL &&
		    strcmp(rj_str(v, "container"), "none") != 0) {
			fputs("; container ", t->fp);
			put(t, rj_str(v, "container"));
			fputs(" (", t->fp);
			put(t, rj_strd(v, "netmode", "?"));
			fputc(')', t->fp);
		}
		if (rj_str(v, "wsl") != NULL &&
		    strcmp(rj_str(v, "wsl"), "none") != 0) {
			fputs("; WSL ", t->fp);
			put(t, rj_str(v, "wsl"));
		}
		fputc('\n', t->fp);
		json_array_foreach(rj_arr(v, "errors"), j, c) {
			fputs("      error in ", t->fp);
			put(t, rj_str(c, "file"));
			fputs(": ", t->fp);
			put(t, rj_str(c, "step"));
			fputs(": ", t->fp);
			put(t, rj_str(c, "message"));
			fputc('\n', t->fp);
		}
	}
	if (json_is_object(m)) {
		fputs("  connectivity (from -> to):\n", t->fp);
		json_array_foreach(rj_arr(m, "cells"), i, v) {
			const char *st = rj_str(v, "state");
			const char *col = strcmp(st, "reachable") == 0 ? GRN
					  : strcmp(st, "unknown") == 0 ? ""
								       : RED;

			fputs("    ", t->fp);
			put(t, rj_str(v, "from"));
			fputs(" -> ", t->fp);
			put(t, rj_str(v, "to"));
			fprintf(t->fp, ": %s%s%s", c_on(t, col), st,
				c_on(t, OFF));
			if (json_is_number(json_object_get(v, "rtt_us")))
				fprintf(t->fp, ", rtt %s",
					rj_fmt_us(rj_num(v, "rtt_us", 0), b1,
						  sizeof(b1)));
			if (json_is_number(json_object_get(v, "loss_pct")))
				fprintf(t->fp, ", loss %.2f%%",
					rj_num(v, "loss_pct", 0));
			fputc('\n', t->fp);
			json_array_foreach(rj_arr(v, "details"), j, c) {
				fputs("      ", t->fp);
				put(t, json_string_value(c));
				fputc('\n', t->fp);
			}
		}
	}
	json_array_foreach(rj_arr(rep, "heartbeats"), i, v) {
		const char *pr[] = {"tcp", "udp"};

		for (int p = 0; p < 2; p++) {
			json_t *s = json_object_get(v, pr[p]);
			json_t *r = json_object_get(s, "rtt_us");

			if (!json_is_object(s))
				continue;
			fputs("  heartbeat ", t->fp);
			put(t, rj_str(v, "from"));
			fputs(" -> ", t->fp);
			put(t, rj_str(v, "to"));
			fprintf(t->fp, " %s: median %s, p99 %s, loss %.2f%%\n",
				pr[p],
				rj_fmt_us(rj_num(r, "median", 0), b1,
					  sizeof(b1)),
				rj_fmt_us(rj_num(r, "p99", 0), b2, sizeof(b2)),
				rj_num(s, "loss_pct", 0));
		}
	}
	json_array_foreach(rj_arr(rep, "nccl"), i, v) {
		json_t *g = json_object_get(v, "gate");

		fputs("  ncclcheck from ", t->fp);
		put(t, rj_str(v, "host"));
		fprintf(t->fp, " (%zu ranks):\n",
			json_array_size(rj_arr(v, "ranks")));
		json_array_foreach(rj_arr(v, "collectives"), j, c) {
			json_t *pk = json_object_get(c, "peak");

			fputs("    ", t->fp);
			put(t, rj_str(c, "name"));
			fprintf(t->fp, ": peak busbw %.2f GB/s at %s\n",
				rj_num(pk, "busbw_gbps", 0),
				rj_fmt_bytes(rj_num(pk, "bytes", 0), b1,
					     sizeof(b1)));
		}
		json_array_foreach(rj_arr(g, "checks"), j, c) {
			bool ok = json_is_true(json_object_get(c, "passed"));

			fprintf(t->fp, "    gate %s%s%s ",
				c_on(t, ok ? GRN : RED), ok ? "pass" : "FAIL",
				c_on(t, OFF));
			put(t, rj_str(c, "name"));
			fputs(": ", t->fp);
			put(t, rj_str(c, "detail"));
			fputc('\n', t->fp);
		}
	}
	fprintf(t->fp, "  inputs: %zu read", json_array_size(rj_arr(rep,
								     "inputs")));
	if (json_array_size(rj_arr(rep, "skipped")) > 0)
		fprintf(t->fp, ", %zu skipped",
			json_array_size(rj_arr(rep, "skipped")));
	fputc('\n', t->fp);
	json_array_foreach(rj_arr(rep, "skipped"), i, v) {
		fputs("    skipped ", t->fp);
		put(t, rj_str(v, "file"));
		if (rj_int(v, "line", 0) > 0)
			fprintf(t->fp, ":%lld:%lld", rj_int(v, "line", 0),
				rj_int(v, "column", 0));
		fputs(": ", t->fp);
		put(t, rj_str(v, "why"));
		fputc('\n', t->fp);
	}
}

int report_render_text(const json_t *rep, FILE *fp, bool colour)
{
	struct tout t = {fp, colour};
	const char *v = rj_str(rep, "verdict");
	const json_t *n = json_object_get(rep, "counts");
	const char *col = strcmp(v, "fault") == 0	? RED
			  : strcmp(v, "warning") == 0 ? YEL
							 : GRN;

	fprintf(fp, "%sverdict: %s%s: %lld fault%s, %lld warning%s on %lld "
		    "node%s\n",
		c_on(&t, col),
		strcmp(v, "fault") == 0	    ? "FAULT"
		: strcmp(v, "warning") == 0 ? "WARNING"
					    : "PASS",
		c_on(&t, OFF), rj_int(n, "faults", 0),
		rj_int(n, "faults", 0) == 1 ? "" : "s", rj_int(n, "warnings", 0),
		rj_int(n, "warnings", 0) == 1 ? "" : "s", rj_int(n, "nodes", 0),
		rj_int(n, "nodes", 0) == 1 ? "" : "s");
	findings(&t, rep, 2, "FAULTS", RED);
	findings(&t, rep, 1, "WARNINGS", YEL);
	conflicts(&t, rep);
	recommendation(&t, rep);
	details(&t, rep);
	return fflush(fp) == EOF || ferror(fp) ? -1 : 0;
}
