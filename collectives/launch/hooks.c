/* The test-only switches (hooks.h). They change nothing unless a
 * NCCLCHECK_TEST_* variable is set, and exist only in test builds
 * (NC_TEST_HOOKS: ncclcheck-test, the unit tests): a release binary
 * ignores the variables. No CUDA, no NCCL. */
#include "launch/hooks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef NC_TEST_HOOKS
/* Reads "A:B" (B optional, 0 when absent); returns false when unset or
 * empty, so an empty variable switches nothing on. */
static bool hook(env_get_fn get, void *ctx, const char *name, long long *a,
		 unsigned long long *b)
{
	const char *s = get(name, ctx), *colon;
	char *end;

	if (s == NULL || *s == '\0')
		return false;
	*a = strtoll(s, &end, 10);
	*b = 0;
	colon = strchr(s, ':');
	if (colon != NULL)
		*b = strtoull(colon + 1, &end, 10);
	return true;
}

#endif

/* Everything off: all a release build ever does. */
static void off(struct nc_hooks *h)
{
	memset(h, 0, sizeof(*h));
	h->corrupt_rank = -1;
	h->kill_rank = -1;
	h->stall_rank = -1;
	h->advertise_rank = -1;
}

#ifdef NC_TEST_HOOKS
const bool nc_hooks_built = true;

/* All off first, then each variable that is set; the advertised address
 * is kept only with its rank ("RANK:ADDRESS"). */
void nc_hooks_read(env_get_fn get, void *ctx, struct nc_hooks *h)
{
	const char *adv = get("NCCLCHECK_TEST_ADVERTISE", ctx);
	long long a;
	unsigned long long b;

	off(h);
	if (hook(get, ctx, "NCCLCHECK_TEST_CORRUPT", &a, &b))
		h->corrupt_rank = (int)(a >= 0 ? a : 0);
	if (hook(get, ctx, "NCCLCHECK_TEST_KILL", &a, &b)) {
		h->kill_rank = (int)a;
		h->kill_bytes = b;
	}
	if (hook(get, ctx, "NCCLCHECK_TEST_STALL", &a, &b)) {
		h->stall_rank = (int)a;
		h->stall_step = (unsigned)b;
	}
	if (adv != NULL && hook(get, ctx, "NCCLCHECK_TEST_ADVERTISE", &a, &b) &&
	    strchr(adv, ':') != NULL) {
		h->advertise_rank = a;
		snprintf(h->advertise, sizeof(h->advertise), "%s",
			 strchr(adv, ':') + 1);
	}
}
#else
const bool nc_hooks_built = false;

/* A release build: the variables are not even read. */
void nc_hooks_read(env_get_fn get, void *ctx, struct nc_hooks *h)
{
	(void)get;
	(void)ctx;
	off(h);
}
#endif
