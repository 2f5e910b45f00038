/* The neighbour table over rtnetlink (RTM_GETNEIGH): one dump, the entry
 * for one address kept, or the static entries (PERMANENT, NOARP). */
#include "kernel/neigh.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

int nl_parse_neigh(const struct nlmsghdr *nlh, struct neigh_entry *out)
{
	const struct nlattr *tb[NDA_MAX + 1];
	const struct ndmsg *nd;
	size_t want;

	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*nd) ||
	    nlh->nlmsg_type != RTM_NEWNEIGH)
		goto bad;
	nd = mnl_nlmsg_get_payload(nlh);
	if (nd->ndm_family != AF_INET && nd->ndm_family != AF_INET6)
		goto bad;
	if (nl_attr_table(mnl_nlmsg_get_payload_offset(nlh, sizeof(*nd)),
			  nlh->nlmsg_len - MNL_NLMSG_HDRLEN -
				  MNL_ALIGN(sizeof(*nd)),
			  tb, NDA_MAX, NULL) < 0)
		goto bad;
	want = nd->ndm_family == AF_INET ? 4 : 16;
	if (tb[NDA_DST] == NULL || mnl_attr_get_payload_len(tb[NDA_DST]) != want)
		goto bad;
	memset(out, 0, sizeof(*out));
	out->family = nd->ndm_family;
	out->ifindex = nd->ndm_ifindex;
	out->state = nd->ndm_state;
	inet_ntop(out->family, mnl_attr_get_payload(tb[NDA_DST]), out->addr,
		  sizeof(out->addr));
	if (tb[NDA_LLADDR] != NULL &&
	    mnl_attr_get_payload_len(tb[NDA_LLADDR]) == 6) {
		const unsigned char *m = mnl_attr_get_payload(tb[NDA_LLADDR]);

		snprintf(out->lladdr, sizeof(out->lladdr),
			 "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
			 m[3], m[4], m[5]);
	}
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

/* What the dump looks for, and what it found. */
struct want {
	int family, ifindex;
	char addr[INET6_ADDRSTRLEN];
	struct neigh_entry *out;
	int found;
};

/* One dumped entry: kept when it is the address asked for. Entries the
 * parser rejects (other families, no address) are skipped. */
static int dump_cb(const struct nlmsghdr *nlh, void *data)
{
	struct want *w = data;
	struct neigh_entry e;

	if (nl_parse_neigh(nlh, &e) < 0)
		return MNL_CB_OK;
	if (e.family == w->family && strcmp(e.addr, w->addr) == 0 &&
	    (w->ifindex == 0 || e.ifindex == w->ifindex) && !w->found) {
		*w->out = e;
		w->found = 1;
	}
	return MNL_CB_OK;
}

int neigh_get(int family, const void *addr, int ifindex,
	      struct neigh_entry *out)
{
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;
	struct want w = {.family = family, .ifindex = ifindex, .out = out};
	struct ndmsg *nd;
	int tries;

	if (family != AF_INET && family != AF_INET6) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	inet_ntop(family, addr, w.addr, sizeof(w.addr));
	for (tries = 0; tries < NL_DUMP_TRIES; tries++) {
		nlh = mnl_nlmsg_put_header(buf);
		nlh->nlmsg_type = RTM_GETNEIGH;
		nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		nd = mnl_nlmsg_put_extra_header(nlh, sizeof(*nd));
		nd->ndm_family = (unsigned char)family;
		w.found = 0;
		if (nl_request(nlh, dump_cb, &w) == 0)
			return w.found;
		if (errno != EINTR)
			return -1;
	}
	return -1;
}

bool neigh_is_static(const struct neigh_entry *e)
{
	unsigned first;

	if ((e->state & (NUD_PERMANENT | NUD_NOARP)) == 0 ||
	    strlen(e->lladdr) != 17 ||
	    strcmp(e->lladdr, "00:00:00:00:00:00") == 0 ||
	    sscanf(e->lladdr, "%2x", &first) != 1)
		return false;
	return (first & 1) == 0; /* the group bit: broadcast, multicast */
}

/* One dumped entry: appended to the statics when it is one. */
static int statics_cb(const struct nlmsghdr *nlh, void *data)
{
	struct neigh_statics *s = data;
	struct neigh_entry e;

	if (nl_parse_neigh(nlh, &e) < 0 || !neigh_is_static(&e))
		return MNL_CB_OK;
	if (s->n == NEIGH_MAX_STATIC) {
		s->truncated = true;
		return MNL_CB_OK;
	}
	s->v[s->n++] = e;
	return MNL_CB_OK;
}

int neigh_statics_get(struct neigh_statics *out)
{
	static const int fams[] = {AF_INET, AF_INET6};
	char buf[NL_REQ_SIZE];
	struct nlmsghdr *nlh;
	struct ndmsg *nd;

	memset(out, 0, sizeof(*out));
	for (size_t f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
		size_t keep = out->n;
		int tries, rc = -1;

		for (tries = 0; tries < NL_DUMP_TRIES && rc != 0; tries++) {
			out->n = keep; /* an interrupted dump starts over */
			nlh = mnl_nlmsg_put_header(buf);
			nlh->nlmsg_type = RTM_GETNEIGH;
			nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
			nd = mnl_nlmsg_put_extra_header(nlh, sizeof(*nd));
			nd->ndm_family = (unsigned char)fams[f];
			rc = nl_request(nlh, statics_cb, out);
			if (rc != 0 && errno != EINTR)
				return -1;
		}
		if (rc != 0)
			return -1;
	}
	return 0;
}

bool neigh_unresolved(unsigned state)
{
	return (state & (NUD_FAILED | NUD_INCOMPLETE)) != 0;
}

const char *neigh_state_name(unsigned state)
{
	static const struct {
		unsigned bit;
		const char *name;
	} t[] = {{NUD_FAILED, "failed"},     {NUD_INCOMPLETE, "incomplete"},
		 {NUD_REACHABLE, "reachable"}, {NUD_STALE, "stale"},
		 {NUD_DELAY, "delay"},       {NUD_PROBE, "probe"},
		 {NUD_NOARP, "noarp"},       {NUD_PERMANENT, "permanent"}};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (state & t[i].bit)
			return t[i].name;
	return "none";
}
