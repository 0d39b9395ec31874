// SPDX-License-Identifier: MIT
/* Config -> the ordered list of test points (pure: no I/O). */
#ifndef NB_PLAN_H
#define NB_PLAN_H

#include "config.h"

#define NB_MAX_POINT_KNOBS (NB_MAX_AXES * NB_MAX_AXIS_KNOBS)
#define NB_MAX_POINTS 10000
#define NB_POINT_ID_MAX 512

struct nb_knob_setting {
	char name[NB_KNOB_NAME_MAX];
	char value[NB_KNOB_VALUE_MAX];
};

struct nb_point {
	int index;                     /* 0-based position in the sweep */
	char id[NB_POINT_ID_MAX];      /* "tcp-rx/threaded=1/gro_flush_timeout=20000" */
	const struct nb_test_spec *test;   /* the plan's copy, with this point's swept fields */
	int nfields;                       /* swept test fields: "rate" = "150M" (in the id, not knobs) */
	struct nb_knob_setting fields[NB_MAX_FIELD_AXES];
	int nknobs;
	struct nb_knob_setting knobs[NB_MAX_POINT_KNOBS];
};

struct nb_plan {
	int npoints;
	struct nb_point *points;
	struct nb_test_spec *tests;    /* one per point: the test with its swept fields set */
};

/* Every knob setting (cross product of the axes) x every test x every value of the swept test
 * fields that apply to it (--rate 150M,1000M: UDP tests only). Knob settings form the outer
 * loop so each setting is applied once for all tests. Ids: "udp-rx/rate=150M/threaded=1". */
int nb_plan_build(const struct nb_config *cfg, struct nb_plan *plan, struct nb_err *err);
void nb_plan_free(struct nb_plan *plan);

/* Estimated wall time of one point (all repetitions; with auto repetitions the most they may
 * take) and of the whole plan, in seconds; one repetition; the least (auto: MIN runs each). */
double nb_point_estimate_s(const struct nb_config *cfg, const struct nb_point *p);
double nb_plan_estimate_s(const struct nb_config *cfg, const struct nb_plan *plan);
double nb_run_estimate_s(const struct nb_config *cfg, const struct nb_point *p);
double nb_point_estimate_min_s(const struct nb_config *cfg, const struct nb_point *p);
double nb_plan_estimate_min_s(const struct nb_config *cfg, const struct nb_plan *plan);

/* Value of a knob in a point, or NULL when the point does not set it. */
const char *nb_point_knob(const struct nb_point *p, const char *name);

#endif
