/* The environment a training job's frameworks read (NCCL, Gloo, torch,
 * Open MPI): the structs the deciders take, the one place they are filled
 * from the process (jobenv.c), and one parser per variable, each following
 * the framework's own rule (jobenv_parse.c, pure). */
#ifndef NP_JOBENV_H
#define NP_JOBENV_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/sysroot.h"
#include "kernel/launchenv.h"

/* The environment NCCL reads; NULL for an unset variable. */
struct nccl_env {
	const char *socket_ifname; /* NCCL_SOCKET_IFNAME */
	const char *socket_family; /* NCCL_SOCKET_FAMILY */
	const char *comm_id;       /* NCCL_COMM_ID, numeric "ip:port" or
				    * "[ipv6]:port"; resolve names first */
};

/* The settings the scan's deciders check; NULL for an unset variable. */
struct scan_env {
	const char *nccl_socket_ifname; /* NCCL_SOCKET_IFNAME */
	const char *nccl_socket_family; /* NCCL_SOCKET_FAMILY */
	const char *nccl_comm_id;       /* NCCL_COMM_ID as given */
	const char *gloo_socket_ifname; /* GLOO_SOCKET_IFNAME */
	const char *ompi_if_include;    /* OMPI_MCA_btl_tcp_if_include */
	const char *ompi_if_exclude;    /* OMPI_MCA_btl_tcp_if_exclude */
	const char *oob_if_include;     /* OMPI_MCA_oob_tcp_if_include */
	const char *oob_if_exclude;     /* OMPI_MCA_oob_tcp_if_exclude */
	const char *master_addr;        /* MASTER_ADDR */
	int nodes; /* nodes in the job: >1 several, 1 one, 0 unknown */
};

/* Fills the struct from getenv. */
void nccl_env_from_process(struct nccl_env *env);

#define NCCL_CONF_VALUE 1024 /* setEnvFile's value buffer */

/* What NCCL's configuration files set for the three variables it reads for
 * its interfaces; "" when no file sets one. */
struct nccl_conf {
	char ifname[NCCL_CONF_VALUE], family[NCCL_CONF_VALUE],
	    comm_id[NCCL_CONF_VALUE];
	char ifname_from[256], family_from[256], comm_id_from[256];
};

/* One file as NCCL's setEnvFile reads it (src/misc/param.cc): lines
 * "NAME=value" split at the first '=', no blanks trimmed, '#' in column
 * one a comment; setenv(..., 0) keeps the first value, so a variable
 * already set (here: a field not empty) is left alone. path is recorded
 * beside each value taken. */
void nccl_conf_parse(const char *text, const char *path, struct nccl_conf *c);

/* NCCL's initEnv: NCCL_CONF_FILE if set and not empty, else
 * $HOME/.nccl.conf, then /etc/nccl.conf, read through sr (the user's file
 * only on the live system), each filling only what the environment and
 * the files before it left unset: the environment always wins. Then every
 * NULL variable of env that a file sets points into c. */
void nccl_env_apply_conf(struct nccl_env *env, const struct sysroot *sr,
			 struct nccl_conf *c);

/* As nccl_env_apply_conf, for the scan's NCCL variables; a file's value
 * the environment overrides loses its file name in c (NCCL does not use
 * it). */
void scan_env_apply_conf(struct scan_env *e, const struct sysroot *sr,
			 struct nccl_conf *c);

/* Fills the struct from getenv; nodes from NNODES, SLURM_JOB_NUM_NODES,
 * SLURM_NNODES, or WORLD_SIZE over LOCAL_WORLD_SIZE. */
void scan_env_from_process(struct scan_env *e);

/* Fills the struct through get(name, ctx), which returns a variable's
 * value or NULL: the one list of variables both sources share. */
void scan_env_fill(struct scan_env *e,
		   env_get_fn get, void *ctx);

/* ---- a recorded environment (jobenv_record.c) ---- */

#define ENV_RECORD_PATH "/proc/self/environ"
#define ENV_RECORD_MAX 65536

/* The environment of a recorded node: proc/self/environ of a sysroot,
 * NAME=value entries each ended by a NUL, as the kernel writes them. */
struct env_record {
	char buf[ENV_RECORD_MAX];
	size_t len;
};

struct sysroot;

/* Reads ENV_RECORD_PATH under the sysroot into r. Returns 0, or -1 with
 * errno (r is then empty: no variable set). */
int env_record_read(const struct sysroot *sr, struct env_record *r);

/* The value of name in r, or NULL when it is not set. Pure. */
const char *env_record_get(const struct env_record *r, const char *name);

/* scan_env_fill over a recorded environment. The strings point into r,
 * which must outlive e. */
void scan_env_from_record(const struct env_record *r, struct scan_env *e);

/* ---- parsers: pure, fed the variables' text ---- */

#define NCCL_IF_PREFIX 64 /* NCCL's struct netIf prefix size */

/* One entry of an NCCL interface list. */
struct nccl_netif {
	char prefix[NCCL_IF_PREFIX];
	int port; /* the ":port" suffix as atoi reads it, -1 when absent */
};

/* NCCL's parseStringList, the reading of NCCL_SOCKET_IFNAME (after its
 * '^' and '=' marks) and of NCCL_COMM_ID's host: comma-separated
 * "prefix[:port]" entries, empty ones dropped, a prefix longer than
 * NCCL's buffer cut (NCCL would overrun it). Stops after max entries.
 * Returns the number of entries (0 for NULL). */
int nccl_iflist_parse(const char *s, struct nccl_netif *list, int max);

#define NCCL_COMM_ID_HOST 256

/* NCCL_COMM_ID as NCCL's ncclSocketGetAddrFromString cuts it. */
struct nccl_comm_id {
	bool bracketed; /* the "[<ipv6>]:<port>" form */
	/* the host: IPv4 text or a name up to the first ':' or ','; in the
	 * bracketed form the text between '[' and a '%' or ']' */
	char host[NCCL_COMM_ID_HOST];
	char scope[IF_NAMESIZE]; /* "[fe80::1%eth0]:port" gives "eth0" */
	int port;   /* the text after ':' as atoi reads it; -1 when absent */
	int family; /* AF_INET or AF_INET6 when host is a numeric address,
		     * AF_UNSPEC for a name (NCCL resolves it) */
	unsigned char addr[16]; /* the numeric address */
};

/* Parses NCCL_COMM_ID: "<ipv4>:<port>", "[<ipv6>]:<port>" or
 * "<hostname>:<port>". Returns 0, or -1 where NCCL rejects the text
 * ("Invalid NCCL_COMM_ID"): NULL, shorter than 2 characters, no host
 * before the first ':' or ',', '[' without ']', or a host or scope longer
 * than the fields. */
int nccl_comm_id_parse(const char *s, struct nccl_comm_id *out);

/* Formats a numeric address and port back into NCCL_COMM_ID's form
 * ("10.0.0.1:29500", "[fd00::1]:29500"; no ":port" for port -1). Returns
 * 0, or -1 when buf is too small or family is neither AF_INET nor
 * AF_INET6. */
int nccl_comm_id_format(int family, const void *addr, int port, char *buf,
			size_t len);

/* MASTER_ADDR as torch's TCPStore takes it: a numeric IPv4 or IPv6
 * address, else a host name to resolve. Returns 1 with *family and addr
 * (16 bytes) filled for a numeric address, 0 for a name, -1 for NULL or
 * "". */
int master_addr_parse(const char *s, int *family, unsigned char *addr);

#define ENV_ENTRY_MAX 64

/* One entry of a plain comma list. */
struct env_entry {
	char s[ENV_ENTRY_MAX];
};

/* A comma list taken literally, as torch splits GLOO_SOCKET_IFNAME and
 * Open MPI its btl_tcp_if_include/exclude lists: empty entries dropped,
 * each cut to ENV_ENTRY_MAX - 1 characters, at most max of them. Returns
 * the count (0 for NULL). */
int env_list_split(const char *s, struct env_entry *out, int max);

#endif
