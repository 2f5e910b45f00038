/* NCCL's interface selection rules, kept identical to NCCL 2.28. */
#include "decide/nccl_select.h"

#include <string.h>
#include <sys/socket.h>

/* NCCL's matchIf: a prefix, or the whole name in the exact form. */
static bool match_one(const char *name, const char *ref, bool exact)
{
	size_t len = exact ? strlen(name) + 1 : strlen(ref);

	return strncmp(name, ref, len) == 0;
}

/* An empty list matches everything, as in NCCL. */
static bool match_list(const char *name, const struct nccl_netif *list, int n,
		       bool exact)
{
	if (n == 0)
		return true;
	for (int i = 0; i < n; i++)
		if (match_one(name, list[i].prefix, exact))
			return true;
	return false;
}

/* NCCL's matchIfList after its '^' (not) and '=' (exact) marks. */
bool nccl_ifname_match(const char *spec, const char *name)
{
	struct nccl_netif list[NCCL_MAX_IFS];
	bool not = false, exact = false;
	int n;

	if (spec != NULL && spec[0] == '^') {
		not = true;
		spec++;
	}
	if (spec != NULL && spec[0] == '=') {
		exact = true;
		spec++;
	}
	n = nccl_iflist_parse(spec, list, NCCL_MAX_IFS);
	return match_list(name, list, n, exact) ^ not;
}

/* NCCL's ncclEnvSocketFamily: any other text forces nothing. */
int nccl_env_family(const struct nccl_env *env)
{
	if (env->socket_family == NULL)
		return -1;
	if (strcmp(env->socket_family, "AF_INET") == 0)
		return AF_INET;
	if (strcmp(env->socket_family, "AF_INET6") == 0)
		return AF_INET6;
	return -1;
}

/* The name getifaddrs gives an address: an IPv4 alias's label, else the
 * interface's name. */
static const char *addr_name(const struct iface *ifc,
			     const struct iface_addr *a)
{
	return a->family == AF_INET && a->label[0] != '\0' ? a->label
							    : ifc->name;
}

/* Adds a pick unless its name is already listed: NCCL keeps the first
 * address per name, and an alias ("eth0:1") is a name of its own. */
static void add_pick(struct nccl_choice *out, const struct iface *ifc,
		     const struct iface_addr *a)
{
	const char *name = addr_name(ifc, a);

	for (int i = 0; i < out->n; i++)
		if (strcmp(out->v[i].name, name) == 0)
			return;
	if (out->n < NCCL_MAX_IFS) {
		out->v[out->n].ifc = ifc;
		out->v[out->n].addr = a;
		out->v[out->n].name = name;
		out->n++;
	}
}

/* ncclOsFindInterfaces over our list. getifaddrs returns every IPv4 address
 * (in interface order) before the IPv6 ones, each under its interface's
 * name or, for an IPv4 alias, its label; NCCL matches the list against
 * that name (src/os/linux.cc) and keeps the first address per name. */
static int find(const struct iface_list *l, const char *spec, int family,
		struct nccl_choice *out)
{
	static const int families[] = {AF_INET, AF_INET6};

	out->n = 0;
	for (size_t f = 0; f < 2; f++) {
		if (family != -1 && families[f] != family)
			continue;
		for (size_t i = 0; i < l->n; i++) {
			const struct iface *ifc = &l->v[i];

			if (!(ifc->flags & IFF_RUNNING))
				continue;
			for (int k = 0; k < ifc->naddrs; k++) {
				const struct iface_addr *a = &ifc->addrs[k];

				if (a->family != families[f])
					continue;
				if (a->family == AF_INET6 &&
				    IN6_IS_ADDR_LOOPBACK(&a->a.v6))
					continue;
				if (!nccl_ifname_match(spec,
						       addr_name(ifc, a)))
					continue;
				add_pick(out, ifc, a);
			}
		}
	}
	return out->n;
}

/* The scope id getifaddrs gives a local address: the interface index for
 * a link-local IPv6 address (glibc's getifaddrs), 0 otherwise. */
static unsigned local_scope(const struct iface *ifc, const struct iface_addr *a)
{
	if (a->family == AF_INET6 && (IN6_IS_ADDR_LINKLOCAL(&a->a.v6) ||
				      IN6_IS_ADDR_MC_LINKLOCAL(&a->a.v6)))
		return (unsigned)ifc->index;
	return 0;
}

/* ncclFindInterfaceMatchSubnet (src/os/linux.cc): the first interface
 * address, in getifaddrs order and whatever the interface's state, whose
 * subnet holds the NCCL_COMM_ID address. matchSubnet also compares the
 * IPv6 scope id: ncclSocketGetAddrFromString sets it to 0 for a global
 * "[addr]:port" and to if_nametoindex() of "[fe80::1%eth0]:port", and a
 * link-local local address carries its interface's index, so a
 * link-local NCCL_COMM_ID matches only with the right "%interface". One
 * interface at most. */
static int find_subnet(const struct iface_list *l, const char *comm_id,
		       struct nccl_choice *out)
{
	struct nccl_comm_id id;
	unsigned scope = 0;

	out->n = 0;
	if (nccl_comm_id_parse(comm_id, &id) < 0 || id.family == AF_UNSPEC) {
		out->comm_id_unparsed = true;
		return 0;
	}
	if (id.family == AF_INET6 && id.scope[0] != '\0') {
		const struct iface *si = iface_by_name(l, id.scope);

		scope = si != NULL ? (unsigned)si->index : 0;
	}
	for (size_t i = 0; i < l->n; i++) {
		const struct iface *ifc = &l->v[i];

		for (int k = 0; k < ifc->naddrs; k++) {
			const struct iface_addr *a = &ifc->addrs[k];

			if (!iface_addr_in_prefix(a, id.family, id.addr))
				continue;
			if (id.family == AF_INET6 &&
			    local_scope(ifc, a) != scope)
				continue;
			add_pick(out, ifc, a);
			return out->n;
		}
	}
	return 0;
}

int nccl_select(const struct iface_list *l, const struct nccl_env *env,
		struct nccl_choice *out)
{
	static const char *const fallback[] = {"^docker,lo,virbr", "docker",
					       "lo", "virbr"};
	int family = nccl_env_family(env);

	memset(out, 0, sizeof(*out));
	out->rule = "none";
	if (env->socket_ifname != NULL && strlen(env->socket_ifname) > 1) {
		out->rule = "NCCL_SOCKET_IFNAME";
		return find(l, env->socket_ifname, family, out);
	}
	if (env->socket_ifname != NULL && env->socket_ifname[0] != '\0')
		out->ifname_ignored = true;
	if (find(l, "ib", family, out) > 0) {
		out->rule = "ib";
		return out->n;
	}
	if (env->comm_id != NULL && strlen(env->comm_id) > 1 &&
	    find_subnet(l, env->comm_id, out) > 0) {
		out->rule = "NCCL_COMM_ID subnet";
		return out->n;
	}
	for (size_t i = 0; i < sizeof(fallback) / sizeof(fallback[0]); i++) {
		if (find(l, fallback[i], family, out) > 0) {
			out->rule = fallback[i];
			return out->n;
		}
	}
	out->rule = "none";
	return 0;
}

/* bootstrapNetInit (src/bootstrap.cc): NCCL_COMM_ID set means the subnet
 * match alone, whatever NCCL_SOCKET_IFNAME says; else the first interface
 * of ncclFindInterfaces. */
int nccl_select_bootstrap(const struct iface_list *l,
			  const struct nccl_env *env, struct nccl_choice *out)
{
	if (env->comm_id == NULL)
		return nccl_select(l, env, out) > 0 ? 1 : 0;
	memset(out, 0, sizeof(*out));
	out->rule = "NCCL_COMM_ID subnet";
	if (find_subnet(l, env->comm_id, out) > 0)
		return 1;
	out->rule = "none";
	return 0;
}
