/* The subcommands of netprobe: one entry point each, in its own file. */
#ifndef NP_COMMANDS_H
#define NP_COMMANDS_H

#include "report.h" /* cmd_report: reports/ is a program folder of its own */

/* Each takes argv as main does (argv[0] is the subcommand name) and returns
 * the exit status: 0 no fault, 1 fault found, 2 could not run. */
int cmd_ifaces(int argc, char **argv);
int cmd_layers(int argc, char **argv);
int cmd_scan(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_ports(int argc, char **argv);
int cmd_heartbeat(int argc, char **argv);
int cmd_path(int argc, char **argv);
int cmd_capture(int argc, char **argv);
int cmd_mesh(int argc, char **argv);
int cmd_explain(int argc, char **argv);

#endif
