/* The ephemeral port range: one parser for the scan, the ports probe, the
 * peer probe and the responder. */
#include "kernel/portrange.h"

#include <errno.h>
#include <stdlib.h>

/* strtoul with the separators checked, so "1 2 x" and "60999 32768" are
 * refused rather than half read. */
int port_range_parse(const char *line, unsigned *lo, unsigned *hi)
{
	unsigned long a, b;
	char *end;

	errno = 0;
	a = strtoul(line, &end, 10);
	if (end == line || (*end != ' ' && *end != '\t'))
		goto bad;
	line = end;
	b = strtoul(line, &end, 10);
	if (end == line || errno != 0)
		goto bad;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end != '\0' || a == 0 || a > b || b > 65535)
		goto bad;
	*lo = (unsigned)a;
	*hi = (unsigned)b;
	return 0;
bad:
	errno = EINVAL;
	return -1;
}

/* One line is all the file holds. */
int port_range_read(const struct sysroot *sr, unsigned *lo, unsigned *hi)
{
	char line[64];

	if (sysroot_read_line(sr, PORT_RANGE_PATH, line, sizeof(line)) < 0)
		return -1;
	return port_range_parse(line, lo, hi);
}
