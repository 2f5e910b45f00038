/* netprobe path: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int cmd_path(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "netprobe path: not implemented yet\n");
	return 2;
}
