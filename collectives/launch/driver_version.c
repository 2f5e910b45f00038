/* The NVIDIA kernel driver's version, read where nvidia-smi reads it:
 * /proc/driver/nvidia/version, through the sysroot so tests replay a
 * recorded line. No CUDA, no NVML. */
#include "preflight/preflight.h"
#include "base/sysroot.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The first word after "NVRM version:" made of digits and dots with at
 * least one dot: "...Kernel Module  580.159.04  Release Build..." and the
 * open module's "...Open Kernel Module for x86_64  580.95.05 ..." alike. */
int nc_driver_version(const struct sysroot *sr, char *buf, size_t len)
{
	char line[512];
	const char *p;

	buf[0] = '\0';
	if (sysroot_read_line(sr, "/proc/driver/nvidia/version", line,
			      sizeof(line)) < 0 ||
	    (p = strstr(line, "NVRM version:")) == NULL)
		return -1;
	for (p += 13; *p != '\0';) {
		size_t n = 0;
		bool dot = false;

		while (isspace((unsigned char)*p))
			p++;
		while (isdigit((unsigned char)p[n]) || p[n] == '.') {
			dot |= p[n] == '.';
			n++;
		}
		if (n > 0 && dot && isdigit((unsigned char)p[0]) &&
		    (p[n] == '\0' || isspace((unsigned char)p[n])) &&
		    n < len) {
			memcpy(buf, p, n);
			buf[n] = '\0';
			return 0;
		}
		while (*p != '\0' && !isspace((unsigned char)*p))
			p++;
	}
	return -1;
}
