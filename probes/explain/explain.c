/* netprobe explain: from a log a user already has (NCCL, Gloo, torch, Ray,
 * Open MPI, dmesg) to its cause, proved or refuted on this node; --job asks
 * a hung job's NCCL RAS service which ranks stopped answering. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/cli.h"
#include "base/termsafe.h"
#include "base/parse.h"
#include "commands.h"
#include "decide/explain_rdma.h"
#include "explain/explain_fr.h"
#include "explain/explain_int.h"

enum { O_HELP = 'h', O_RAS = 256, O_WATCH };

static const struct cli_cmd explain_cmd = {
	"netprobe explain", "[options] [FILE ...|-]",
	"Find the cause of a failure in a log, and prove it on this node.",
	NULL, 0,
	"With no FILE and no --job, the log is read from standard input.\n"
	"Without --ras and NCCL_RAS_ADDR, --job asks localhost:28028.\n"
	"Without --sysroot, this host is measured only when the log names its\n"
	"hostname or one of its addresses, or with --here.\n"
	"Exit status: 0 no cause found, 1 a cause found, 2 could not run.\n",
};

/* The options (the common ones into r) and the files. Returns 0, 1
 * after --help, or 2 after a usage error. */
static int parse(struct cmd_run *r, int argc, char **argv,
		 struct explain_opts *o)
{
	const struct cli_opt optv[] = {
	    {0, 0, "no-probe", CLI_FLAG, NULL, NULL,
	     "explain from the log alone: measure nothing here", false,
	     CLI_TO(BOOL, &o->no_probe)},
	    {0, 0, "here", CLI_FLAG, NULL, NULL,
	     "the log is this host's, named in it or not", false,
	     CLI_TO(BOOL, &o->here)},
	    {0, 0, "job", CLI_FLAG, NULL, NULL,
	     "ask the running job's NCCL RAS service (NCCL 2.24+)", false,
	     CLI_TO(BOOL, &o->job)},
	    {O_RAS, 0, "ras", CLI_REQUIRED, "HOST:PORT", "NCCL_RAS_ADDR",
	     "the RAS service to ask", false},
	    {0, 0, "ras-timeout", CLI_REQUIRED, "SECONDS", "5",
	     "how long NCCL may collect from its ranks", false,
	     CLI_RANGE(CLI_UNIT_SECONDS, 1, 600),
	     CLI_TO(INT, &o->ras_timeout_s)},
	    {O_WATCH, 0, "watch", CLI_REQUIRED, "SECONDS", NULL,
	     "ask RAS twice, this far apart: stopped or slow", false,
	     CLI_RANGE(CLI_UNIT_SECONDS, 1, 20)},
	    {0, 0, "fr-dumps", CLI_REQUIRED, "DIR", NULL,
	     "judge the torch Flight Recorder dumps in DIR", false,
	     CLI_TO(STR, &o->fr_dir)},
	    {0, 0, "sysroot", CLI_REQUIRED, "DIR", NULL,
	     "measure a recorded node instead of this one", false,
	     CLI_TO(STR, &o->sysroot)},
	    {0, 0, "signatures", CLI_FLAG, NULL, NULL,
	     "list the known message forms and exit", false,
	     CLI_TO(BOOL, &o->list)},
	    CLI_OPT_HELP,
	};
	struct cli_cmd cmd = explain_cmd;
	struct cli c;
	char **ops;
	int k, n;

	o->ras_timeout_s = 5;
	cmd.opts = optv;
	cmd.nopts = sizeof(optv) / sizeof(optv[0]);
	cmd_cli(r, &c, &cmd, argc, argv);
	while ((k = cli_next(&c)) != CLI_END) {
		switch (k) {
		case O_HELP:
			cli_help(c.cmd, stdout);
			return 1;
		case O_RAS:
			o->ras = c.arg;
			o->job = true;
			break;
		case O_WATCH:
			o->watch_s = (int)c.num;
			o->job = true;
			break;
		default:
			return cli_usage_error(&cmd, stderr, "%s", c.err);
		}
	}
	n = cli_operands(&c, &ops);
	if (n > EXPLAIN_MAX_FILES)
		return cli_usage_error(&cmd, stderr,
				       "too many files (at most %d)",
				       EXPLAIN_MAX_FILES);
	for (int i = 0; i < n; i++)
		o->files[o->nfiles++] = ops[i];
	if (o->nfiles == 0 && !o->job && o->fr_dir == NULL)
		o->files[o->nfiles++] = "-";
	return 0;
}

/* --signatures: the table, one row per message form, as text or JSON. */
/* What a row's line is: a cause that is not the network, a fact of
 * normal operation, a symptom, or a failure. */
static const char *row_kind(const struct logsig *s)
{
	return s->other ? "other" : s->flags & LOGSIG_FACT ? "fact" :
	       s->flags & LOGSIG_SYMPTOM ? "symptom" : "failure";
}

static int list_signatures(bool json)
{
	size_t n;
	const struct logsig *t = logsig_table(&n);
	json_t *a = json ? json_array() : NULL;
	int rc = 0;

	for (size_t i = 0; i < n; i++) {
		if (a != NULL) {
			json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:s,"
				"s:s,s:s,s:s,s:s,s:s,s:s*}", "id", t[i].id,
				"framework", t[i].framework, "source",
				t[i].source, "versions", t[i].versions,
				"regex", t[i].regex, "codes", t[i].codes ?
				t[i].codes : "", "open", t[i].maybe ?
				t[i].maybe : "", "example", t[i].example,
				"kind", row_kind(&t[i]), "other",
				t[i].other));
			continue;
		}
		printf("%-30s %-10s %-14s %s\n  %s\n", t[i].id,
		       t[i].framework, t[i].versions, t[i].source,
		       t[i].meaning);
		if (t[i].codes)
			printf("  proves: %s\n", t[i].codes);
		if (t[i].maybe)
			printf("  leaves open%s: %s\n", t[i].flags &
			       LOGSIG_SYMPTOM ? " (a symptom)" : "",
			       t[i].maybe);
		if (t[i].other)
			printf("  not the network: %s\n", t[i].other);
	}
	if (a != NULL) {
		rc = json_dumpf(a, stdout, JSON_INDENT(2)) < 0 ? -1 : 0;
		putchar('\n');
		json_decref(a);
	}
	return rc;
}

static void run_free(struct explain_run *r)
{
	for (int i = 0; i < r->npool; i++)
		free(r->pool[i]);
	explain_log_free(&r->lg);
	explain_fr_free(r->fr);
	logmatch_free(&r->lm);
	doc_free(&r->run.doc); /* safe after cmd_finish */
}

/* The verdict: 1 when a cause or an unresponsive rank was found, 2 when
 * nothing could be read or no RAS answered --job alone. */
static int verdict(const struct explain_run *r)
{
	if (r->o.job && r->o.nfiles == 0 && !r->ras_answered && !r->fr)
		return 2;
	if (r->o.fr_dir && !r->fr && !r->o.job && r->o.nfiles == 0)
		return 2;
	/* no RAS answering is said (a warning) but is no fault found */
	if (r->run.doc.nfault > 0 ||
	    r->run.doc.nwarning > (r->ras_tried && !r->ras_answered ? 1 : 0))
		return 1;
	/* a cause that is not the network is a fault all the same */
	for (size_t i = 0; i < r->res.ncauses; i++)
		if (r->res.causes[i].kind == EXPLAIN_OTHER)
			return 1;
	return 0;
}

/* A file that cannot be read: its name goes to standard error, so its
 * control characters are escaped (a name is bytes, an ESC among them). */
static int read_failed(struct explain_run *r, int i)
{
	char name[1024];
	int e = errno;

	termsafe_escape(r->shown[i], strlen(r->shown[i]), false, name,
			sizeof(name));
	return cmd_fail(&r->run, "read", "cannot read", name, "%s",
			strerror(e));
}

/* --fr-dumps: the dumps' verdict into the document; a folder that
 * cannot be read is an error of the run, which goes on. Returns -1 only
 * when out of memory. */
static int explain_fr_run(struct explain_run *r)
{
	char why[512];

	r->fr = explain_fr(r->o.fr_dir, &r->run.doc, why, sizeof(why));
	if (r->fr == NULL && strcmp(why, "out of memory") == 0)
		return -1;
	if (r->fr == NULL)
		cmd_fail(&r->run, "flight-recorder", "cannot read dumps",
			 r->o.fr_dir, "%s", why);
	return 0;
}

/* Read, decide, measure: the run after its options. Returns the exit
 * status (errors reported on the run). */
static int explain_run(struct explain_run *r)
{
	const char *bad = NULL;

	if (logmatch_init(&r->lm, &bad) < 0)
		return cmd_fail(&r->run, "signatures", "signature",
				bad ? bad : "?", "does not compile");
	r->lm.light = r->light;
	for (int i = 0; i < r->o.nfiles; i++)
		if ((r->shown[i] = explain_keep(r, r->o.files[i])) == NULL)
			return cmd_fail(&r->run, "memory", "out of memory",
			                NULL, NULL);
	for (int i = 0; i < r->o.nfiles; i++)
		if (explain_read(r, i, r->o.files[i]) < 0)
			return read_failed(r, i);
	if (r->o.job)
		explain_job(r);
	if (r->o.fr_dir && explain_fr_run(r) < 0)
		return cmd_fail(&r->run, "memory", "out of memory", NULL, NULL);
	r->lg.other_hosts = explain_origin_other_hosts(&r->origin);
	explain_decide(&r->lg, &r->res);
	explain_measure(r);
	if (r->o.job && r->fr != NULL)
		explain_fr_join(r->fr, &r->jv);
	if (r->o.job)
		explain_job_finish(r);
	if (r->o.job && r->fr != NULL)
		explain_fr_settle(r->fr, &r->jv);
	explain_apply_measured(&r->res, &r->ms);
	if (r->rdma_absent)
		explain_rdma_settle(&r->res);
	explain_drop_normal(&r->res);
	if (explain_emit(r) < 0)
		return cmd_fail(&r->run, "output", "cannot write output", NULL,
		                NULL);
	return verdict(r);
}

/* parse -> read, decide, measure -> finish. */
int cmd_explain(int argc, char **argv)
{
	struct explain_run *r = calloc(1, sizeof(*r));
	int rc;

	if (r == NULL) {
		struct cmd_run run;

		cmd_init(&run, "netprobe", "explain", stdout, stderr);
		return cmd_finish(&run, cmd_fail(&run, "memory",
		                                 "out of memory", NULL, NULL));
	}
	cmd_begin(&r->run, "netprobe", "explain", stdout, stderr);
	rc = parse(&r->run, argc, argv, &r->o);
	if (rc == 0)
		rc = cmd_parsed(&r->run) ? -1 : 0;
	if (rc != 0) {
		free(r);
		return rc == 1 ? 0 : 2;
	}
	if (r->o.list) {
		rc = list_signatures(r->run.json) < 0 ? 2 : 0;
		free(r);
		return rc;
	}
	/* -o must not replace a log it reads */
	for (int i = 0; i < r->o.nfiles && i < CMD_MAX_INPUTS; i++)
		if (strcmp(r->o.files[i], "-") != 0)
			cmd_input(&r->run, r->o.files[i]);
	if (cmd_doc(&r->run) < 0)
		rc = cmd_fail(&r->run, "memory", "out of memory", NULL, NULL);
	else
		rc = explain_run(r);
	rc = cmd_finish(&r->run, rc);
	run_free(r);
	free(r);
	return rc;
}

CMD_COMMAND(explain, cmd_explain, 100,
            "find a failure's cause in a log, prove it here");
