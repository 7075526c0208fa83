/*
 * What repro_table.c takes from repro_table_cgv2.c: the cgroup v2
 * scenarios' columns (NULL-terminated) and checks with their counts.
 */
#ifndef IOSCHED_EXP_REPRO_TABLE_INT_H
#define IOSCHED_EXP_REPRO_TABLE_INT_H

#include "iosched/repro.h"

#define CG_DOC "docs/cgroup-v2-plan.md"

extern const char *const ios_rp_cg1_columns[];
extern const struct ios_repro_check ios_rp_cg1_checks[10];
extern const char *const ios_rp_cg1c_columns[];
extern const struct ios_repro_check ios_rp_cg1c_checks[9];
extern const char *const ios_rp_cg2_columns[];
extern const struct ios_repro_check ios_rp_cg2_checks[4];
extern const char *const ios_rp_cg2r_columns[];
extern const struct ios_repro_check ios_rp_cg2r_checks[3];
extern const char *const ios_rp_cg2w_columns[];
extern const struct ios_repro_check ios_rp_cg2w_checks[2];
extern const char *const ios_rp_cg3_columns[];
extern const struct ios_repro_check ios_rp_cg3_checks[6];
extern const char *const ios_rp_cgw1_columns[];
extern const struct ios_repro_check ios_rp_cgw1_checks[5];
extern const char *const ios_rp_cg4_columns[];
extern const struct ios_repro_check ios_rp_cg4_checks[10];
extern const struct ios_repro_check ios_rp_cg4a_checks[2];

#endif
