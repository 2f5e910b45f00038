/* Slurm host lists ("gpu[01-04,07]-ib,cpu1") expanded as `scontrol show
 * hostnames` expands them, and the membership a launcher's environment
 * gives a job of one process per node: Slurm, torchrun-style variables,
 * Open MPI and PMIx. Pure: the environment comes through a lookup
 * function, so tests feed tables. */
#ifndef NP_HOSTLIST_H
#define NP_HOSTLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/launchenv.h"

#define HOSTLIST_MAX 65536 /* names in one list, as Slurm's MAX_RANGE */
#define HOSTLIST_NAME_MAX 255

/* Expands list into *names (malloc'd array of malloc'd strings, *n of
 * them): top-level commas separate entries; "[a-b,c]" ranges expand in
 * order, each number as wide as the range's lower bound is written
 * ("[08-10]" gives 08 09 10, "[8-10]" gives 8 9 10); text after ']' is a
 * suffix ("node[1-2]-ib"); several bracket groups in one name expand as
 * their product, leftmost slowest. Empty entries are skipped. Returns 0,
 * or -1 with err filled ("unbalanced '[' in 'gpu[1-2'") and nothing
 * allocated. */
int hostlist_expand(const char *list, char ***names, size_t *n, char *err,
                    size_t errlen);

/* Frees what hostlist_expand or mesh_env_detect allocated. */
void hostlist_free(char **names, size_t n);

/* The membership one process learnt from its launcher. */
struct mesh_env {
	enum launch_src src;    /* the launcher's row; LAUNCH_NSRC: --hosts */
	const char *source;     /* "--hosts", or the row's label ("Slurm"),
	                         * for messages; static */
	char vars[160]; /* the variables that said so, for the user */
	int rank;       /* -1: find this node in hosts */
	int size;       /* members; equals nhosts when hosts are known */
	char **hosts;   /* names or addresses in rank order, NULL when only
	                 * the size is known */
	size_t nhosts;
	char node0[HOSTLIST_NAME_MAX + 1]; /* node 0's address, "" unknown */
	unsigned port;                     /* MASTER_PORT; 0 unset */
	int local_rank; /* > 0: another process on this node came first */
};

/* Decides the membership. hosts_text is what --hosts gave (the file's
 * contents or the list itself: names or addresses separated by newlines,
 * commas or blanks, '#' starting a comment, Slurm ranges expanded), NULL
 * when absent; rendezvous is --rendezvous (NULL when absent), node 0's
 * address for the launchers that carry none. Order: hosts_text, Slurm,
 * torchrun-style, Open MPI, PMIx (their variables from launchenv.h's
 * table). Returns 0, or -1 with err naming what
 * was missing or invalid ("SLURM_NODEID='x': not a number"). Free with
 * mesh_env_free. */
int mesh_env_detect(env_get_fn get, void *ctx, const char *hosts_text,
                    const char *rendezvous, struct mesh_env *out, char *err,
                    size_t errlen);

/* Releases the host names. Safe on a zeroed struct. */
void mesh_env_free(struct mesh_env *e);

#endif
