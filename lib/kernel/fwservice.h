/* Whether ufw and firewalld are running, read from what they leave on
 * the node (through the sysroot, so recorded trees replay): ufw's
 * ENABLED= in /etc/ufw/ufw.conf, a firewalld process under /proc or its
 * pid file. Chains named ufw-* or a table named firewalld can be left
 * over by a service that is off; only a running one takes `ufw allow`
 * or `firewall-cmd`. */
#ifndef NP_FWSERVICE_H
#define NP_FWSERVICE_H

#include "base/sysroot.h"

enum fwsvc_state {
	FWSVC_UNKNOWN = 0, /* nothing that tells could be read */
	FWSVC_INACTIVE,
	FWSVC_ACTIVE,
};

#define FWSVC_WHY 192

struct fw_service {
	enum fwsvc_state ufw, firewalld;
	/* the evidence ("ENABLED=yes in /etc/ufw/ufw.conf"), or what could
	 * not be read ("/etc/ufw/ufw.conf cannot be read: ...") */
	char ufw_why[FWSVC_WHY], firewalld_why[FWSVC_WHY];
};

/* Reads both services' state under sr into s; never fails (what cannot
 * be read is FWSVC_UNKNOWN with its reason). At most FWSVC_PROCS process
 * directories of /proc are looked at. */
#define FWSVC_PROCS 65536
void fwservice_read(const struct sysroot *sr, struct fw_service *s);

/* "active", "inactive" or "unknown". */
const char *fwservice_state_name(enum fwsvc_state st);

#endif
