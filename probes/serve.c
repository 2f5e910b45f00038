/* netprobe serve: the command line of the responder peers probe, and the
 * loop that runs it until SIGINT or SIGTERM. The responder itself is
 * serve_loop.c and the serve_*.c files it calls. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "commands.h"
#include "serve.h"
#include "wire/proto.h"

static volatile sig_atomic_t serve_stop;

/* Only sets a flag; the loop notices it when epoll_pwait returns. */
static void on_signal(int sig)
{
	serve_stop = sig;
}

/* Usage on stdout for --help, on stderr for misuse. */
static void usage(FILE *fp)
{
	fprintf(fp,
	        "usage: netprobe serve [-hv] [-p port] [-b address] "
	        "[-k token-file] [-m max-clients]\n"
	        "  -p, --port N          TCP and UDP port (default %d)\n"
	        "  -b, --bind ADDR       listen on this address only "
	        "(default all)\n"
	        "  -k, --token-file F    shared secret: clients must prove "
	        "it for listen and connect-back\n"
	        "  -m, --max-clients N   clients at once (default 1024)\n"
	        "  -v, --verbose         log every client and request\n",
	        PROTO_DEFAULT_PORT);
}

/* Runs the server until SIGINT or SIGTERM, which are blocked except while
 * the loop waits. Returns the exit status: 0 after a signal, 2 when the
 * loop failed. */
static int serve_run(struct server *s, int verbose)
{
	sigset_t block, orig;
	struct sigaction sa = {0};
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
	while (!serve_stop)
		if (serve_poll(s, -1, &orig) < 0) {
			fprintf(stderr, "netprobe serve: epoll: %s\n",
			        strerror(errno));
			rc = 2;
			break;
		}
	sigprocmask(SIG_SETMASK, &orig, NULL);
	if (rc == 0 && verbose)
		fprintf(stderr, "netprobe serve: stopping on signal %d\n",
		        (int)serve_stop);
	return rc;
}

/* netprobe serve: parses options, starts the server, runs the loop.
 * Returns 0 after a signal, 2 when it could not start. */
int cmd_serve(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"port", required_argument, NULL, 'p'},
	    {"bind", required_argument, NULL, 'b'},
	    {"token-file", required_argument, NULL, 'k'},
	    {"max-clients", required_argument, NULL, 'm'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct serve_opts o;
	struct server *s;
	char err[512];
	const char *errstr;
	long long v;
	int ch, rc;

	serve_opts_init(&o);
	optind = 1;
	while ((ch = getopt_long(argc, argv, "+p:b:k:m:vh", opts, NULL)) !=
	       -1) {
		switch (ch) {
		case 'p':
			if (parse_num(optarg, 1, 65535, &v, &errstr) < 0) {
				fprintf(stderr,
				        "netprobe serve: invalid port "
				        "'%s': %s\n",
				        optarg, errstr);
				return 2;
			}
			o.port = (unsigned)v;
			break;
		case 'b':
			o.bind = optarg;
			break;
		case 'k':
			o.token_file = optarg;
			break;
		case 'm':
			if (parse_num(optarg, 1, 65536, &v, &errstr) < 0) {
				fprintf(stderr,
				        "netprobe serve: invalid "
				        "max-clients '%s': %s\n",
				        optarg, errstr);
				return 2;
			}
			o.max_clients = (unsigned)v;
			break;
		case 'v':
			o.verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "netprobe serve: unexpected argument '%s'\n",
		        argv[optind]);
		usage(stderr);
		return 2;
	}
	s = serve_start(&o, err, sizeof(err));
	if (!s) {
		fprintf(stderr, "netprobe serve: %s\n", err);
		return 2;
	}
	fprintf(stderr,
	        "netprobe serve: listening on tcp and udp port %u%s%s"
	        "%s\n",
	        o.port, o.bind ? " of " : "", o.bind ? o.bind : "",
	        o.token_file ? " (token required for listen and connect-back)"
	                     : "");
	rc = serve_run(s, o.verbose);
	serve_free(s);
	serve_stop = 0;
	return rc;
}
