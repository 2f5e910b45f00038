/* netprobe scan: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int cmd_scan(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "netprobe scan: not implemented yet\n");
	return 2;
}
