// SPDX-License-Identifier: MIT
/* What the renderers show beyond compare_load's view of a report: the extras only the page shows
 * (environment, 100 ms series), per-point bottlenecks, the "which setting" choice. The renderers
 * themselves and the format table: render/render.h. */
#ifndef NB_REPORT_VIEW_H
#define NB_REPORT_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "result/bottleneck.h"
#include "compare/compare.h"
#include "compare/compare_load.h"
#include "kit/nb_error.h"

/* ---- extras read from the report file (jansson stays in view.c) ---- */

#define NB_RV_ENV_MAX 32
#define NB_RV_SERIES_COLS 6

struct nb_rv_env_item {
	const char *key;   /* "kernel", "driver", ... (display labels) */
	char *value;       /* owned; never NULL */
};

/* The raw 100 ms series of one run of a point: columns named by nb_rv_series_cols[]. */
struct nb_rv_series {
	char *point_id;    /* owned */
	int run;           /* 1-based run number the series is from; 0 = none */
	int n;
	double *t;         /* owned, n values, seconds */
	double *col[NB_RV_SERIES_COLS]; /* owned or NULL when the report has no such column; NAN = not measured */
	/* the point's counters beyond its metrics (render/point_notes.h) */
	char *driver_counters;  /* "rx_missed_errors +12, ..." of the first ok run where some moved; owned or NULL */
	int counters_run;       /* that run, 1-based */
	int kernel_log_lines;   /* lines the kernel logged during the point */
	char *kernel_log_first; /* the first of them; owned or NULL */
	char *mtu;              /* the mtu knob's record as a sentence (both ends, how); owned or NULL */
	/* why no page_pool counter was read: the counters' reason of the first run (netlink, ethtool)
	 * and the tracepoints' (point trace_unavailable, or its trace_notes); owned or NULL */
	char *pp_why;
};

extern const char *const nb_rv_series_cols[NB_RV_SERIES_COLS];

struct nb_rv_extra {
	int n_env;
	struct nb_rv_env_item env[NB_RV_ENV_MAX];
	int n_series;
	struct nb_rv_series *series;
};

/* Read the environment and the series of the first ok run of every point. */
int nb_rv_extra_load(const char *path, struct nb_rv_extra *out, struct nb_err *err);
void nb_rv_extra_free(struct nb_rv_extra *x);
const struct nb_rv_series *nb_rv_series_of(const struct nb_rv_extra *x, const char *point_id);
/* The point's extras whether or not it has a series (its counters: render/point_notes.h); NULL: none. */
const struct nb_rv_series *nb_rv_point_extras(const struct nb_rv_extra *x, const char *point_id);

/* ---- derived per point ---- */

/* The metric a point's table row shows: its headline when that is a packet rate (a flood point,
 * kit/headline.h), else throughput_bps. */
const char *nb_rv_headline(const struct nb_cmp_point *p);

/* The bottleneck of a loaded point (rules of bottleneck.c over its medians). */
void nb_rv_bottleneck(const struct nb_cmp_report *rep, const struct nb_cmp_point *p, struct nb_bottleneck *out);

/* The headline rate per busy CPU: bits per CPU-second, or for a flood (headline rx_packets_per_s) packets per
 * CPU-second; median over the runs that have both; false when absent. */
bool nb_rv_efficiency(const struct nb_cmp_report *rep, const struct nb_cmp_point *p, double *per_cpu_s);

/* Is the point's efficiency in packets per CPU-second (a flood) rather than bits? */
bool nb_rv_efficiency_in_packets(const struct nb_cmp_point *p);

/* An efficiency figure in its unit: "538.0 Mbit/s" (bits per CPU-second) or "52.3 kpps" (packets). */
const char *nb_rv_efficiency_text(char *buf, size_t len, const struct nb_cmp_point *p, double v);

/* The point's p99 latency (rr_latency_p99_us, from rr tests); NULL when none. */
const struct nb_cmp_samples *nb_rv_p99(const struct nb_cmp_point *p);

/* The setting of a point: its id without the test name ("threaded=1/gro_flush_timeout=20000"), "default" when none. */
const char *nb_rv_setting(const struct nb_cmp_point *p);

/* ---- which setting to choose ---- */

/* A swept rate or length is part of what is measured, not a setting to choose: the choice groups points by
 * their test and swept fields ("udp-rx/rate=1000M") and names the setting by its knobs alone
 * ("irq_affinity=rx0-tx1"; "default" when none). nb_rv_setting keeps the fields (ids, kcidb paths). */
const char *nb_rv_choice_setting(const struct nb_cmp_point *p);
void nb_rv_choice_test(char *buf, size_t len, const struct nb_cmp_point *p);

#define NB_RV_MAX_TESTS 32
#define NB_RV_MAX_SETTINGS 128

struct nb_rv_test_front {
	char test[96];                 /* the test and its swept fields: "udp-rx/rate=1000M" */
	bool packets;                  /* a flood: rates in packets, efficiency in packets per CPU-second */
	int n_points;
	const struct nb_cmp_point *points[NB_RV_MAX_SETTINGS];
	bool on_front[NB_RV_MAX_SETTINGS];  /* not dominated in throughput, efficiency and (where present) p99 */
	bool has_p99;
};

struct nb_rv_choice {
	int n_tests;
	struct nb_rv_test_front tests[NB_RV_MAX_TESTS];
	const char *reference;         /* the runner-up: the margin of the best is against it */
	const char *best;              /* highest geometric mean of the headline rate; NULL: none */
	double change_pct[NB_RV_MAX_TESTS]; /* best vs runner-up, per test; NAN where either is missing */
	int worst_test;                /* index of the largest loss (or smallest gain); -1 when none */
	int n_settings;
};

void nb_rv_choose(const struct nb_cmp_report *rep, struct nb_rv_choice *out);

/* A front point's figures: "7.64 Gbit/s", "41250 trans/s, p99 38 us"; "-" when it has none. */
const char *nb_rv_front_figures(char *buf, size_t len, const struct nb_cmp_point *p);

/* ---- renderers ---- */

/* "7.64 Gbit/s", "538 Mbit/s"; buf of at least 24 bytes. */
const char *nb_rv_bps(char *buf, size_t len, double bps);

/* Did the point's bottleneck move from base to new? Both sides judged; words in buf when it did. */
bool nb_rv_moved(const struct nb_cmp_result *r, const struct nb_cmp_point_result *pr, char *buf, size_t len);

/* Is metric gated for a test under the compare options' gate rules? (the same rules compare applies) */
bool nb_rv_gated(const struct nb_cmp_options *opt, const char *test, const char *metric);

#endif
