/* netprobe report: placeholder until its issue lands. */
#include <stdio.h>

#include "commands.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "netprobe report: not implemented yet\n");
	return 2;
}
