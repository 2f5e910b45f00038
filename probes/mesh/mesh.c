/* netprobe mesh: one process per node, together testing every node
 * against every other in both directions; node 0 writes the report. This
 * file runs the steps (mesh_int.h says which file does what): the
 * membership, the temporary responder on its own thread, the local
 * collection, then node 0's rendezvous or a member's join. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "commands.h"
#include "mesh/mesh_int.h"
#include "mesh/mesh_watch.h"
#include "metrics/metrics_http.h"
#include "probe/peerprobe.h"

/* Accepts and drops connect-backs to our ephemeral sample listeners
 * (the handshake was the proof), so their queues never fill. */
static void accept_samples(struct mesh *ms)
{
	for (size_t i = 0; i < ms->nsamples; i++)
		for (int k = 0; k < 64; k++) {
			int fd = accept4(ms->sample_fds[i], NULL, NULL,
			                 SOCK_CLOEXEC);

			if (fd < 0)
				break;
			close(fd);
		}
}

/* The responder's thread: serves peers' probes (and on node 0 hands
 * joins to the rendezvous) until the run ends. */
static void *srv_main(void *arg)
{
	struct mesh *ms = arg;

	while (!atomic_load(&ms->stop)) {
		/* watching, nobody connects to the samples: wake less */
		int wait_ms = atomic_load(&ms->watching) ? 250 : 20;

		if (serve_poll(ms->srv, wait_ms, NULL) < 0 && errno != EINTR) {
			cmd_note(&ms->run, "responder: %s", strerror(errno));
			break;
		}
		accept_samples(ms);
		mesh_hold_accept(ms);
		/* out of descriptors, the listener stays readable and
		 * accept fails at once: wait for the rendezvous to free
		 * some rather than spin (issue 45) */
		if (ms->rank == 0 && mesh_rdv_fds_short(ms, NULL))
			nanosleep(&(struct timespec){0, 50000000L}, NULL);
	}
	return NULL;
}

/* The responder could not start (err, errno e): says so, and when its
 * port is held, who holds it; netprobe serve gets the mesh's own port as
 * the way out. Returns 2. */
static int responder_failed(struct mesh *ms, const char *err, int e)
{
	char who[128] = "", how[128];
	enum serve_holder k = SERVE_HOLDER_UNKNOWN;

	if (e == EADDRINUSE)
		k = serve_holder_find(ms->o.bind, ms->port, who, sizeof(who));
	if (ms->o.port)
		snprintf(how, sizeof(how),
		         "pass another --port, or none (the "
		         "mesh's default is %u)",
		         PROTO_MESH_DEFAULT_PORT);
	else if (ms->env.port)
		snprintf(how, sizeof(how),
		         "MASTER_PORT names it; pass --port "
		         "(the mesh's default is %u)",
		         PROTO_MESH_DEFAULT_PORT);
	else
		snprintf(how, sizeof(how), "pass --port");
	if (k == SERVE_HOLDER_SERVE)
		return cmd_fail(&ms->run, "mesh", "cannot run the responder",
		                NULL,
		                "%s: %s holds it, this node's responder; the "
		                "mesh needs a port of its own: %s",
		                err, who, how);
	if (k == SERVE_HOLDER_MESH)
		return cmd_fail(&ms->run, "mesh", "cannot run the responder",
		                NULL,
		                "%s: %s holds it, another mesh on this node: "
		                "wait for it to end or %s",
		                err, who, how);
	return cmd_fail(&ms->run, "mesh", "cannot run the responder", NULL,
	                "%s%s%s%s", err, who[0] ? ": held by " : "", who,
	                ms->rank == 0 ? " (node 0's rendezvous needs this "
	                                "port: pass --port)"
	                              : "");
}

/* Starts the temporary responder on the mesh's port, our sample
 * listeners and the thread that serves both. Returns 0, or 2. */
static int start_responder(struct mesh *ms)
{
	struct serve_opts so;
	char err[512];
	int e;

	serve_opts_init(&so);
	so.port = ms->port;
	so.bind = ms->o.bind;
	so.token_file = ms->o.token_file;
	so.max_clients =
	    (unsigned)(ms->n * 2 + 256 > 1024 ? ms->n * 2 + 256 : 1024);
	so.verbose = ms->o.verbose > 1;
	if (ms->rank == 0) {
		so.handoff = mesh_rdv_handoff;
		so.handoff_ctx = ms;
	} else {
		so.joins_refused = &ms->joins_here;
	}
	ms->srv = serve_start(&so, err, sizeof(err));
	if (ms->srv == NULL)
		return responder_failed(ms, err, errno);
	ms->nsamples = peerprobe_listen_samples(MESH_SAMPLES, ms->sample_fds,
	                                        ms->sample_ports);
	/* before the join: every member holds its ports by the time node 0
	 * starts the probing */
	mesh_hold_ports(ms, ms->o.ports);
	e = pthread_create(&ms->srv_thread, NULL, srv_main, ms);
	if (e != 0) {
		cmd_fail(&ms->run, "mesh", "cannot start a thread", NULL, "%s",
		         strerror(e));
		return 2;
	}
	ms->srv_running = true;
	return 0;
}

/* The scan's local collection: interfaces, routes, layering, hostname,
 * environment. Returns 0, or 2 (reported). */
static int collect(struct mesh *ms)
{
	struct scan *s = calloc(1, sizeof(*s));

	ms->scan = s;
	if (s == NULL ||
	    cmd_init(&s->run, "netprobe", "scan", stdout, stderr) < 0) {
		cmd_fail(&ms->run, "mesh", "out of memory", NULL, NULL);
		return 2;
	}
	if (sysroot_init(&s->sr, NULL) < 0) {
		cmd_fail(&ms->run, "mesh", "cannot read /", NULL, "%s",
		         strerror(errno));
		return 2;
	}
	s->o.token_file = ms->o.token_file;
	s->o.quick = ms->o.quick;
	s->mesh_port = ms->port;
	if (scan_collect(s) != 0)
		return 2;
	if (s->env.nodes == 0)
		s->env.nodes = (int)ms->n;
	return 0;
}

/* Node 0 is a member like the others: it joined at the start. */
static void node0_member(struct mesh *ms)
{
	struct mesh_member *m = &ms->m[0];

	m->state = PROTO_MS_JOINED;
	m->port = ms->port;
	snprintf(m->hostname, sizeof(m->hostname), "%s", ms->hostname);
	if (m->entry[0] == '\0')
		snprintf(m->target, sizeof(m->target), "%s", ms->node0);
	/* its rank from the launcher: its own addresses lack its entry's
	 * (a NAT'd container listed by its host's), which is where the
	 * others reach it, as a NAT'd member's observed address is */
	if (ms->rank_var != NULL) {
		mesh_own_addrs(ms, m->own_addrs, sizeof(m->own_addrs));
		mesh_entry_addr(m->entry, m->observed, sizeof(m->observed));
		m->nat = true;
	}
}

/* Releases the run; the responder stops first. */
static void mesh_free(struct mesh *ms)
{
	mesh_watch_free(ms);
	metrics_http_stop(ms->metrics_http);
	atomic_store(&ms->stop, true);
	if (ms->srv_running)
		pthread_join(ms->srv_thread, NULL);
	serve_free(ms->srv);
	for (size_t i = 0; i < ms->nsamples; i++)
		close(ms->sample_fds[i]);
	mesh_hold_close(ms);
	mesh_rdv_free(ms);
	for (size_t k = 0; k < ms->ntargets; k++) {
		if (ms->checks != NULL)
			peercheck_free(&ms->checks[k]);
		if (ms->check_docs != NULL)
			doc_free(&ms->check_docs[k]);
	}
	free(ms->checks);
	free(ms->check_docs);
	free(ms->routes);
	free(ms->idle);
	free(ms->have_route);
	free(ms->workers);
	free(ms->targets);
	for (size_t i = 0; ms->m != NULL && i < ms->n; i++)
		free(ms->m[i].doc);
	free(ms->m);
	free(ms->rejects);
	free(ms->own_doc);
	if (ms->scan != NULL) {
		scan_free(ms->scan);
		free(ms->scan);
	}
	client_close(&ms->c);
	mesh_env_free(&ms->env);
}

/* Node 0 holds a connection for each member beside the responder's
 * clients: its soft limit of descriptors is raised toward the hard one
 * as far as the mesh needs (issue 45); what is left is the guard's. */
static void raise_fd_limit(struct mesh *ms)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)(ms->n * 3 + 1024 + 256 + RDV_UNAUTH_MAX +
	                       RDV_FD_SPARE);

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 ||
	    rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return;
	rl.rlim_cur = rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want
	                  ? rl.rlim_max
	                  : want;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0 && ms->o.verbose)
		cmd_note(&ms->run, "cannot raise the descriptor limit: %s",
		         strerror(errno));
}

/* The steps before the probing: the membership, node 0's outputs and
 * rendezvous, the --metrics listener (one that cannot be bound costs no
 * mesh). Returns 0, or 2 (reported). */
static int mesh_setup(struct mesh *ms)
{
	char err[512];
	int rc;

	if ((rc = mesh_members(ms)) != 0 ||
	    (ms->rank == 0 && (rc = mesh_check_outputs(ms)) != 0))
		return rc;
	if (ms->rank == 0)
		raise_fd_limit(ms);
	if (ms->rank == 0 && mesh_rdv_init(ms) < 0)
		return cmd_fail(
		    &ms->run, "mesh", "cannot set up the rendezvous", NULL,
		    "%s%s%s", ms->o.token_file ? "token file '" : "",
		    ms->o.token_file ? ms->o.token_file : "",
		    ms->o.token_file ? "' unreadable or malformed" : "");
	if (ms->o.metrics != NULL) {
		ms->metrics_http =
		    metrics_http_start(ms->o.metrics, err, sizeof(err));
		if (ms->metrics_http == NULL)
			return cmd_failf(&ms->run, "mesh", "%s", err);
	}
	return 0;
}

/* Collect (the responder, the local scan), then decide: node 0 runs the
 * rendezvous and writes the report, a member joins; a watch follows.
 * Returns the exit status. */
static int mesh_steps(struct mesh *ms)
{
	int rc;

	if ((rc = mesh_setup(ms)) != 0 || (rc = start_responder(ms)) != 0 ||
	    (rc = collect(ms)) != 0)
		return rc;
	if (ms->rank == 0) {
		node0_member(ms);
		rc = mesh_rdv_run(ms, mesh_report);
	} else {
		rc = mesh_join_run(ms);
	}
	if (ms->o.watch_us > 0 && rc < 2)
		rc = mesh_watch_run(ms, rc);
	return rc;
}

/* netprobe mesh: parse -> collect -> decide -> finish. The exit status is
 * the mesh's verdict on every node (0 healthy, 1 a fault anywhere), or 2
 * when this node could not take part. The run has no document of its
 * own (its scan's and node 0's report are written by their steps): it
 * says the errors and checks standard output. */
int cmd_mesh(int argc, char **argv)
{
	struct mesh *ms = calloc(1, sizeof(*ms));
	struct cmd_run run;
	int rc;

	if (ms == NULL) {
		cmd_begin(&run, "netprobe", "mesh", stdout, stderr);
		return cmd_finish(
		    &run, cmd_fail(&run, "mesh", "out of memory", NULL, NULL));
	}
	cmd_begin(&ms->run, "netprobe", "mesh", stdout, stderr);
	ms->c.fd = -1;
	ms->t0_us = mono_now_us();
	signal(SIGPIPE, SIG_IGN);
	rc = mesh_parse(&ms->run, argc, argv, &ms->o);
	if (rc == 0 && cmd_parsed(&ms->run) != 0)
		rc = -1; /* 2, reported */
	if (rc == 0 && ms->o.bind != NULL && client_set_source(ms->o.bind) < 0)
		rc = 2; /* mesh_parse checked it: not reached */
	if (rc == 0)
		rc = mesh_steps(ms);
	else
		rc = rc == 1 ? 0 : 2;
	mesh_free(ms);
	rc = cmd_finish(&ms->run, rc);
	free(ms);
	return rc;
}

CMD_COMMAND(mesh, cmd_mesh, 90,
            "test every node against every other, one per node");
