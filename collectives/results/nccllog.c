/* NCCL debug-output parser (nccllog.h). Lines look like
 * "host:123:456 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM"
 * and "NCCL INFO NET/Socket : Using [0]lo:127.0.0.1<0>". */
#include "results/nccllog.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Copies the word at s (up to a space, '/', ':' or the end). */
static void word(const char *s, char *out, size_t len, const char *stops)
{
	size_t i = 0;

	while (s[i] != '\0' && strchr(stops, s[i]) == NULL && i + 1 < len) {
		out[i] = s[i];
		i++;
	}
	out[i] = '\0';
}

/* Collects "[k]name" entries after "Using", up to a ';', each cut at
 * one of stops. */
static int using_list(const char *s, char (*out)[32], int max,
		      const char *stops)
{
	int n = 0;

	const char *end = strchr(s, ';'); /* "; OOB eth0:..." follows */

	while ((s = strchr(s, '[')) != NULL && n < max &&
	       (end == NULL || s < end)) {
		const char *e = strchr(s, ']');

		if (e == NULL)
			break;
		if (s[1] < '0' || s[1] > '9') { /* "[RO]" flags */
			s = e;
			continue;
		}
		word(e + 1, out[n], sizeof(out[n]), stops);
		if (out[n][0] != '\0')
			n++;
		s = e + 1;
	}
	return n;
}

/* Ignores lines that are not NCCL INFO lines. */
void nc_nccllog_line(struct nc_nccllog *lg, const char *line)
{
	const char *p;

	if (strstr(line, "NCCL INFO") == NULL)
		return;
	lg->lines++;
	if ((p = strstr(line, " via ")) != NULL) {
		p += 5;
		if (strncmp(p, "P2P", 3) == 0)
			lg->used_p2p = true;
		else if (strncmp(p, "SHM", 3) == 0)
			lg->used_shm = true;
		else if (strncmp(p, "NET/Socket", 10) == 0)
			lg->used_socket = true;
		else if (strncmp(p, "NET/IB", 6) == 0)
			lg->used_ib = true;
		if (strstr(p, "/GDRDMA") != NULL)
			lg->gdr_enabled = true;
		else if (strncmp(p, "COLLNET", 7) == 0)
			lg->collnet = true;
		return;
	}
	if ((p = strstr(line, "NET/Socket : Using")) != NULL) {
		lg->nsocket = using_list(p, lg->socket_ifaces, 4, ":< \n");
		return;
	}
	if ((p = strstr(line, "NET/IB : Using")) != NULL) {
		/* "mlx5_0:1/IB": device, port and link layer kept */
		lg->nib = using_list(p, lg->ib_devs, 8, "< ;\n");
		return;
	}
	if (strstr(line, "NET/IB : No device found.") != NULL)
		lg->ib_none = true;
	if ((p = strstr(line, "GPU Direct RDMA ")) != NULL) {
		if (strncmp(p + 16, "Enabled", 7) == 0)
			lg->gdr_enabled = true;
		else if (strncmp(p + 16, "Disabled", 8) == 0)
			lg->gdr_disabled = true;
		return;
	}
	if ((p = strstr(line, "Bootstrap")) != NULL &&
	    (p = strstr(p, "Using ")) != NULL) {
		p += 6;
		if (*p == '[')
			p = strchr(p, ']') ? strchr(p, ']') + 1 : p;
		word(p, lg->bootstrap_iface, sizeof(lg->bootstrap_iface),
		     ":< \n");
		return;
	}
	if (strstr(line, "type NVL") != NULL)
		lg->nvlink = true;
	if (strstr(line, "Connected NVLS") != NULL ||
	    strstr(line, "NVLS comm") != NULL)
		lg->nvls = true;
	if (strstr(line, "Connected CollNet") != NULL ||
	    strstr(line, "CollNet channels") != NULL)
		lg->collnet = true;
	if (strstr(line, "Connected all trees") != NULL)
		lg->tree = true;
}

/* Appends one transport unless already listed. */
static void add(struct nc_nccllog *lg, const char *kind, const char *iface)
{
	for (int i = 0; i < lg->nt; i++)
		if (strcmp(lg->t[i].kind, kind) == 0 &&
		    strcmp(lg->t[i].iface, iface) == 0)
			return;
	if (lg->nt == NC_MAX_TRANSPORTS)
		return;
	snprintf(lg->t[lg->nt].kind, sizeof(lg->t[lg->nt].kind), "%s", kind);
	snprintf(lg->t[lg->nt].iface, sizeof(lg->t[lg->nt].iface), "%s",
		 iface);
	lg->nt++;
}

/* One transport per kind and interface, no duplicates. */
void nc_nccllog_finish(struct nc_nccllog *lg)
{
	if (lg->used_p2p)
		add(lg, lg->nvlink ? "P2P/NVLink" : "P2P", "");
	if (lg->used_shm)
		add(lg, "SHM", "");
	if (lg->used_socket) {
		for (int i = 0; i < lg->nsocket; i++)
			add(lg, "NET/Socket", lg->socket_ifaces[i]);
		if (lg->nsocket == 0)
			add(lg, "NET/Socket", "");
	}
	if (lg->used_ib) {
		for (int i = 0; i < lg->nib; i++)
			add(lg, "NET/IB", lg->ib_devs[i]);
		if (lg->nib == 0)
			add(lg, "NET/IB", "");
	}
	if (lg->collnet)
		add(lg, "CollNet", "");
	if (lg->nvls)
		add(lg, "NVLS", "");
}

/* Reads at most a million lines. */
int nc_nccllog_file(struct nc_nccllog *lg, const char *path)
{
	char line[1024];
	FILE *fp = fopen(path, "r");
	int n = 0;

	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL && n++ < 1000000)
		nc_nccllog_line(lg, line);
	fclose(fp);
	nc_nccllog_finish(lg);
	return 0;
}

/* Lines of "KIND IFACE", then "#alg NVLS COLLNET TREE" and "#gdr ENABLED
 * DISABLED IB_NONE": plain text, so
 * the exchange needs no byte order; the blob stays zero-terminated. */
void nc_nccllog_pack(const struct nc_nccllog *lg, char *blob, size_t len)
{
	size_t off = 0;

	if (len < 64)
		return;
	for (int i = 0; i < lg->nt && off < len - 64; i++)
		off += (size_t)snprintf(blob + off, len - off, "%s %s\n",
					lg->t[i].kind, lg->t[i].iface);
	off += (size_t)snprintf(blob + off, len - off, "#alg %d %d %d\n",
				lg->nvls, lg->collnet, lg->tree);
	if (off < len)
		snprintf(blob + off, len - off, "#gdr %d %d %d\n",
			 lg->gdr_enabled, lg->gdr_disabled, lg->ib_none);
}

/* Cuts the blob into lines in place; a transport another process already
 * listed is not listed twice, and any process's algorithm counts. */
void nc_nccllog_merge(struct nc_nccllog *m, char *blob, size_t len)
{
	char *save = NULL, *line;

	if (len == 0)
		return;
	blob[len - 1] = '\0';
	for (line = strtok_r(blob, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char kind[24] = "", iface[32] = "";
		int a, b, t;

		if (sscanf(line, "#gdr %d %d %d", &a, &b, &t) == 3) {
			m->gdr_enabled |= a;
			m->gdr_disabled |= b;
			m->ib_none |= t;
			continue;
		}
		if (sscanf(line, "#alg %d %d %d", &a, &b, &t) == 3) {
			m->nvls |= a;
			m->collnet |= b;
			m->tree |= t;
			continue;
		}
		if (sscanf(line, "%23s %31s", kind, iface) < 1)
			continue;
		add(m, kind, iface);
	}
}
