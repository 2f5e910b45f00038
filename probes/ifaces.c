/* netprobe ifaces: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int cmd_ifaces(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "netprobe ifaces: not implemented yet\n");
	return 2;
}
