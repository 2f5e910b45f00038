/* netprobe capture: libpcap on one or every interface, a filter built for a
 * peer and its ports, a bounded capture summarised per interface (which
 * interface the traffic used, and what answered each SYN), optionally
 * written to a pcap file. */
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "commands.h"

static volatile sig_atomic_t cap_stop; /* set by SIGINT/SIGTERM only */

/* Only sets the flag; the loop notices within CAP_POLL_MS. */
static void on_signal(int sig)
{
	(void)sig;
	cap_stop = 1;
}

/* Releases handles, the writer and the summary. */
static void cap_close(struct cap_state *st)
{
	for (int i = 0; i < st->nh; i++)
		if (st->h[i].p != NULL)
			pcap_close(st->h[i].p);
	if (st->dump != NULL)
		pcap_dump_close(st->dump);
	outfile_abort(&st->out); /* after a good run already closed */
	if (st->dead != NULL)
		pcap_close(st->dead);
	free(st->conv);
	pcapsum_free(&st->sum);
}

/* Everything before the loop that can fail as bad input or missing
 * privilege, in that order. Returns 0, or 2 after reporting. */
static int prepare(struct cap_state *st, const struct cap_opts *o,
                   pcap_if_t **devs, struct cmd_run *run)
{
	char addrs[CAP_MAX_PEER_ADDRS][INET6_ADDRSTRLEN];
	char err[PCAP_ERRBUF_SIZE];
	const char *why;
	int n = 0;

	if (o->iface != NULL && if_nametoindex(o->iface) == 0)
		return cmd_fail(run, "interface", "unknown interface", o->iface,
		                NULL);
	if (o->peer != NULL) {
		n = cap_resolve_peer(o->peer, addrs, &why);
		if (n < 0)
			return cmd_fail(run, "resolve", "cannot resolve",
			                o->peer, "%s", why);
	}
	if (o->filter != NULL) {
		snprintf(st->filter, sizeof(st->filter), "%s", o->filter);
		st->have_filter = true;
	} else if (n > 0 || o->nports > 0) {
		if (cap_build_filter(o, addrs, n, st->filter,
		                     sizeof(st->filter)) < 0)
			return cmd_fail(run, "filter",
			                "too many ports for one filter", NULL,
			                NULL);
		st->have_filter = true;
	}
	if (st->have_filter && cap_check_filter(st->filter, run) != 0)
		return 2;
	if (o->read != NULL)
		return 0;
	if (pcap_findalldevs(devs, err) < 0)
		return cmd_fail(run, "pcap", "cannot list interfaces", NULL,
		                "%s", err);
	cap_learn_locals(st, *devs);
	if (cap_open_handles(st, o, *devs, run) != 0 ||
	    cap_set_filters(st, run) != 0)
		return 2;
	privdrop_choose_live(&st->target);
	if (o->write != NULL && cap_open_dump(st, o->write, run) != 0)
		return 2;
	return cap_drop_privileges(st, run);
}

/* The capture itself: a file read, or the live loop until the duration
 * or a signal. Returns 0, or 2 (reported); *ran the time it took. */
static int cap_collect(struct cap_state *st, const struct cap_opts *o,
                       struct cmd_run *run, long long *ran)
{
	struct sigaction sa;

	cap_stop = 0;
	if (o->read != NULL)
		return cap_read_file(st, o, &cap_stop, run, ran);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "capturing on %d interface%s for %.1fs...\n",
		        st->nh, st->nh == 1 ? "" : "s",
		        (double)o->duration_us / 1e6);
	*ran = cap_run_loop(st, o->duration_us, &cap_stop, run);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return 0;
}

/* Closes the pcap file written (-w); a failure is the document's. */
static void cap_close_dump(struct cap_state *st, const struct cap_opts *o,
                           struct doc *d)
{
	bool bad;

	if (st->dump == NULL)
		return;
	bad = pcap_dump_flush(st->dump) < 0;
	pcap_dump_close(st->dump);
	st->dump = NULL;
	if (bad)
		doc_add_error(d, "write", "cannot write '%s'", o->write);
	else if (outfile_close(&st->out) < 0)
		doc_add_error(d, "write", "%s", st->out.why);
}

/* parse -> prepare and collect -> emit -> finish. */
int cmd_capture(int argc, char **argv)
{
	struct cap_opts o;
	struct cap_state *st;
	pcap_if_t *devs = NULL;
	struct cmd_run run;
	long long ran = 0;
	int rc;

	cmd_begin(&run, "netprobe", "capture", stdout, stderr);
	rc = cap_parse_args(&run, argc, argv, &o);
	if (rc != 0)
		return rc < 0 ? 0 : rc;
	if ((rc = cmd_parsed(&run)) != 0)
		return cmd_finish(&run, rc);
	st = calloc(1, sizeof(*st));
	if (cmd_doc(&run) < 0 || st == NULL || pcapsum_init(&st->sum) < 0) {
		free(st);
		return cmd_finish(
		    &run, cmd_fail(&run, "doc", "out of memory", NULL, NULL));
	}
	/* -o must not replace the file read, nor the one written */
	cmd_input(&run, o.read);
	cmd_input(&run, o.write);
	st->max_bytes = o.max_bytes;
	rc = prepare(st, &o, &devs, &run);
	if (devs != NULL)
		pcap_freealldevs(devs);
	if (rc == 0)
		rc = cap_collect(st, &o, &run, &ran);
	cap_close_dump(st, &o, &run.doc);
	if (rc == 0)
		cap_emit_json(st, &o, ran, &run.doc);
	if (!run.json && !run.quiet && rc == 0)
		cap_emit_text(st, &o, ran);
	cap_close(st);
	free(st);
	if (rc == 0)
		rc = cmd_status(&run, true);
	return cmd_finish(&run, rc);
}

CMD_COMMAND(capture, cmd_capture, 80, "capture and summarise packets");
