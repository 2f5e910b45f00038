/* netprobe serve: the command line of the responder peers probe, and the
 * loop that runs it until SIGINT or SIGTERM. The responder itself is
 * serve_loop.c and the serve_*.c files it calls. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/cli.h"
#include "base/parse.h"
#include "base/promtext.h"
#include "commands.h"
#include "doc/doc.h"
#include "metrics/metrics_http.h"
#include "serve/serve.h"
#include "wire/proto.h"

static volatile sig_atomic_t serve_stop;

/* Monotonic microseconds, for the document's duration. */
static long long mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* Only sets a flag; the loop notices it when epoll_pwait returns. */
static void on_signal(int sig)
{
	serve_stop = sig;
}

enum {
	O_PORT = 'p',
	O_BIND = 'b',
	O_TOKEN = 'k',
	O_MAXCLIENTS = 'm',
	O_VERBOSE = 'v',
	O_JSON = 'j',
	O_HELP = 'h',
	O_METRICS = 256,
	O_TEXTFILE,
};

static const struct cli_opt serve_optv[] = {
	{O_PORT, 'p', "port", CLI_REQUIRED, "PORT", "7470",
	 "TCP and UDP port to listen on", false},
	{O_BIND, 'b', "bind", CLI_REQUIRED, "ADDRESS", "all",
	 "listen on this address only", false},
	{O_TOKEN, 'k', "token-file", CLI_REQUIRED, "FILE", NULL,
	 "shared secret for listen and connect-back", false},
	{O_MAXCLIENTS, 'm', "max-clients", CLI_REQUIRED, "N", "1024",
	 "clients at once", false},
	{O_VERBOSE, 'v', "verbose", CLI_FLAG, NULL, NULL,
	 "log every client and request", false},
	{O_JSON, 'j', "json", CLI_FLAG, NULL, NULL,
	 "at exit, one JSON document: how it listened, errors", false},
	{O_METRICS, 0, "metrics", CLI_REQUIRED, "ADDR:PORT", NULL,
	 "serve Prometheus /metrics (PORT: on 127.0.0.1)", false},
	{O_TEXTFILE, 0, "textfile", CLI_REQUIRED, "DIR", NULL,
	 "write DIR/netprobe_serve.prom for node_exporter", false},
	CLI_OPT_HELP,
};

static const struct cli_cmd serve_cmd = {
	"netprobe serve", "[options]",
	"Run the responder that peers probe, until SIGINT or SIGTERM.",
	serve_optv, sizeof(serve_optv) / sizeof(serve_optv[0]),
	"Log lines go to standard error.\n",
};

/* Hands the server's figures to --metrics and --textfile; a textfile
 * that cannot be written is told once, and the loop goes on. */
static void publish(struct server *s, struct metrics_out *mo, bool force)
{
	struct prom_buf b;
	char why[512];

	if (mo->http == NULL && mo->textfile_dir == NULL)
		return;
	prom_init(&b);
	if (serve_metrics(s, &b) == 0 &&
	    metrics_out_publish(mo, b.p, b.len, force, why, sizeof(why)) < 0 &&
	    !mo->file_failed) {
		fprintf(stderr, "netprobe serve: %s\n", why);
		mo->file_failed = true;
	}
	prom_free(&b);
}

/* Runs the server until SIGINT or SIGTERM, which are blocked except while
 * the loop waits; the figures are published after every batch, so a
 * scrape is at most a quarter second old. Returns the exit status: 0
 * after a signal, 2 when the loop failed. */
static int serve_run(struct server *s, int verbose, struct metrics_out *mo)
{
	sigset_t block, orig;
	struct sigaction sa = {0};
	bool metrics = mo->http != NULL || mo->textfile_dir != NULL;
	long long last = 0;
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
	publish(s, mo, true);
	while (!serve_stop) {
		if (serve_poll(s, metrics ? 250 : -1, &orig) < 0) {
			fprintf(stderr, "netprobe serve: epoll: %s\n",
			        strerror(errno));
			rc = 2;
			break;
		}
		/* under a flood, not after every batch */
		if (metrics && mono_us() - last >= 200000) {
			publish(s, mo, false);
			last = mono_us();
		}
	}
	publish(s, mo, true);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	if (rc == 0 && verbose)
		fprintf(stderr, "netprobe serve: stopping on signal %d\n",
		        (int)serve_stop);
	return rc;
}

/* With --json: the document, at exit or when the server could not
 * start. Returns rc, or 2 when the document could not be written. */
static int serve_doc(const struct serve_opts *o, long long started_us,
                     const char *err, int rc)
{
	struct doc d;

	if (doc_init(&d, "netprobe", "serve") < 0) {
		fprintf(stderr, "netprobe serve: out of memory\n");
		return 2;
	}
	doc_set(&d, "listen",
	        json_pack("{s:i, s:s?, s:b, s:i}", "port", (int)o->port,
	                  "bind", o->bind, "token", o->token_file != NULL,
	                  "max_clients", (int)o->max_clients));
	doc_set(&d, "duration_us",
	        json_integer(started_us ? mono_us() - started_us : 0));
	if (serve_stop) {
		const char *abbrev = sigabbrev_np((int)serve_stop);
		char name[32];

		snprintf(name, sizeof(name), "SIG%s", abbrev ? abbrev : "?");
		doc_set(&d, "stopped_by", json_string(name));
	} else {
		doc_set(&d, "stopped_by", json_null());
	}
	if (err)
		doc_add_error(&d, "serve", "%s", err);
	if (doc_write(&d, stdout) < 0)
		rc = 2;
	doc_free(&d);
	return rc;
}

/* netprobe serve: parses options, starts the server, runs the loop.
 * Returns 0 after a signal, 2 when it could not start. */
int cmd_serve(int argc, char **argv)
{
	struct serve_opts o;
	struct metrics_out mo = {0};
	const char *metrics = NULL;
	struct server *s;
	struct cli cl;
	char err[512], **ops;
	const char *errstr;
	long long v, t0;
	bool json = false;
	int ch, rc;

	serve_opts_init(&o);
	cli_start(&cl, &serve_cmd, argc, argv);
	while ((ch = cli_next(&cl)) != CLI_END) {
		switch (ch) {
		case O_PORT:
			if (parse_num(cl.arg, 1, 65535, &v, &errstr) < 0) {
				fprintf(stderr,
				        "netprobe serve: invalid port "
				        "'%s': %s\n",
				        cl.arg, errstr);
				return 2;
			}
			o.port = (unsigned)v;
			break;
		case O_BIND:
			o.bind = cl.arg;
			break;
		case O_TOKEN:
			o.token_file = cl.arg;
			break;
		case O_MAXCLIENTS:
			if (parse_num(cl.arg, 1, 65536, &v, &errstr) < 0) {
				fprintf(stderr,
				        "netprobe serve: invalid "
				        "max-clients '%s': %s\n",
				        cl.arg, errstr);
				return 2;
			}
			o.max_clients = (unsigned)v;
			break;
		case O_VERBOSE:
			o.verbose++;
			break;
		case O_JSON:
			json = true;
			break;
		case O_METRICS:
			metrics = cl.arg;
			break;
		case O_TEXTFILE:
			mo.textfile_dir = cl.arg;
			break;
		case O_HELP:
			return cli_help(&serve_cmd, stdout) == 0 ? 0 : 2;
		default:
			return cli_usage_error(&serve_cmd, stderr, "%s",
			                       cl.err);
		}
	}
	if (cli_operands(&cl, &ops) > 0)
		return cli_usage_error(&serve_cmd, stderr,
		                       "unexpected operand '%s'", ops[0]);
	if (metrics != NULL) {
		char host[256];
		unsigned mport;

		if (metrics_addr_parse(metrics, host, sizeof(host), &mport,
		                       &errstr) < 0)
			return cli_usage_error(&serve_cmd, stderr,
			                       "invalid metrics address '%s': %s",
			                       metrics, errstr);
	}
	mo.textfile_name = "netprobe_serve.prom";
	s = serve_start(&o, err, sizeof(err));
	if (s && metrics != NULL) {
		mo.http = metrics_http_start(metrics, err, sizeof(err));
		if (mo.http == NULL) {
			serve_free(s);
			s = NULL;
		}
	}
	if (!s) {
		fprintf(stderr, "netprobe serve: %s\n", err);
		return json ? serve_doc(&o, 0, err, 2) : 2;
	}
	if (mo.http != NULL)
		fprintf(stderr,
		        "netprobe serve: metrics on http://%s/metrics (port "
		        "%u)\n",
		        metrics, metrics_http_port(mo.http));
	fprintf(stderr,
	        "netprobe serve: listening on tcp and udp port %u%s%s"
	        "%s\n",
	        o.port, o.bind ? " of " : "", o.bind ? o.bind : "",
	        o.token_file ? " (token required for listen and connect-back)"
	                     : "");
	t0 = mono_us();
	rc = serve_run(s, o.verbose, &mo);
	metrics_http_stop(mo.http);
	serve_free(s);
	if (json)
		rc = serve_doc(&o, t0, rc ? "the event loop failed" : NULL, rc);
	serve_stop = 0;
	return rc;
}
