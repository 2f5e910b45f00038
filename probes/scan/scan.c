/* netprobe scan: collect this node's interfaces, routes, layering,
 * hostname and environment; probe the peers; decide the findings and the
 * recommendation; emit text, JSON or `export` lines. This file runs the
 * steps (see scan_int.h for the file of each) and holds the entry points
 * other commands call. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "scan/scan.h"
#include "base/cli.h"
#include "scan/scan_int.h"

/* Releases everything the run holds (not s itself). */
void scan_free(struct scan *s)
{
	for (size_t i = 0; i < s->cap_peers; i++)
		json_decref(s->peer_json[i]);
	free(s->peer_json);
	free(s->peers);
	free(s->lost);
	scan_rdma_free(s);
	recommendation_free(&s->rec);
	layers_free(&s->ly); /* safe when detection failed half way */
	iface_list_free(&s->ifaces);
	doc_free(&s->run.doc); /* safe after cmd_finish */
	free(s->fwrules);
	free(s->natredir);
	free(s->xfrm);
	free(s->statics);
	free(s->qdiscs);
}

/* The run after its options: collect, probe, decide, emit. Returns the
 * exit status (errors reported on the run). */
static int scan_run(struct scan *s)
{
	int rc;

	if (cmd_doc(&s->run) < 0)
		return cmd_fail(&s->run, "memory", "out of memory", NULL, NULL);
	if (sysroot_init(&s->sr, s->o.sysroot) < 0)
		return cmd_fail(&s->run, "sysroot", "cannot read sysroot",
		                s->o.sysroot, "%s", strerror(errno));
	if ((rc = scan_collect(s)) != 0 || (rc = scan_peers(s)) != 0 ||
	    (rc = scan_decide(s)) != 0)
		return rc;
	if (scan_build_doc(s) < 0)
		return cmd_fail(&s->run, "memory", "out of memory", NULL, NULL);
	if (scan_emit(s) < 0)
		return cmd_fail(&s->run, "output", "cannot write output", NULL,
		                NULL);
	return cmd_status(&s->run, true);
}

/* The subcommand: parse -> collect -> decide -> finish; the exit status
 * is the verdict (0 no fault, 1 fault, 2 could not run). */
int cmd_scan(int argc, char **argv)
{
	struct scan *s = calloc(1, sizeof(*s));
	int rc;

	if (s == NULL) {
		struct cmd_run r;

		cmd_init(&r, "netprobe", "scan", stdout, stderr);
		return cmd_finish(
		    &r, cmd_fail(&r, "memory", "out of memory", NULL, NULL));
	}
	cmd_begin(&s->run, "netprobe", "scan", stdout, stderr);
	rc = scan_parse(&s->run, argc, argv, &s->o);
	if (rc == 0)
		rc = cmd_parsed(&s->run) ? -1 : 0;
	if (rc != 0) {
		free(s);
		return rc == 1 ? 0 : 2;
	}
	s->color = !s->run.json && !s->o.export &&
	           cli_color(isatty(STDOUT_FILENO), getenv("NO_COLOR"));
	rc = scan_run(s);
	rc = cmd_finish(&s->run, rc);
	scan_free(s);
	free(s);
	return rc;
}

CMD_COMMAND(scan, cmd_scan, 10,
            "diagnose this node and recommend an interface");

/* The same steps as cmd_scan up to the recommendation, with no output:
 * a run without streams is silent and nothing is emitted. */
int scan_recommend_quiet(const struct sysroot *sr, char *ifname, size_t len)
{
	struct scan *s = calloc(1, sizeof(*s));
	int rc = -1;

	if (len > 0)
		ifname[0] = '\0';
	if (s == NULL)
		return -1;
	s->sr = *sr;
	if (cmd_init(&s->run, "netprobe", "scan", NULL, NULL) < 0 ||
	    scan_collect(s) != 0 ||
	    scan_peers(s) != 0 || scan_recommend(s) != 0)
		goto out;
	if (s->rec.ifc != NULL)
		snprintf(ifname, len, "%s", s->rec.ifc->name);
	rc = 0;
out:
	scan_free(s);
	free(s);
	return rc;
}
