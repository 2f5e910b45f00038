/* qdisc-drops-frames: a root qdisc that cannot pass a full frame on the
 * interface that carries the node's traffic (issue 48, blind48e 01:
 * tohojo/sqm-scripts#73, a tbf burst below the MTU; 03:
 * kubernetes/kubernetes#25092, an htb with direct_qlen 0). */
#include "decide/decide_qdisc.h"

#include <stdio.h>
#include <string.h>

#include "decide/decide.h"

/* See decide_qdisc.h. */
unsigned decide_qdisc_frame(const struct iface *ifc)
{
	if (strlen(ifc->mac) != 17)
		return ifc->mtu;
	return ifc->mtu + (ifc->kind == IFK_VLAN ? 18 : 14);
}

/* See decide_qdisc.h. */
bool decide_qdisc_drops(const struct qdisc_info *q, unsigned frame)
{
	if (!q->root)
		return false;
	if (q->tbf)
		return q->rate > 0 && frame > 0 && q->max_size < frame;
	if (q->htb)
		return q->direct_qlen_read && q->direct_qlen == 0 &&
		       q->default_leaf == 0 &&
		       (q->nclasses == 0 || (q->drops_read && q->drops > 0));
	return false;
}

/* True when interface ifc carries the node's traffic: named in carry,
 * or a port of (or the lower device under) one that is. */
static bool carries(const struct iface_list *l, const struct iface *ifc,
		    const char *const *carry, size_t ncarry)
{
	for (size_t i = 0; i < ncarry; i++) {
		const struct iface *c = iface_by_name(l, carry[i]);

		if (c == NULL)
			continue;
		if (c == ifc || (ifc->master_index != 0 &&
				 ifc->master_index == c->index))
			return true;
		if ((c->kind == IFK_MACVLAN || c->kind == IFK_IPVLAN ||
		     c->kind == IFK_MACVTAP || c->kind == IFK_VLAN) &&
		    c->link_netnsid < 0 && c->link_index == ifc->index)
			return true;
	}
	return false;
}

/* The interfaces that hold the node's global addresses, up, when no
 * route named one: at most max names into out. */
static size_t addressed(const struct iface_list *l, const char **out,
			size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n && n < max; i++)
		if ((l->v[i].flags & IFF_UP) &&
		    decide_global_addr(&l->v[i], AF_UNSPEC) != NULL)
			out[n++] = l->v[i].name;
	return n;
}

/* tc's spelling of a time in microseconds: "50ms", or "800us" below a
 * millisecond. */
static void tc_time(unsigned long long us, char *buf, size_t len)
{
	if (us >= 1000)
		snprintf(buf, len, "%llums", (us + 999) / 1000);
	else
		snprintf(buf, len, "%lluus", us > 0 ? us : 1);
}

/* The tbf's fix: the same rate and latency with a bucket that passes
 * full frames. The burst is at least rate/250 bytes because a shaper
 * that wakes once a timer tick (HZ 250 on most kernels, 4 ms) must send
 * a tick's worth per wakeup to keep its rate, and at least 10 full
 * frames so that a burst of GSO segments is not dropped; the latency is
 * the one the user gave (tc's "lat": limit/rate less the bucket's
 * time), 50 ms where it cannot be told. The peak rate is left out: its
 * mtu was sized with the same bucket. */
static void tbf_fix(const struct qdisc_info *q, unsigned frame, char *cmd,
		    size_t len)
{
	unsigned long long burst = q->rate / 250, lat_us = 0;
	char lat[32];

	if (burst < 10ULL * frame)
		burst = 10ULL * frame;
	if (q->rate > 0 && q->limit > 0) {
		unsigned long long q_us =
		    (unsigned long long)q->limit * 1000000ULL / q->rate;
		unsigned long long b_us = q->buffer_ns / 1000;

		lat_us = q_us > b_us ? q_us - b_us : 0;
	}
	tc_time(lat_us > 0 ? lat_us : 50000, lat, sizeof(lat));
	snprintf(cmd, len,
		 "tc qdisc replace dev %s root tbf rate %llubit burst %llu "
		 "latency %s",
		 q->ifname, q->rate * 8, burst, lat);
}

/* htb's fix: the device a queue length, and a new htb with a direct
 * queue (the kernel's htb cannot change its own in place, so a new
 * handle replaces it; whatever made its classes adds them again). */
static void htb_fix(const struct qdisc_info *q, char *cmd, size_t len)
{
	unsigned maj = q->handle >> 16, h = maj >= 1 && maj < 0x8000 ? maj + 1
								       : 1;

	snprintf(cmd, len,
		 "ip link set dev %s txqueuelen 1000 && tc qdisc replace dev "
		 "%s root handle %x: htb default %x direct_qlen 1000",
		 q->ifname, q->ifname, h, q->defcls);
}

/* One fault: the qdisc's evidence, its fix and the alternative. */
static int qdisc_fault(const struct qdisc_info *q, const struct iface *ifc,
		       unsigned frame, struct doc *d)
{
	json_t *ev = NULL;
	char cmd[256], fix[640], drops[64] = "";

	if (q->drops_read)
		snprintf(drops, sizeof(drops), ", %llu dropped so far",
			 q->drops);
	if (q->tbf) {
		tbf_fix(q, frame, cmd, sizeof(cmd));
		if (evidence_add(&ev, "netlink RTM_GETQDISC",
				 "%s has root qdisc tbf rate %llubit, bucket "
				 "%llu ns: it passes packets of at most %llu "
				 "bytes%s",
				 q->ifname, q->rate * 8, q->buffer_ns,
				 q->max_size, drops) < 0)
			goto fail;
	} else {
		htb_fix(q, cmd, sizeof(cmd));
		if (evidence_add(&ev, "netlink RTM_GETQDISC",
				 "%s has root qdisc htb %x: direct_qlen 0, "
				 "default class %x:%x%s",
				 q->ifname, q->handle >> 16, q->handle >> 16,
				 q->defcls, drops) < 0 ||
		    evidence_add(&ev, "netlink RTM_GETTCLASS",
				 "%u htb classes on %s, none of them the "
				 "default: unclassified packets go to the "
				 "direct queue, which holds none",
				 q->nclasses, q->ifname) < 0)
			goto fail;
	}
	if (evidence_add(&ev, "netlink", "%s has mtu %u: a full frame is %u "
			 "bytes at the qdisc",
			 ifc->name, ifc->mtu, frame) < 0)
		goto fail;
	snprintf(fix, sizeof(fix),
		 "%s (or remove the shaper: tc qdisc del dev %s root); and the "
		 "same in whatever set it",
		 cmd, q->ifname);
	if (doc_add_finding(
		d, FINDING_QDISC_DROPS_FRAMES, -1, ev, fix,
		q->tbf ? "the tbf shaper on %s passes packets of at most %llu "
			 "bytes, below a full frame of %u: every full-size "
			 "frame this node sends there is dropped, while the "
			 "MTUs are right"
		       : "the htb on %s sends unclassified packets to a "
			 "direct queue of length 0 (%llu), below one frame "
			 "of %u: every such packet is dropped",
		q->ifname, q->tbf ? q->max_size : 0ULL, frame) < 0 ||
	    doc_finding_command(d, cmd) < 0)
		return -1;
	return 0;
fail:
	json_decref(ev);
	return -1;
}

/* See decide_qdisc.h. */
int decide_qdisc(const struct qdisc_list *qs, const struct iface_list *l,
		 const char *const *carry, size_t ncarry, struct doc *d)
{
	const char *own[16];

	if (qs == NULL || qs->truncated)
		return 0;
	if (ncarry == 0) {
		ncarry = addressed(l, own, sizeof(own) / sizeof(own[0]));
		carry = own;
	}
	for (size_t i = 0; i < qs->n; i++) {
		const struct qdisc_info *q = &qs->v[i];
		const struct iface *ifc = iface_by_name(l, q->ifname);
		unsigned frame;

		if (ifc == NULL || !(ifc->flags & IFF_UP) ||
		    !carries(l, ifc, carry, ncarry))
			continue;
		frame = decide_qdisc_frame(ifc);
		if (decide_qdisc_drops(q, frame) &&
		    qdisc_fault(q, ifc, frame, d) < 0)
			return -1;
	}
	return 0;
}
