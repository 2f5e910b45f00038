/* netprobe capture: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int cmd_capture(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "netprobe capture: not implemented yet\n");
	return 2;
}
