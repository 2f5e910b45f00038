/* ufw's and firewalld's service state (fwservice.h), from files a
 * sysroot holds. */
#include "kernel/fwservice.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UFW_CONF "/etc/ufw/ufw.conf"

/* See fwservice.h. */
const char *fwservice_state_name(enum fwsvc_state st)
{
	switch (st) {
	case FWSVC_ACTIVE:
		return "active";
	case FWSVC_INACTIVE:
		return "inactive";
	default:
		return "unknown";
	}
}

/* ufw starts at boot only where ufw.conf says ENABLED=yes (its init
 * script and `ufw status` read the same line), so that line is its
 * state; no ufw.conf where /etc is readable means ufw is not there. */
static void ufw_state(const struct sysroot *sr, struct fw_service *s)
{
	char buf[8192], *line, *save = NULL;
	ssize_t n = sysroot_read(sr, UFW_CONF, buf, sizeof(buf));

	if (n < 0) {
		int e = errno;

		if (e == ENOENT && sysroot_exists(sr, "/etc")) {
			s->ufw = FWSVC_INACTIVE;
			snprintf(s->ufw_why, sizeof(s->ufw_why),
			         "ufw is not installed (no %s)", UFW_CONF);
		} else {
			s->ufw = FWSVC_UNKNOWN;
			snprintf(s->ufw_why, sizeof(s->ufw_why),
			         "%s cannot be read: %s", UFW_CONF,
			         strerror(e));
		}
		return;
	}
	s->ufw = FWSVC_INACTIVE;
	snprintf(s->ufw_why, sizeof(s->ufw_why), "no ENABLED=yes in %s",
	         UFW_CONF);
	for (line = strtok_r(buf, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char v[16];
		size_t k = 0;

		while (isspace((unsigned char)*line))
			line++;
		if (strncmp(line, "ENABLED=", 8) != 0)
			continue;
		line += 8;
		for (; *line && k + 1 < sizeof(v); line++)
			if (*line != '"' && *line != '\'' &&
			    !isspace((unsigned char)*line))
				v[k++] = (char)tolower((unsigned char)*line);
		v[k] = '\0';
		/* the last ENABLED= wins, as in the shell that sources it */
		s->ufw = strcmp(v, "yes") == 0 ? FWSVC_ACTIVE : FWSVC_INACTIVE;
		snprintf(s->ufw_why, sizeof(s->ufw_why), "ENABLED=%s in %s", v,
		         UFW_CONF);
	}
}

/* True when the process's name is firewalld: its comm (the script's
 * name when run by its #! line) or, run as `python3 -s .../firewalld`,
 * the first word of its command line past the interpreter and its
 * options. */
static bool is_firewalld(const struct sysroot *sr, const char *pid)
{
	char path[64], buf[512];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%s/comm", pid);
	if (sysroot_read_line(sr, path, buf, sizeof(buf)) >= 0 &&
	    strcmp(buf, "firewalld") == 0)
		return true;
	snprintf(path, sizeof(path), "/proc/%s/cmdline", pid);
	n = sysroot_read(sr, path, buf, sizeof(buf));
	if (n <= 0)
		return false;
	buf[n] = '\0'; /* the last word ends even where cut */
	for (ssize_t off = 0, w = 0; off < n && w < 4; w++) {
		const char *word = buf + off, *base = strrchr(word, '/');

		if (strcmp(base ? base + 1 : word, "firewalld") == 0)
			return true;
		/* the interpreter, then its options: the script follows */
		if (w > 0 && word[0] != '-')
			break;
		off += (ssize_t)strlen(word) + 1;
	}
	return false;
}

/* firewalld runs where a process of that name does (a pid file alone
 * may be stale: its process must still be there). */
static void firewalld_state(const struct sysroot *sr, struct fw_service *s)
{
	static const char *const pidfiles[] = {"/run/firewalld.pid",
	                                       "/var/run/firewalld.pid"};
	char dir[PATH_MAX], path[64];
	struct dirent *de;
	size_t procs = 0, seen = 0;
	DIR *d;

	for (size_t i = 0; i < sizeof(pidfiles) / sizeof(pidfiles[0]); i++) {
		long long pid;

		if (sysroot_read_ll(sr, pidfiles[i], &pid) < 0 || pid <= 0)
			continue;
		snprintf(path, sizeof(path), "%lld", pid);
		if (is_firewalld(sr, path)) {
			s->firewalld = FWSVC_ACTIVE;
			snprintf(s->firewalld_why, sizeof(s->firewalld_why),
			         "process %lld (%s) is firewalld", pid,
			         pidfiles[i]);
			return;
		}
	}
	if (sysroot_path(sr, "/proc", dir, sizeof(dir)) < 0 ||
	    (d = opendir(dir)) == NULL) {
		s->firewalld = FWSVC_UNKNOWN;
		snprintf(s->firewalld_why, sizeof(s->firewalld_why),
		         "/proc cannot be read: %s", strerror(errno));
		return;
	}
	while ((de = readdir(d)) != NULL && seen < FWSVC_PROCS) {
		seen++;
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		procs++;
		if (is_firewalld(sr, de->d_name)) {
			s->firewalld = FWSVC_ACTIVE;
			snprintf(s->firewalld_why, sizeof(s->firewalld_why),
			         "process %.20s is firewalld", de->d_name);
			closedir(d);
			return;
		}
	}
	closedir(d);
	if (seen >= FWSVC_PROCS) {
		s->firewalld = FWSVC_UNKNOWN;
		snprintf(s->firewalld_why, sizeof(s->firewalld_why),
		         "more than %d entries under /proc", FWSVC_PROCS);
		return;
	}
	if (procs == 0) {
		/* a recorded tree without its processes */
		s->firewalld = FWSVC_UNKNOWN;
		snprintf(s->firewalld_why, sizeof(s->firewalld_why),
		         "no process is listed under /proc");
		return;
	}
	s->firewalld = FWSVC_INACTIVE;
	snprintf(s->firewalld_why, sizeof(s->firewalld_why),
	         "no firewalld among the %zu processes under /proc", procs);
}

/* See fwservice.h. */
void fwservice_read(const struct sysroot *sr, struct fw_service *s)
{
	memset(s, 0, sizeof(*s));
	ufw_state(sr, s);
	firewalld_state(sr, s);
}
