/* mkveth: creates a veth pair or a bridge directly inside named network
 * namespaces, over rtnetlink with libmnl. The GPU machine's kernel has veth
 * and bridges, but the iproute2 unpacked there cannot create them (`ip link
 * add ... type veth` fails with '"type" is invalid lladdr'); the rest of the
 * job (addresses, routes, up, master) is left to that `ip`.
 *
 *   mkveth veth NAME NETNS PEER PEER_NETNS
 *   mkveth bridge NAME NETNS
 *
 * NETNS is a name under /var/run/netns (from `ip netns add`). Nothing is
 * created in the caller's own namespace. Exit status 0 done, 1 the kernel
 * refused (its error is printed), 2 bad usage. */
#include <errno.h>
#include <fcntl.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Opens /var/run/netns/NAME; -1 with a message when it cannot. */
static int netns_fd(const char *name)
{
	char path[256];
	int fd;

	if (strchr(name, '/') != NULL || strlen(name) > 200) {
		fprintf(stderr, "mkveth: invalid namespace '%s'\n", name);
		return -1;
	}
	snprintf(path, sizeof(path), "/var/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fprintf(stderr, "mkveth: namespace '%s': %s\n", name,
		        strerror(errno));
	return fd;
}

/* Checks an interface name against the kernel's limits. */
static int name_ok(const char *name)
{
	if (name[0] == '\0' || strlen(name) >= IFNAMSIZ ||
	    strpbrk(name, "/: \t") != NULL) {
		fprintf(stderr, "mkveth: invalid interface name '%s'\n", name);
		return 0;
	}
	return 1;
}

/* Sends one RTM_NEWLINK request and reads the kernel's answer. */
static int talk(struct nlmsghdr *nlh)
{
	char buf[8192];
	struct mnl_socket *nl;
	unsigned portid;
	int rc = -1;
	ssize_t n;

	nl = mnl_socket_open(NETLINK_ROUTE);
	if (nl == NULL) {
		perror("mkveth: netlink socket");
		return -1;
	}
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("mkveth: netlink bind");
		goto out;
	}
	portid = mnl_socket_get_portid(nl);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		perror("mkveth: netlink send");
		goto out;
	}
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0) {
		perror("mkveth: netlink receive");
		goto out;
	}
	if (mnl_cb_run(buf, (size_t)n, nlh->nlmsg_seq, portid, NULL, NULL) <
	    0) {
		fprintf(stderr, "mkveth: the kernel refused: %s\n",
		        strerror(errno));
		goto out;
	}
	rc = 0;
out:
	mnl_socket_close(nl);
	return rc;
}

/* Starts an RTM_NEWLINK for NAME created in namespace fd NSFD. */
static struct nlmsghdr *newlink(char *buf, const char *name, int nsfd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifm;

	nlh->nlmsg_type = RTM_NEWLINK;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_CREATE | NLM_F_EXCL |
	                   NLM_F_ACK;
	nlh->nlmsg_seq = (unsigned)time(NULL);
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t)nsfd);
	return nlh;
}

int main(int argc, char **argv)
{
	char buf[8192];
	struct nlmsghdr *nlh;
	struct nlattr *info, *data, *peer;
	struct ifinfomsg *pifm;
	int fd1 = -1, fd2 = -1, rc = 2;

	if (argc == 6 && strcmp(argv[1], "veth") == 0) {
		if (!name_ok(argv[2]) || !name_ok(argv[4]))
			return 2;
		fd1 = netns_fd(argv[3]);
		fd2 = netns_fd(argv[5]);
		if (fd1 < 0 || fd2 < 0)
			goto out;
		nlh = newlink(buf, argv[2], fd1);
		info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
		mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
		data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
		peer = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
		pifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*pifm));
		pifm->ifi_family = AF_UNSPEC;
		mnl_attr_put_strz(nlh, IFLA_IFNAME, argv[4]);
		mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t)fd2);
		mnl_attr_nest_end(nlh, peer);
		mnl_attr_nest_end(nlh, data);
		mnl_attr_nest_end(nlh, info);
	} else if (argc == 4 && strcmp(argv[1], "bridge") == 0) {
		if (!name_ok(argv[2]))
			return 2;
		fd1 = netns_fd(argv[3]);
		if (fd1 < 0)
			goto out;
		nlh = newlink(buf, argv[2], fd1);
		info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
		mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bridge");
		mnl_attr_nest_end(nlh, info);
	} else {
		fprintf(stderr, "usage: mkveth veth NAME NETNS PEER PEER_NETNS\n"
		                "       mkveth bridge NAME NETNS\n");
		return 2;
	}
	rc = talk(nlh) == 0 ? 0 : 1;
out:
	if (fd1 >= 0)
		close(fd1);
	if (fd2 >= 0)
		close(fd2);
	return rc;
}
