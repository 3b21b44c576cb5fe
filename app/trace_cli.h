/* trace_cli — the `combosim trace ...` subcommand: workload generators, importers of real
 * traces, and a checker (see traces/README.md). */
#ifndef COMBOSIM_TRACE_CLI_H
#define COMBOSIM_TRACE_CLI_H

/* argv[0] is the first word after "trace".  Returns the exit code (0, 1, 2). */
int cmd_trace(int argc, char **argv);

#endif
