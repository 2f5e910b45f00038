/* The hostname and what it resolves to, as Gloo sees it: gethostname(),
 * then getaddrinfo(), then the first address bind() accepts. A recorded
 * sysroot answers from its /etc/hostname and /etc/hosts instead. */
#include "kernel/hostname.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Stores one address unless already present. Returns 1 when added. */
static int add_addr(struct hostname_addr *out, int n, int max, int family,
                    const void *addr)
{
	size_t len = family == AF_INET ? 4 : 16;

	for (int i = 0; i < n; i++)
		if (out[i].family == family &&
		    memcmp(&out[i].a, addr, len) == 0)
			return 0;
	if (n >= max)
		return 0;
	memset(&out[n], 0, sizeof(out[n]));
	out[n].family = family;
	memcpy(&out[n].a, addr, len);
	inet_ntop(family, addr, out[n].str, sizeof(out[n].str));
	out[n].bindable = -1;
	return 1;
}

/* hosts(5): address, canonical name, aliases; # starts a comment. */
int hostname_hosts_lookup(const char *buf, const char *name,
                          struct hostname_addr *out, int max)
{
	const char *p = buf;
	int n = 0;

	while (p != NULL && *p != '\0') {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[1024], *save = NULL, *tok, *addr;
		unsigned char bin[16];

		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		line[strcspn(line, "#")] = '\0';
		p = eol ? eol + 1 : NULL;
		addr = strtok_r(line, " \t\r", &save);
		if (addr == NULL)
			continue;
		while ((tok = strtok_r(NULL, " \t\r", &save)) != NULL) {
			int fam = strchr(addr, ':') ? AF_INET6 : AF_INET;

			if (strcasecmp(tok, name) != 0)
				continue;
			if (inet_pton(fam, addr, bin) == 1)
				n += add_addr(out, n, max, fam, bin);
			break;
		}
	}
	return n;
}

/* One name looked up on a thread of its own, so that the caller can stop
 * waiting: whoever lets go last (the caller after a timeout, or the
 * thread) frees it. getaddrinfo_a and gai_suspend would do the same, but
 * glibc's waiter list there races with a timeout (a waiter's stack entry
 * is used after it returned), which crashes many threads resolving at
 * once. */
struct lookup {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int refs;
	bool done;
	int rc;
	struct addrinfo hints, *res;
	char name[];
};

/* Drops one reference; the last frees the lookup and an unused result. */
static void lookup_put(struct lookup *l)
{
	bool last;

	pthread_mutex_lock(&l->mu);
	last = --l->refs == 0;
	pthread_mutex_unlock(&l->mu);
	if (!last)
		return;
	if (l->res != NULL)
		freeaddrinfo(l->res);
	pthread_cond_destroy(&l->cv);
	pthread_mutex_destroy(&l->mu);
	free(l);
}

/* The lookup's thread: getaddrinfo, then the caller is woken. */
static void *lookup_run(void *arg)
{
	struct lookup *l = arg;
	struct addrinfo *res = NULL;
	int rc = getaddrinfo(l->name, NULL, &l->hints, &res);

	pthread_mutex_lock(&l->mu);
	l->rc = rc;
	l->res = rc == 0 ? res : NULL;
	l->done = true;
	pthread_cond_signal(&l->cv);
	pthread_mutex_unlock(&l->mu);
	lookup_put(l);
	return NULL;
}

/* Resolves name on a thread of its own within timeout_ms: 0 with *res
 * (the caller frees it), a getaddrinfo error, or EAI_AGAIN with *timed_out
 * set when the lookup ran longer. */
static int lookup_bounded(const char *name, const struct addrinfo *hints,
                          int timeout_ms, struct addrinfo **res,
                          bool *timed_out)
{
	size_t len = strlen(name) + 1;
	struct lookup *l = calloc(1, sizeof(*l) + len);
	pthread_condattr_t ca;
	pthread_attr_t ta;
	pthread_t t;
	struct timespec ts;
	int rc;

	*res = NULL;
	*timed_out = false;
	if (l == NULL)
		return EAI_MEMORY;
	memcpy(l->name, name, len);
	l->hints = *hints;
	l->refs = 2;
	pthread_mutex_init(&l->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&l->cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_attr_init(&ta);
	pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &ta, lookup_run, l);
	pthread_attr_destroy(&ta);
	if (rc != 0) {
		l->refs = 1;
		lookup_put(l);
		return EAI_SYSTEM;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += timeout_ms / 1000;
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&l->mu);
	while (!l->done &&
	       pthread_cond_timedwait(&l->cv, &l->mu, &ts) != ETIMEDOUT)
		;
	if (l->done) {
		rc = l->rc;
		*res = l->res;
		l->res = NULL;
	} else {
		rc = EAI_AGAIN;
		*timed_out = true;
	}
	pthread_mutex_unlock(&l->mu);
	lookup_put(l);
	return rc;
}

/* Numeric addresses answer at once; names are looked up on a thread of
 * their own so that a silent DNS server costs at most timeout_ms. */
int resolve_bounded(const char *name, int family, struct sockaddr_storage *out,
                    int max, int timeout_ms, char *err, size_t errlen)
{
	struct addrinfo hints, *res = NULL, *ai;
	bool timed_out;
	int rc, n = 0;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST;
	rc = getaddrinfo(name, NULL, &hints, &res);
	if (rc == EAI_NONAME) {
		hints.ai_flags = AI_ADDRCONFIG;
		rc = lookup_bounded(name, &hints, timeout_ms, &res, &timed_out);
		if (timed_out) {
			snprintf(err, errlen,
			         "lookup of '%s' timed out after "
			         "%d ms",
			         name, timeout_ms);
			return -1;
		}
	}
	if (rc != 0) {
		snprintf(err, errlen, "cannot resolve '%s': %s", name,
		         gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai != NULL && n < max; ai = ai->ai_next) {
		bool dup = false;

		for (int i = 0; i < n; i++)
			if (memcmp(&out[i], ai->ai_addr, ai->ai_addrlen) == 0)
				dup = true;
		if (dup || ai->ai_addrlen > sizeof(out[n]))
			continue;
		memset(&out[n], 0, sizeof(out[n]));
		memcpy(&out[n], ai->ai_addr, ai->ai_addrlen);
		n++;
	}
	freeaddrinfo(res);
	if (n == 0)
		snprintf(err, errlen, "'%s' has no address", name);
	return n > 0 ? n : -1;
}

/* The address inside a sockaddr of either family. */
static const void *sa_addr(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return &((const struct sockaddr_in *)(const void *)ss)
		            ->sin_addr;
	return &((const struct sockaddr_in6 *)(const void *)ss)->sin6_addr;
}

/* bind() to port 0 of the address, as Gloo does before it listens. */
static void try_bind(struct hostname_addr *a)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd;

	memset(&ss, 0, sizeof(ss));
	if (a->family == AF_INET) {
		struct sockaddr_in *s4 = (struct sockaddr_in *)(void *)&ss;

		s4->sin_family = AF_INET;
		s4->sin_addr = a->a.v4;
		len = sizeof(*s4);
	} else {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)(void *)&ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_addr = a->a.v6;
		len = sizeof(*s6);
	}
	fd = socket(a->family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		a->bindable = 0;
		a->bind_errno = errno;
		return;
	}
	if (bind(fd, (struct sockaddr *)&ss, len) == 0) {
		a->bindable = 1;
	} else {
		a->bindable = 0;
		a->bind_errno = errno;
	}
	close(fd);
}

/* Live: gethostname, then getaddrinfo (Gloo's view) and bind(); a
 * recorded tree: its /etc/hostname and /etc/hosts only. */
int hostname_collect(const struct sysroot *sr, struct hostname_info *h,
                     int timeout_ms)
{
	struct sockaddr_storage ss[HOSTNAME_MAX_ADDRS];
	char hosts[65536];
	int n;

	memset(h, 0, sizeof(*h));
	if (sysroot_is_live(sr)) {
		if (gethostname(h->name, sizeof(h->name) - 1) < 0)
			return -1;
		snprintf(h->source, sizeof(h->source), "gethostname");
	} else {
		if (sysroot_read_line(sr, "/etc/hostname", h->name,
		                      sizeof(h->name)) <= 0) {
			snprintf(h->error, sizeof(h->error),
			         "no /etc/hostname recorded");
			h->name[0] = '\0';
			return -1;
		}
		snprintf(h->source, sizeof(h->source), "/etc/hostname");
	}
	if (sysroot_read(sr, "/etc/hosts", hosts, sizeof(hosts)) >= 0) {
		h->naddrs = hostname_hosts_lookup(hosts, h->name, h->addrs,
		                                  HOSTNAME_MAX_ADDRS);
		if (h->naddrs > 0) {
			h->resolved = true;
			snprintf(h->resolved_by, sizeof(h->resolved_by),
			         "/etc/hosts");
		}
	}
	if (!sysroot_is_live(sr)) {
		if (!h->resolved)
			snprintf(h->error, sizeof(h->error),
			         "%s is not in the recorded /etc/hosts; "
			         "getaddrinfo runs only on the live system",
			         h->name);
		return 0;
	}
	/* the live resolver is what Gloo uses: its answer and order win */
	h->live = true;
	n = resolve_bounded(h->name, AF_UNSPEC, ss, HOSTNAME_MAX_ADDRS,
	                    timeout_ms, h->error, sizeof(h->error));
	if (n > 0) {
		h->naddrs = 0;
		for (int i = 0; i < n; i++)
			h->naddrs +=
			    add_addr(h->addrs, h->naddrs, HOSTNAME_MAX_ADDRS,
			             ss[i].ss_family, sa_addr(&ss[i]));
		h->resolved = true;
		h->error[0] = '\0';
		snprintf(h->resolved_by, sizeof(h->resolved_by), "getaddrinfo");
	}
	for (int i = 0; i < h->naddrs; i++)
		try_bind(&h->addrs[i]);
	return 0;
}

/* For route_get and inet_ntop, which take the address alone. */
const void *sockaddr_addr(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return &((const struct sockaddr_in *)(const void *)ss)
		            ->sin_addr;
	return &((const struct sockaddr_in6 *)(const void *)ss)->sin6_addr;
}
