/* netprobe mesh's membership: the list or the launcher's variables
 * (kernel/hostlist.h), which entry is this node, the entries listed twice,
 * what this node says when it joins, and the names reports use. */
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/monoclock.h"
#include "mesh/mesh_int.h"
#include "wire/client.h"

#define HOSTS_FILE_MAX (4 << 20)
#define MESH_LOCAL_ADDRS 64
#define RESOLVE_BUDGET_US 10000000LL /* finding ourselves by name */

/* Reads --hosts: a regular file's contents, else the text itself (a
 * list). Returns a malloc'd string, or NULL (reported). */
static char *hosts_text(struct mesh *ms, const char *arg)
{
	struct stat st;
	FILE *fp;
	char *buf;
	size_t n;

	if (stat(arg, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (strchr(arg, '/') != NULL) {
			cmd_failf(&ms->run, "mesh",
			          "cannot read hosts file "
			          "'%s': %s",
			          arg, strerror(errno ? errno : ENOENT));
			return NULL;
		}
		return strdup(arg);
	}
	if (st.st_size > HOSTS_FILE_MAX) {
		cmd_failf(&ms->run, "mesh", "hosts file '%s' larger than 4 MiB",
		          arg);
		return NULL;
	}
	fp = fopen(arg, "r");
	buf = malloc((size_t)st.st_size + 1);
	if (fp == NULL || buf == NULL) {
		cmd_failf(&ms->run, "mesh", "cannot read hosts file '%s': %s",
		          arg, strerror(errno));
		if (fp != NULL)
			fclose(fp);
		free(buf);
		return NULL;
	}
	n = fread(buf, 1, (size_t)st.st_size, fp);
	fclose(fp);
	buf[n] = '\0';
	return buf;
}

/* This host's addresses, loopback left out: a member's entry never is. */
static size_t local_addrs(char (*out)[INET6_ADDRSTRLEN], size_t max)
{
	struct ifaddrs *ifa, *i;
	size_t n = 0;

	if (getifaddrs(&ifa) < 0)
		return 0;
	for (i = ifa; i != NULL && n < max; i = i->ifa_next) {
		const void *a;
		int fam;

		if (i->ifa_addr == NULL)
			continue;
		fam = i->ifa_addr->sa_family;
		if (fam == AF_INET) {
			const struct sockaddr_in *s4 =
			    (const void *)i->ifa_addr;

			if ((ntohl(s4->sin_addr.s_addr) >> 24) == 127)
				continue;
			a = &s4->sin_addr;
		} else if (fam == AF_INET6) {
			const struct sockaddr_in6 *s6 =
			    (const void *)i->ifa_addr;

			if (IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr) ||
			    IN6_IS_ADDR_LINKLOCAL(&s6->sin6_addr))
				continue;
			a = &s6->sin6_addr;
		} else {
			continue;
		}
		inet_ntop(fam, a, out[n++], INET6_ADDRSTRLEN);
	}
	freeifaddrs(ifa);
	return n;
}

/* True when text is one of the n addresses (numeric forms compared). */
static bool addr_in(const char *text, char (*addrs)[INET6_ADDRSTRLEN], size_t n)
{
	unsigned char bin[16];
	char norm[INET6_ADDRSTRLEN];
	int fam = strchr(text, ':') ? AF_INET6 : AF_INET;

	if (inet_pton(fam, text, bin) != 1)
		return false;
	inet_ntop(fam, bin, norm, sizeof(norm));
	for (size_t i = 0; i < n; i++)
		if (strcmp(norm, addrs[i]) == 0)
			return true;
	return false;
}

/* True for a numeric IPv4 or IPv6 address. */
static bool is_numeric(const char *s)
{
	unsigned char bin[16];

	return inet_pton(AF_INET, s, bin) == 1 ||
	       inet_pton(AF_INET6, s, bin) == 1;
}

/* Equal names, or equal up to the first dot ("gpu1" is "gpu1.lan"). */
static bool same_host(const char *a, const char *b)
{
	size_t la = strcspn(a, "."), lb = strcspn(b, ".");

	return strcasecmp(a, b) == 0 ||
	       (la == lb && strncasecmp(a, b, la) == 0 &&
	        (a[la] == '\0' || b[lb] == '\0'));
}

/* True when name resolves to one of our addresses. */
static bool resolves_here(const char *name, char (*addrs)[INET6_ADDRSTRLEN],
                          size_t n)
{
	struct addrinfo hints = {0}, *res, *r;
	bool hit = false;

	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(name, NULL, &hints, &res) != 0)
		return false;
	for (r = res; r != NULL && !hit; r = r->ai_next) {
		char a[INET6_ADDRSTRLEN];

		if (getnameinfo(r->ai_addr, r->ai_addrlen, a, sizeof(a), NULL,
		                0, NI_NUMERICHOST) == 0)
			hit = addr_in(a, addrs, n);
	}
	freeaddrinfo(res);
	return hit;
}

/* True when IPv4 address a (text) is not ours but lies in the subnet of
 * one of our interfaces: a neighbour's. */
static bool neighbours(const char *a)
{
	struct ifaddrs *ifa, *i;
	struct in_addr x;
	bool hit = false;

	if (inet_pton(AF_INET, a, &x) != 1 || getifaddrs(&ifa) < 0)
		return false;
	for (i = ifa; i != NULL && !hit; i = i->ifa_next) {
		const struct sockaddr_in *ad = (void *)i->ifa_addr;
		const struct sockaddr_in *nm = (void *)i->ifa_netmask;

		if (ad == NULL || nm == NULL || ad->sin_family != AF_INET ||
		    nm->sin_addr.s_addr == 0xffffffffu)
			continue;
		if (ad->sin_addr.s_addr == x.s_addr) {
			freeifaddrs(ifa);
			return false; /* ours */
		}
		hit = (ad->sin_addr.s_addr & nm->sin_addr.s_addr) ==
		      (x.s_addr & nm->sin_addr.s_addr);
	}
	freeifaddrs(ifa);
	return hit;
}

/* True when name, this node's hostname, resolves only to a neighbour's
 * address (issue 31): a cloned image's hostname that is another node's
 * name here, so the hostname does not say which entry is this node. A
 * name that does not resolve, or resolves to an address of ours, to
 * loopback (Debian's 127.0.1.1) or off our subnets, stays this node's. */
static bool hostname_elsewhere(const char *name)
{
	struct addrinfo hints = {0}, *res, *r;
	bool other = false, ours = false;

	hints.ai_family = AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo(name, NULL, &hints, &res) != 0)
		return false;
	for (r = res; r != NULL; r = r->ai_next) {
		char a[INET6_ADDRSTRLEN];

		if (getnameinfo(r->ai_addr, r->ai_addrlen, a, sizeof(a), NULL,
		                0, NI_NUMERICHOST) != 0)
			continue;
		if (neighbours(a))
			other = true;
		else
			ours = true;
	}
	freeaddrinfo(res);
	return other && !ours;
}

/* This node's addresses: with --bind only that one (many members share
 * the host then), else every local address. Returns how many. */
static size_t self_addrs(const struct mesh *ms,
                         char (*addrs)[INET6_ADDRSTRLEN], size_t max)
{
	unsigned char bin[16];
	int fam;

	if (ms->o.bind == NULL)
		return local_addrs(addrs, max);
	fam = strchr(ms->o.bind, ':') ? AF_INET6 : AF_INET;
	if (max == 0 || inet_pton(fam, ms->o.bind, bin) != 1 ||
	    inet_ntop(fam, bin, addrs[0], INET6_ADDRSTRLEN) == NULL)
		return 0;
	return 1;
}

/* Finds the entries naming this node: by hostname (not with --bind, whose
 * host other members share), by numeric address, then (when neither
 * matched) by resolving the names, within a budget. The first is our
 * rank, the others go to node 0 as duplicates. */
static void find_self(struct mesh *ms)
{
	char addrs[MESH_LOCAL_ADDRS][INET6_ADDRSTRLEN];
	size_t na = self_addrs(ms, addrs, MESH_LOCAL_ADDRS);
	long long end = mono_now_us() + RESOLVE_BUDGET_US;
	/* a hostname that is a neighbour's name here names no entry of
	 * ours: the addresses and names decide (issue 31) */
	bool by_name = ms->o.bind == NULL && !hostname_elsewhere(ms->hostname);

	for (int pass = 0; pass < 2 && ms->rank < 0; pass++)
		for (size_t i = 0; i < ms->n; i++) {
			const char *e = ms->m[i].entry;
			bool hit;

			if (ms->m[i].state == PROTO_MS_DUPLICATE)
				continue;
			if (pass == 0)
				hit = (by_name && same_host(e, ms->hostname)) ||
				      addr_in(e, addrs, na);
			else
				hit = !is_numeric(e) && mono_now_us() < end &&
				      resolves_here(e, addrs, na);
			if (!hit)
				continue;
			if (ms->rank < 0)
				ms->rank = (int)i;
			else if (ms->ndups < PROTO_MESH_DUPS)
				ms->dups[ms->ndups++] = (uint32_t)i;
		}
}

/* A node that is in the list neither by address nor by name (a NAT'd
 * container listed by its host's address) takes the rank its launcher
 * gives it (NODE_RANK, GROUP_RANK, SLURM_NODEID), when one does: node 0
 * among such nodes has no other way to know it is node 0. Else it joins
 * unranked and node 0 places it by the address it comes from. Returns 0,
 * or 2 (reported). */
static int self_by_launcher(struct mesh *ms)
{
	char err[160];
	const char *var = NULL;
	int rank = -1, r = launch_node_rank(env_get_process, NULL, (int)ms->n,
	                                    &rank, &var, err, sizeof(err));

	if (r < 0) {
		cmd_failf(&ms->run, "mesh",
		          "this node is not in --hosts by address "
		          "or name, and its launcher's rank is invalid: %s",
		          err);
		return 2;
	}
	if (r == 0)
		return 0;
	if (ms->m[rank].state == PROTO_MS_DUPLICATE) {
		cmd_failf(&ms->run, "mesh",
		          "%s=%d names entry %d of --hosts, which "
		          "repeats entry %d: list each node once",
		          var, rank, rank + 1, ms->m[rank].dup_of + 1);
		return 2;
	}
	ms->rank = rank;
	ms->rank_var = var;
	return 0;
}

/* See mesh_int.h. */
void mesh_own_addrs(const struct mesh *ms, char *buf, size_t len)
{
	char addrs[MESH_LOCAL_ADDRS][INET6_ADDRSTRLEN];
	size_t na = self_addrs(ms, addrs, MESH_LOCAL_ADDRS), l = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < na && l + 1 < len; i++) {
		snprintf(buf + l, len - l, "%s%s", l ? ", " : "", addrs[i]);
		l = strlen(buf);
	}
}

/* See mesh_int.h. */
void mesh_entry_addr(const char *entry, char *out, size_t len)
{
	struct addrinfo hints = {0}, *res;

	if (len == 0)
		return;
	out[0] = '\0';
	hints.ai_socktype = SOCK_STREAM;
	if (entry[0] == '\0' || getaddrinfo(entry, NULL, &hints, &res) != 0)
		return;
	if (getnameinfo(res->ai_addr, res->ai_addrlen, out, (socklen_t)len,
	                NULL, 0, NI_NUMERICHOST) != 0)
		out[0] = '\0';
	freeaddrinfo(res);
}

/* See mesh_int.h. */
void mesh_unlisted_hint(const struct mesh *ms, char *buf, size_t len)
{
	char own[320], list[320];
	size_t l = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (ms->rank >= 0 || ms->env.hosts == NULL)
		return;
	mesh_own_addrs(ms, own, sizeof(own));
	list[0] = '\0';
	for (size_t i = 0; i < ms->n && i < 8 && l + 1 < sizeof(list); i++) {
		snprintf(list + l, sizeof(list) - l, "%s%s", l ? ", " : "",
		         ms->m[i].entry);
		l = strlen(list);
	}
	snprintf(buf, len,
	         "; this node (%s, addresses %s) is not in --hosts (%s%s), "
	         "so it joined as whichever entry its address is: a node 0 "
	         "behind NAT (a container listed by its host's address) "
	         "cannot know it is node 0, give it its rank: NODE_RANK=0 "
	         "(or the launcher's GROUP_RANK or SLURM_NODEID)",
	         ms->hostname, own[0] ? own : "none", list,
	         ms->n > 8 ? ", ..." : "");
}

/* Marks entries that repeat an earlier one. */
static void mark_listed_twice(struct mesh *ms)
{
	for (size_t i = 1; i < ms->n; i++)
		for (size_t j = 0; j < i; j++)
			if (ms->m[j].state != PROTO_MS_DUPLICATE &&
			    strcasecmp(ms->m[i].entry, ms->m[j].entry) == 0) {
				ms->m[i].state = PROTO_MS_DUPLICATE;
				ms->m[i].dup_of = (int)j;
				snprintf(
				    ms->m[i].why, sizeof(ms->m[i].why),
				    "entry %zu repeats entry %zu ('%.180s')",
				    i + 1, j + 1, ms->m[j].entry);
				break;
			}
}

/* The port everyone uses and node 0's address. Returns 0, or 2. */
static int mesh_where(struct mesh *ms)
{
	char err[CLIENT_ERR_MAX];

	ms->port = ms->o.port     ? ms->o.port
	           : ms->env.port ? ms->env.port
	                          : PROTO_MESH_DEFAULT_PORT;
	if (client_parse_peer(ms->env.node0, ms->port, ms->node0,
	                      sizeof(ms->node0), &ms->node0_port, err,
	                      sizeof(err)) < 0) {
		cmd_failf(&ms->run, "mesh", "invalid node 0 address '%s': %s",
		          ms->env.node0, err);
		return 2;
	}
	return 0;
}

/* See mesh_int.h. */
int mesh_members(struct mesh *ms)
{
	char err[320], *text = NULL;
	int rc = 2;

	if (gethostname(ms->hostname, sizeof(ms->hostname)) < 0)
		snprintf(ms->hostname, sizeof(ms->hostname), "unknown");
	ms->hostname[PROTO_MESH_HOST_MAX] = '\0';
	for (char *p = ms->hostname; *p; p++)
		if (*p < 0x21 || *p > 0x7e)
			*p = '?';
	if (ms->o.hosts != NULL && (text = hosts_text(ms, ms->o.hosts)) == NULL)
		return 2;
	if (mesh_env_detect(env_get_process, NULL, text, ms->o.rendezvous,
	                    &ms->env, err, sizeof(err)) < 0) {
		cmd_failf(&ms->run, "mesh", "%s", err);
		goto out;
	}
	if (ms->env.local_rank > 0) {
		cmd_failf(&ms->run, "mesh",
		          "this is process %d of this node (%s): "
		          "run one per node (srun --ntasks-per-node=1, mpirun "
		          "--map-by ppr:1:node)",
		          ms->env.local_rank, ms->env.vars);
		goto out;
	}
	if (ms->env.size > MESH_MAX_NODES) {
		cmd_failf(&ms->run, "mesh", "%d nodes (%s): at most %d",
		          ms->env.size, ms->env.vars, MESH_MAX_NODES);
		goto out;
	}
	if (mesh_where(ms) != 0)
		goto out;
	ms->n = (size_t)ms->env.size;
	ms->m = calloc(ms->n, sizeof(*ms->m));
	if (ms->m == NULL) {
		cmd_failf(&ms->run, "mesh", "out of memory");
		goto out;
	}
	for (size_t i = 0; i < ms->n; i++) {
		ms->m[i].dup_of = -1;
		ms->m[i].state = PROTO_MS_MISSING;
		if (ms->env.hosts != NULL) {
			snprintf(ms->m[i].entry, sizeof(ms->m[i].entry), "%s",
			         ms->env.hosts[i]);
			snprintf(ms->m[i].target, sizeof(ms->m[i].target), "%s",
			         ms->env.hosts[i]);
		}
	}
	ms->rank = ms->env.rank;
	if (ms->env.hosts != NULL) {
		mark_listed_twice(ms);
		ms->list_hash =
		    proto_mesh_list_hash(ms->env.hosts, ms->env.nhosts);
		if (ms->rank < 0)
			find_self(ms);
		if (ms->rank < 0 && self_by_launcher(ms) != 0)
			goto out;
	}
	if (ms->o.verbose)
		cmd_note(&ms->run,
		         "%zu members from %s (%s); this node "
		         "is %s%d%s%s; node 0 at %s:%u",
		         ms->n, ms->env.source, ms->env.vars,
		         ms->rank < 0 ? "not in the list, rank " : "rank ",
		         ms->rank, ms->rank_var ? " from " : "",
		         ms->rank_var ? ms->rank_var : "", ms->node0,
		         ms->node0_port);
	rc = 0;
out:
	free(text);
	return rc;
}

/* Reads the numeric address text into a, 0 when it is not one. */
static int to_addr(const char *text, struct proto_mesh_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, text, a->addr) == 1) {
		a->family = 4;
		return 1;
	}
	if (inet_pton(AF_INET6, text, a->addr) == 1) {
		a->family = 6;
		return 1;
	}
	return 0;
}

/* See mesh_int.h. The source toward node 0 goes first, then this host's
 * other addresses. */
void mesh_join_msg(const struct mesh *ms, const char *local_addr,
                   struct proto_join *j)
{
	char addrs[MESH_LOCAL_ADDRS][INET6_ADDRSTRLEN];
	size_t na = self_addrs(ms, addrs, MESH_LOCAL_ADDRS);

	memset(j, 0, sizeof(*j));
	j->rank = ms->rank < 0 ? PROTO_MESH_NO_RANK : (uint32_t)ms->rank;
	j->size = (uint32_t)ms->n;
	j->list_hash = ms->list_hash;
	j->port = (uint16_t)ms->port;
	j->flags = ms->o.token_file != NULL ? PROTO_JOIN_TOKEN : 0;
	snprintf(j->name, sizeof(j->name), "%s",
	         ms->rank >= 0 && ms->m[ms->rank].entry[0]
	             ? ms->m[ms->rank].entry
	             : ms->hostname);
	snprintf(j->hostname, sizeof(j->hostname), "%s", ms->hostname);
	if (local_addr != NULL && to_addr(local_addr, &j->addrs[0]))
		j->naddrs = 1;
	for (size_t i = 0; i < na && j->naddrs < PROTO_MESH_ADDRS; i++)
		if (local_addr == NULL || strcmp(addrs[i], local_addr) != 0)
			j->naddrs +=
			    (uint8_t)to_addr(addrs[i], &j->addrs[j->naddrs]);
	j->ndups = ms->ndups;
	memcpy(j->dups, ms->dups, sizeof(j->dups));
}

/* True when another joined member has the same hostname. */
static bool hostname_shared(const struct mesh *ms, size_t k)
{
	for (size_t i = 0; i < ms->n; i++)
		if (i != k && ms->m[i].state == PROTO_MS_JOINED &&
		    strcasecmp(ms->m[i].hostname, ms->m[k].hostname) == 0)
			return true;
	return false;
}

/* See mesh_int.h. Names stay unique: a clash gets "#RANK". */
void mesh_name_members(struct mesh *ms)
{
	for (size_t i = 0; i < ms->n; i++) {
		struct mesh_member *m = &ms->m[i];

		if (m->entry[0] != '\0' && !is_numeric(m->entry))
			snprintf(m->name, sizeof(m->name), "%s", m->entry);
		else if (m->hostname[0] != '\0' && !hostname_shared(ms, i))
			snprintf(m->name, sizeof(m->name), "%s", m->hostname);
		else if (m->entry[0] != '\0')
			snprintf(m->name, sizeof(m->name), "%s", m->entry);
		else if (m->target[0] != '\0')
			snprintf(m->name, sizeof(m->name), "%s", m->target);
		else
			snprintf(m->name, sizeof(m->name), "rank%zu", i);
		for (size_t j = 0; j < i; j++)
			if (strcmp(ms->m[j].name, m->name) == 0) {
				size_t l =
				    strnlen(m->name, sizeof(m->name) - 8);

				snprintf(m->name + l, sizeof(m->name) - l,
				         "#%zu", i);
				break;
			}
	}
}
