/* netprobe capture on live interfaces: the handles, their filters, the
 * bounded capture loop and the drop of root once all is open. */
#include <errno.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "base/monoclock.h"
#include "capture/capture.h"

/* Registers every local address and each interface's MAC with the
 * summary, from the device list libpcap already read. */
void cap_learn_locals(struct cap_state *st, pcap_if_t *devs)
{
	for (pcap_if_t *dv = devs; dv != NULL; dv = dv->next) {
		for (pcap_addr_t *a = dv->addresses; a != NULL; a = a->next) {
			if (a->addr == NULL)
				continue;
			if (a->addr->sa_family == AF_INET)
				pcapsum_add_local(
				    &st->sum, AF_INET,
				    &((struct sockaddr_in *)(void *)a->addr)
				         ->sin_addr);
			else if (a->addr->sa_family == AF_INET6)
				pcapsum_add_local(
				    &st->sum, AF_INET6,
				    &((struct sockaddr_in6 *)(void *)a->addr)
				         ->sin6_addr);
		}
	}
}

/* The interface's MAC from the device list (AF_PACKET address), or NULL. */
static const unsigned char *dev_mac(pcap_if_t *devs, const char *name)
{
	for (pcap_if_t *dv = devs; dv != NULL; dv = dv->next) {
		if (strcmp(dv->name, name) != 0)
			continue;
		for (pcap_addr_t *a = dv->addresses; a != NULL; a = a->next) {
			const struct sockaddr_ll *ll;

			if (a->addr == NULL || a->addr->sa_family != AF_PACKET)
				continue;
			ll = (const struct sockaddr_ll *)(const void *)a->addr;
			if (ll->sll_halen == 6)
				return ll->sll_addr;
		}
	}
	return NULL;
}

/* Opens, configures and activates one handle. Returns 0, or the pcap
 * status (negative) with the message in err. */
static int open_one(struct cap_state *st, const char *name,
                    const unsigned char *mac, int snaplen, char *err)
{
	struct cap_handle *h = &st->h[st->nh];
	int rc;

	h->p = pcap_create(name, err);
	if (h->p == NULL)
		return PCAP_ERROR;
	if (pcap_set_snaplen(h->p, snaplen) != 0 ||
	    pcap_set_promisc(h->p, 0) != 0 ||
	    pcap_set_immediate_mode(h->p, 1) != 0 ||
	    pcap_set_buffer_size(h->p, st->bufsize) != 0 ||
	    pcap_set_timeout(h->p, CAP_POLL_MS) != 0) {
		snprintf(err, PCAP_ERRBUF_SIZE, "cannot configure the handle");
		pcap_close(h->p);
		h->p = NULL;
		return PCAP_ERROR;
	}
	rc = pcap_activate(h->p);
	if (rc < 0) {
		snprintf(err, PCAP_ERRBUF_SIZE, "%s", pcap_geterr(h->p));
		pcap_close(h->p);
		h->p = NULL;
		return rc;
	}
	h->linktype = pcap_datalink(h->p);
	h->ifindex = if_nametoindex(name);
	h->sum_index = pcapsum_add_iface(&st->sum, name, mac);
	if (h->sum_index < 0) {
		snprintf(err, PCAP_ERRBUF_SIZE, "too many interfaces");
		pcap_close(h->p);
		h->p = NULL;
		return PCAP_ERROR;
	}
	h->fd = -1;
	st->nh++;
	return 0;
}

/* True for a device worth capturing on with --all: a network interface
 * (not a USB, D-Bus or netfilter pseudo-device) that is up. */
static bool dev_wanted(const pcap_if_t *dv)
{
	if (strcmp(dv->name, "any") == 0 || if_nametoindex(dv->name) == 0)
		return false;
	return (dv->flags & PCAP_IF_UP) != 0;
}

/* Opens the handles. Returns 0, or 2 after reporting why (no privilege,
 * unknown interface, nothing to capture on). */
int cap_open_handles(struct cap_state *st, const struct cap_opts *o,
                     pcap_if_t *devs, struct cmd_run *run)
{
	char err[PCAP_ERRBUF_SIZE];
	int snaplen = o->write ? CAP_SNAPLEN_WRITE : CAP_SNAPLEN_SUMMARY;
	int rc, want = 0;

	/* the kernel rings share CAP_RING_TOTAL, within bounds per handle,
	 * so a host with dozens of interfaces does not pin gigabytes */
	for (pcap_if_t *dv = devs; dv != NULL; dv = dv->next)
		want += o->iface != NULL ? strcmp(dv->name, o->iface) == 0
		                         : dev_wanted(dv);
	st->bufsize = CAP_RING_TOTAL / (want > 0 ? want : 1);
	if (st->bufsize > CAP_RING_MAX)
		st->bufsize = CAP_RING_MAX;
	if (st->bufsize < CAP_RING_MIN)
		st->bufsize = CAP_RING_MIN;
	for (pcap_if_t *dv = devs; dv != NULL && st->nh < CAP_MAX_HANDLES;
	     dv = dv->next) {
		if (o->iface != NULL ? strcmp(dv->name, o->iface) != 0
		                     : !dev_wanted(dv))
			continue;
		err[0] = '\0';
		rc = open_one(st, dv->name, dev_mac(devs, dv->name), snaplen,
		              err);
		if (rc == PCAP_ERROR_PERM_DENIED) {
			cmd_fail(run, "privilege",
			         "no permission to capture on", dv->name,
			         "needs CAP_NET_RAW (run as root, or grant the "
			         "binary cap_net_raw,cap_net_admin)");
			return 2;
		}
		if (rc == PCAP_ERROR_NO_SUCH_DEVICE) {
			cmd_fail(run, "interface", "unknown interface",
			         dv->name, NULL);
			return 2;
		}
		if (rc < 0 && o->iface != NULL) {
			cmd_fail(run, "pcap", "cannot capture on", dv->name,
			         "%s", err);
			return 2;
		}
		if (rc < 0)
			doc_add_error(&run->doc, "pcap", "skipped '%s': %s",
			              dv->name, err);
	}
	if (o->iface != NULL && st->nh == 0) {
		cmd_fail(run, "interface", "unknown interface", o->iface, NULL);
		return 2;
	}
	if (st->nh == 0) {
		cmd_fail(run, "interface", "no interface is up to capture on",
		         NULL, NULL);
		return 2;
	}
	return 0;
}

/* Compiles and installs the filter on every handle. Returns 0, or 2 after
 * reporting the expression and libpcap's reason. */
int cap_set_filters(struct cap_state *st, struct cmd_run *run)
{
	struct bpf_program prog;

	if (!st->have_filter)
		return 0;
	for (int i = 0; i < st->nh; i++) {
		if (pcap_compile(st->h[i].p, &prog, st->filter, 1,
		                 PCAP_NETMASK_UNKNOWN) < 0) {
			cmd_failf(run, "filter",
			          "filter does not compile on '%s' '%s': %s",
			          st->sum.ifaces[st->h[i].sum_index].name,
			          st->filter, pcap_geterr(st->h[i].p));
			return 2;
		}
		if (pcap_setfilter(st->h[i].p, &prog) < 0) {
			cmd_fail(run, "filter", "cannot install filter", NULL,
			         "%s", pcap_geterr(st->h[i].p));
			pcap_freecode(&prog);
			return 2;
		}
		pcap_freecode(&prog);
	}
	return 0;
}

/* Checks that the filter compiles at all before any privilege is needed,
 * on an Ethernet-typed dead handle: a typo is bad input, exit 2. */
int cap_check_filter(const char *filter, struct cmd_run *run)
{
	struct bpf_program prog;
	pcap_t *dead = pcap_open_dead(DLT_EN10MB, CAP_SNAPLEN_WRITE);
	int rc = 0;

	if (dead == NULL) {
		cmd_fail(run, "filter", "cannot check the filter", NULL,
		         "no memory");
		return 2;
	}
	if (pcap_compile(dead, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0) {
		cmd_fail(run, "filter", "filter does not compile", filter, "%s",
		         pcap_geterr(dead));
		rc = 2;
	} else {
		pcap_freecode(&prog);
	}
	pcap_close(dead);
	return rc;
}

/* pcap_dispatch callback: summarise, then keep. */
static void on_packet(unsigned char *user, const struct pcap_pkthdr *hdr,
                      const unsigned char *data)
{
	struct cap_state *st = (struct cap_state *)(void *)user;
	const struct cap_handle *h = &st->h[st->cur];
	int dir;

	dir = pcapsum_packet(&st->sum, h->sum_index, h->linktype, data,
	                     hdr->caplen, hdr->len);
	cap_dump_packet(st, h, hdr, data, dir);
}

/* The capture loop: polls every handle for at most duration_us (or until
 * a signal), dispatching a bounded batch per handle per turn. Returns the
 * time it ran, in microseconds. */
long long cap_run_loop(struct cap_state *st, long long duration_us,
                       const volatile sig_atomic_t *stop, struct cmd_run *run)
{
	struct pollfd pfd[CAP_MAX_HANDLES];
	long long start = mono_now_us(), left;
	struct pcap_stat ps;
	char err[PCAP_ERRBUF_SIZE];

	for (int i = 0; i < st->nh; i++) {
		if (pcap_setnonblock(st->h[i].p, 1, err) < 0)
			doc_add_error(&run->doc, "pcap",
			              "non-blocking mode: %s", err);
		st->h[i].fd = pcap_get_selectable_fd(st->h[i].p);
		pfd[i].fd = st->h[i].fd;
		pfd[i].events = POLLIN;
	}
	/* bounded by time; the count bound only guards a broken clock */
	for (long long turn = 0; turn < 100000000LL && !*stop; turn++) {
		left = duration_us - (mono_now_us() - start);
		if (left <= 0)
			break;
		if (poll(pfd, (nfds_t)st->nh,
		         (int)(left / 1000 < CAP_POLL_MS ? left / 1000 + 1
		                                         : CAP_POLL_MS)) < 0 &&
		    errno != EINTR)
			break;
		for (int i = 0; i < st->nh; i++) {
			st->cur = i;
			if (pcap_dispatch(st->h[i].p, CAP_DISPATCH, on_packet,
			                  (unsigned char *)st) == PCAP_ERROR)
				pfd[i].fd = -1; /* the interface went away */
		}
	}
	for (int i = 0; i < st->nh; i++) {
		st->cur = i;
		pcap_dispatch(st->h[i].p, CAP_DISPATCH, on_packet,
		              (unsigned char *)st);
		if (pcap_stats(st->h[i].p, &ps) == 0)
			st->kernel_drops += ps.ps_drop;
	}
	return mono_now_us() - start;
}

/* Gives up root now that the handles and the file are open. A drop that
 * fails with EPERM means a root already stripped of CAP_SETUID/SETGID (a
 * confined container): capture goes on with a warning. Any other failure
 * stops the run. Returns 0, or 2 after reporting. */
int cap_drop_privileges(struct cap_state *st, struct cmd_run *run)
{
	int rc = privdrop_to(&st->target);

	if (rc == 1)
		return 0;
	if (rc == 0) {
		st->dropped = true;
		return 0;
	}
	if (errno == EPERM) {
		int e = errno;

		cmd_note(run,
		         "warning: cannot drop root to uid %u: %s; going on "
		         "as root",
		         (unsigned)st->target.uid, strerror(e));
		doc_add_error(&run->doc, "privilege",
		              "cannot drop root to uid %u: %s",
		              (unsigned)st->target.uid, strerror(e));
		return 0;
	}
	cmd_failf(run, "privilege", "cannot drop root to uid %u: %s",
	          (unsigned)st->target.uid, strerror(errno));
	return 2;
}
