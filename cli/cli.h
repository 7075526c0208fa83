/*
 * The command line: argument handling only. Everything a test would need
 * lives in the library; these files turn arguments into library calls and
 * errors into messages and exit codes (0 ok, 1 the run failed, 2 bad usage).
 */
#ifndef IOSCHED_CLI_H
#define IOSCHED_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include "iosched/ios.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAIL 1
#define CLI_EXIT_USAGE 2

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
void cli_usage(FILE *f);

/* "--name=value" or "--name value": returns the value or NULL; advances *i */
const char *cli_optval(int argc, char **argv, int *i, const char *name);
void cli_error(const struct ios_err *e);

#endif
