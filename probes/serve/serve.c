/* netprobe serve: the command line of the responder peers probe, and the
 * loop that runs it until SIGINT or SIGTERM. The responder itself is
 * serve_loop.c and the serve_*.c files it calls. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "base/cli.h"
#include "base/monoclock.h"
#include "base/promtext.h"
#include "commands.h"
#include "doc/cmdrun.h"
#include "doc/doc.h"
#include "metrics/metrics_http.h"
#include "serve/serve.h"
#include "wire/proto.h"

static volatile sig_atomic_t serve_stop;

/* Only sets a flag; the loop notices it when epoll_pwait returns. */
static void on_signal(int sig)
{
	serve_stop = sig;
}

enum { O_HELP = 'h', O_METRICS = 256 };

static const struct cli_cmd serve_cmd = {
	"netprobe serve", "[options]",
	"Run the responder that peers probe, until SIGINT or SIGTERM.",
	NULL, 0,
	"Log lines go to standard error (-v: every client and request); at "
	"exit, --json\nor -o writes one document: how it listened, errors.\n",
};

/* Hands the server's figures to --metrics and --textfile; a textfile
 * that cannot be written is told once, and the loop goes on. */
static void publish(struct cmd_run *run, struct server *s,
                    struct metrics_out *mo, bool force)
{
	struct prom_buf b;
	char why[512];

	if (mo->http == NULL && mo->textfile_dir == NULL)
		return;
	prom_init(&b);
	if (serve_metrics(s, &b) == 0 &&
	    metrics_out_publish(mo, b.p, b.len, force, why, sizeof(why)) < 0 &&
	    !mo->file_failed) {
		cmd_note(run, "%s", why);
		mo->file_failed = true;
	}
	prom_free(&b);
}

/* Runs the server until SIGINT or SIGTERM, which are blocked except while
 * the loop waits; the figures are published after every batch, so a
 * scrape is at most a quarter second old; the textfile is removed at the
 * end. Returns the exit status: 0 after a signal, 2 when the loop
 * failed. */
static int serve_run(struct cmd_run *run, struct server *s, int verbose,
                     struct metrics_out *mo)
{
	sigset_t block, orig;
	struct sigaction sa = {0};
	bool metrics = mo->http != NULL || mo->textfile_dir != NULL;
	long long last = 0;
	char why[512];
	int rc = 0;

	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);
	publish(run, s, mo, true);
	while (!serve_stop) {
		if (serve_poll(s, metrics ? 250 : -1, &orig) < 0) {
			rc = cmd_fail(run, "serve", "the event loop failed",
			              NULL, "epoll: %s", strerror(errno));
			break;
		}
		/* under a flood, not after every batch */
		if (metrics && mono_now_us() - last >= 200000) {
			publish(run, s, mo, false);
			last = mono_now_us();
		}
	}
	publish(run, s, mo, true);
	/* node_exporter must not serve a stopped responder's figures */
	if (mo->textfile_dir != NULL && mo->last_file_us != 0 &&
	    prom_textfile_remove(mo->textfile_dir, mo->textfile_name, why,
	                         sizeof(why)) < 0)
		cmd_failf(run, "metrics", "%s", why);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	if (rc == 0 && verbose)
		cmd_note(run, "stopping on signal %d", (int)serve_stop);
	return rc;
}

/* The run's document: how it listened, how long, what stopped it (its
 * errors are cmd_fail's). Written by cmd_finish with --json only. */
static void serve_fill_doc(struct doc *d, const struct serve_opts *o,
                           long long started_us)
{
	if (d->root == NULL)
		return; /* no memory: cmd_init said so */
	doc_set(d, "listen",
	        json_pack("{s:i, s:s?, s:b, s:i}", "port", (int)o->port, "bind",
	                  o->bind, "token", o->token_file != NULL,
	                  "max_clients", (int)o->max_clients));
	doc_set(d, "duration_us",
	        json_integer(started_us ? mono_now_us() - started_us : 0));
	if (serve_stop) {
		const char *abbrev = sigabbrev_np((int)serve_stop);
		char name[32];

		snprintf(name, sizeof(name), "SIG%s", abbrev ? abbrev : "?");
		doc_set(d, "stopped_by", json_string(name));
	} else {
		doc_set(d, "stopped_by", json_null());
	}
}

/* The command line: the responder's options, --metrics and --textfile
 * (--json, -o, -q and -v are the run's). */
struct serve_cli {
	struct serve_opts o;
	struct metrics_out mo;
	const char *metrics;
};

/* The options in GNU order (the common ones into run), no operand, a
 * --metrics address that parses. Returns 0, 1 after --help, or 2
 * (reported). */
static int serve_parse(struct cmd_run *run, int argc, char **argv,
                       struct serve_cli *c)
{
	const struct cli_opt optv[] = {
	    {0, 'p', "port", CLI_REQUIRED, "PORT", "7470",
	     "TCP and UDP port to listen on", false,
	     CLI_RANGE(CLI_UNIT_PORT, 1, 65535), CLI_TO(UINT, &c->o.port)},
	    {0, 'b', "bind", CLI_REQUIRED, "ADDRESS", "all",
	     "listen on this address only", false, CLI_TO(STR, &c->o.bind)},
	    {0, 'k', "token-file", CLI_REQUIRED, "FILE", NULL,
	     "shared secret for listen and connect-back", false,
	     CLI_TO(STR, &c->o.token_file)},
	    {0, 'm', "max-clients", CLI_REQUIRED, "N", "1024",
	     "clients at once", false, CLI_RANGE(CLI_UNIT_COUNT, 1, 65536),
	     CLI_TO(UINT, &c->o.max_clients)},
	    {0, 0, "metrics", CLI_REQUIRED, "ADDR:PORT", NULL,
	     "serve Prometheus /metrics (PORT: on 127.0.0.1)", false,
	     CLI_TO(STR, &c->metrics)},
	    {0, 0, "textfile", CLI_REQUIRED, "DIR", NULL,
	     "write DIR/netprobe_serve.prom for node_exporter", false,
	     CLI_TO(STR, &c->mo.textfile_dir)},
	    CLI_OPT_HELP,
	};
	struct cli_cmd cmd = serve_cmd;
	const char *why;
	char host[256], **ops;
	unsigned mport;
	struct cli cl;
	int ch;

	memset(c, 0, sizeof(*c));
	serve_opts_init(&c->o);
	c->mo.textfile_name = "netprobe_serve.prom";
	cmd.opts = optv;
	cmd.nopts = sizeof(optv) / sizeof(optv[0]);
	cmd_cli(run, &cl, &cmd, argc, argv);
	while ((ch = cli_next(&cl)) != CLI_END) {
		if (ch == O_HELP)
			return cli_help(cl.cmd, stdout) == 0 ? 1 : 2;
		return cli_usage_error(&cmd, stderr, "%s", cl.err);
	}
	if (cli_operands(&cl, &ops) > 0)
		return cli_usage_error(&cmd, stderr,
		                       "unexpected operand '%s'", ops[0]);
	if (c->metrics != NULL &&
	    metrics_addr_parse(c->metrics, host, sizeof(host), &mport, &why) <
	        0)
		return cli_usage_error(&cmd, stderr,
		                       "invalid metrics address '%s': %s",
		                       c->metrics, why);
	c->o.verbose = run->verbose;
	return 0;
}

/* serve's port is held (err): says by whom; a mesh's responder gets the
 * mesh's own port as the way out. Returns NULL (reported). */
static struct server *held(struct cmd_run *run, const struct serve_cli *c,
                           const char *err)
{
	char who[128] = "";

	switch (serve_holder_find(c->o.bind, c->o.port, who, sizeof(who))) {
	case SERVE_HOLDER_MESH:
		cmd_failf(run, "serve",
		          "%s: %s holds it, a mesh's own responder (the "
		          "mesh's port is -p, MASTER_PORT, else %u): start "
		          "serve when the mesh ends, or give the mesh its "
		          "default port",
		          err, who, PROTO_MESH_DEFAULT_PORT);
		break;
	case SERVE_HOLDER_SERVE:
		cmd_failf(run, "serve",
		          "%s: %s holds it, a responder runs here", err, who);
		break;
	default:
		cmd_failf(run, "serve", "%s%s%s", err,
		          who[0] ? ": held by " : "", who);
		break;
	}
	return NULL;
}

/* The server and its --metrics listener. Returns the server, or NULL
 * (reported). */
static struct server *serve_open(struct cmd_run *run, struct serve_cli *c)
{
	struct server *s;
	char err[512];

	s = serve_start(&c->o, err, sizeof(err));
	if (s == NULL && errno == EADDRINUSE)
		return held(run, c, err);
	if (s != NULL && c->metrics != NULL) {
		c->mo.http = metrics_http_start(c->metrics, err, sizeof(err));
		if (c->mo.http == NULL) {
			serve_free(s);
			s = NULL;
		}
	}
	if (s == NULL) {
		cmd_failf(run, "serve", "%s", err);
		return NULL;
	}
	if (run->quiet)
		return s; /* -q: no notice, errors only */
	if (c->mo.http != NULL)
		cmd_note(run, "metrics on http://%s/metrics (port %u)",
		         c->metrics, metrics_http_port(c->mo.http));
	cmd_note(run, "listening on tcp and udp port %u%s%s%s", c->o.port,
	         c->o.bind ? " of " : "", c->o.bind ? c->o.bind : "",
	         c->o.token_file
	             ? " (token required for listen and connect-back)"
	             : "");
	return s;
}

/* netprobe serve: parse -> serve until a signal -> finish (the document
 * under --json). Returns 0 after a signal, 2 when it could not start. */
int cmd_serve(int argc, char **argv)
{
	struct serve_cli c;
	struct cmd_run run;
	struct server *s;
	long long t0 = 0;
	int rc;

	cmd_begin(&run, "netprobe", "serve", stdout, stderr);
	rc = serve_parse(&run, argc, argv, &c);
	if (rc != 0)
		return rc == 1 ? 0 : 2;
	if ((rc = cmd_parsed(&run)) != 0)
		return cmd_finish(&run, rc);
	cmd_input(&run, c.o.token_file);
	if (cmd_doc(&run) < 0)
		cmd_fail(&run, "serve", "out of memory", NULL, NULL);
	s = run.nfail == 0 ? serve_open(&run, &c) : NULL;
	rc = 2;
	if (s != NULL) {
		t0 = mono_now_us();
		rc = serve_run(&run, s, c.o.verbose, &c.mo);
		metrics_http_stop(c.mo.http);
		serve_free(s);
	}
	serve_fill_doc(&run.doc, &c.o, t0);
	serve_stop = 0;
	return cmd_finish(&run, rc);
}

CMD_COMMAND(serve, cmd_serve, 40, "run the responder that peers probe");
