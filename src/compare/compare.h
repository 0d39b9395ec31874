// SPDX-License-Identifier: MIT
/* nicbench compare: two loaded reports -> per point and metric verdicts (pure, no I/O). */
#ifndef NB_COMPARE_H
#define NB_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "compare_load.h"
#include "kit/metric_table.h"
#include "kit/metrics.h"
#include "kit/nb_error.h"
#include "sequential.h"

#define NB_CMP_SCHEMA "nicbench-compare/1"
/* Derived by compare: throughput per busy CPU, in bits per CPU-second. */
#define NB_CMP_EFFICIENCY_METRIC NB_M_BITS_PER_CPU_SECOND

/* Directions and floors come from the metric table (kit/metric_table.h); compare's names
 * for them carry the table's values. */
enum nb_cmp_direction {
	NB_CMP_NEUTRAL = NB_METRIC_NEUTRAL, /* shown, never gated */
	NB_CMP_HIGHER_BETTER = NB_METRIC_HIGHER_BETTER,
	NB_CMP_LOWER_BETTER = NB_METRIC_LOWER_BETTER,
};

enum nb_cmp_verdict {
	NB_CMP_UNCHANGED,
	NB_CMP_IMPROVED,
	NB_CMP_REGRESSED,
	NB_CMP_INCONCLUSIVE,  /* too few runs, or a large change the runs do not support */
	NB_CMP_NEW,           /* only in the new report */
	NB_CMP_MISSING,       /* only in the base report */
	NB_CMP_FIXED,         /* point failed in base, ok in new */
	NB_CMP_BROKEN,        /* point ok in base, failed in new */
	NB_CMP_CHANGED,       /* a supported change of a metric without a direction */
};

enum nb_cmp_overall {
	NB_CMP_PASS,
	NB_CMP_REGRESSION,
	NB_CMP_OVERALL_INCONCLUSIVE,
	NB_CMP_OVERALL_MISSING, /* a gated metric or a point of BASE is absent from NEW: fails like a regression */
};

struct nb_cmp_effect {
	char metric[NB_METRIC_NAME_MAX];
	double pct;
};

/* One gate rule: METRIC[@TESTS][=PCT]. tests is an fnmatch(3) glob over the test
 * name ("*-rx"), empty for every test; min_effect_pct < 0 keeps the metric's own. */
struct nb_cmp_gate_rule {
	char metric[NB_METRIC_NAME_MAX]; /* or NB_CMP_GATE_HEADLINE */
	char tests[64];
	double min_effect_pct;
	bool implicit;                   /* the default gate's headline rule: not spelled in the gate line */
};

/* The gate rule's metric that stands for each point's headline (kit/headline.h): packets per
 * second received for a flood point, throughput or transactions per second otherwise. */
#define NB_CMP_GATE_HEADLINE "headline"

/* How far a metric must move in its own unit before a change can count: an absolute
 * floor beside the relative minimum effect, so that a 1.8% CPU share or a handful of
 * lost packets does not swing tens of percent on noise. */
enum nb_cmp_floor_kind {
	NB_CMP_FLOOR_NONE = NB_METRIC_FLOOR_NONE,
	NB_CMP_FLOOR_ABS = NB_METRIC_FLOOR_ABS,               /* in the metric's own unit */
	NB_CMP_FLOOR_BITS_SHARE = NB_METRIC_FLOOR_BITS_SHARE, /* % of the point's base throughput_bps */
	NB_CMP_FLOOR_BYTES_SHARE = NB_METRIC_FLOOR_BYTES_SHARE, /* the same of a byte rate: of it / 8 */
};

struct nb_cmp_floor {
	const char *family; /* "cpu", "loss", "drops", "rates", "latency", "bits", ...: --floor FAMILY=V */
	enum nb_cmp_floor_kind kind;
	double value;
	const char *unit;   /* of value, in words: "percentage points of the machine" */
};

/* --floor METRIC=V or FAMILY=V: replaces the table's value (kind kept; ABS for a metric without one). */
struct nb_cmp_floor_override {
	char name[NB_METRIC_NAME_MAX];
	double value;
};

#define NB_CMP_MAX_EFFECTS 32
#define NB_CMP_MAX_FLOORS 32
#define NB_CMP_MAX_GATE 32
#define NB_CMP_MAX_MOVERS 5
#define NB_CMP_MOVER_MIN_PTS 0.5 /* over paired rounds: the median move a profile symbol needs */
/* Between two single reports there is no noise figure: one A/A pair of tcp-rx on veth moved
 * _raw_spin_unlock_irqrestore by 7.5 points (tests/fixtures/compare/veth-aa-*), so only a
 * move that large says anything. */
#define NB_CMP_MOVER_SINGLE_MIN_PTS 2.0

struct nb_cmp_options {
	double min_effect_pct;  /* a change smaller than this is "unchanged" */
	double alpha;           /* two-sided Mann-Whitney significance level */
	int min_runs;           /* per side, for any verdict but new/missing/fixed/broken */
	double change_cap_pct;  /* changes above this print as ">CAP%" */
	int n_effects;
	struct nb_cmp_effect effects[NB_CMP_MAX_EFFECTS];
	int n_gate;
	struct nb_cmp_gate_rule gate[NB_CMP_MAX_GATE];
	bool no_floors;         /* --floor none: the relative rules alone, as before floors */
	bool missing_ok;        /* --missing-ok: a gated metric absent from NEW is inconclusive, not a failure */
	bool allow_disturbed;   /* --allow-disturbed: a verdict withheld for disturbed data does not fail */
	int n_floors;
	struct nb_cmp_floor_override floors[NB_CMP_MAX_FLOORS];
	/* compare over rounds with the rounds paired by index (set by the caller from
	 * nb_cmp_rounds): metrics whose samples pair are judged on the pairs (docs/compare.md) */
	bool rounds_paired;
	bool sequential;        /* --sequential: paired metrics get the always-valid verdict (sequential.h) */
	/* --alpha-split: the sequential verdict's alpha is shared out evenly among the gated metrics it
	 * judges (Bonferroni), so that the gate as a whole, not each metric, errs at alpha */
	bool alpha_split;
};

/* min effect 5%, alpha 0.10, 3 runs, cap 10000%, gate "throughput_bps,cpu_busy_pct@*-rx,..." and,
 * unspelled, each point's headline metric (a flood point's rx_packets_per_s). */
void nb_cmp_options_init(struct nb_cmp_options *opt);

/* The default gate of nicbench ab and bisect: each point's headline, its throughput and the kernel's
 * CPU time per packet. Where the link, the peer or the emulation holds the throughput, a driver
 * change that costs CPU per packet shows in the cost alone (docs/compare.md, "The gate of ab"). */
#define NB_CMP_AB_GATE NB_CMP_GATE_HEADLINE "," NB_M_THROUGHPUT_BPS "," NB_M_KERNEL_CPU_NS_PER_PACKET

/* nb_cmp_options_init, then what ab and bisect judge by: the gate NB_CMP_AB_GATE, the sequential
 * verdict and its alpha split among the gated metrics. The caller still sets rounds_paired (from
 * nb_cmp_rounds) and may override the gate with nb_cmp_gate_parse. */
void nb_cmp_options_ab_init(struct nb_cmp_options *opt);

/* Replace the gate with a comma-separated list of METRIC[@TESTS][=PCT] rules, or "none". */
int nb_cmp_gate_parse(struct nb_cmp_options *opt, const char *spec, struct nb_err *err);

/* "PCT" sets the default minimum effect, "METRIC=PCT" the one of a metric. */
int nb_cmp_effect_parse(struct nb_cmp_options *opt, const char *spec, struct nb_err *err);

/* "METRIC=V" or "FAMILY=V" (comma-separated, repeatable) sets a floor, "none" turns floors off. */
int nb_cmp_floor_parse(struct nb_cmp_options *opt, const char *spec, struct nb_err *err);

/* The metric table's floor of a metric (kind NB_CMP_FLOOR_NONE when it has none), before overrides. */
struct nb_cmp_floor nb_cmp_metric_floor(const char *name);

/* The metric table's rows, for --list-floors: count, and row i's name ("cpu{N}_busy_pct"). */
int nb_cmp_floor_rows(void);
const char *nb_cmp_floor_row(int i, char *pattern, size_t len, struct nb_cmp_floor *floor,
			     enum nb_cmp_direction *direction);

/* How many of a side's spreads the gap between the sides must exceed, for the smaller side's
 * number of runs: the factor that gives every run count the same chance (about 0.8%) that
 * pure noise passes, which at 3 runs a side is one spread (bench/noise-rule-sim prints it). */
double nb_cmp_spread_factor(int runs);

/* Why a metric got its verdict; kept as a code so that thousands of metrics carry no text. */
enum nb_cmp_reason {
	NB_CMP_REASON_NONE,
	NB_CMP_REASON_FEW_RUNS,      /* fewer than min_runs on a side */
	NB_CMP_REASON_UNREACHABLE,   /* the run counts cannot reach the confidence level */
	NB_CMP_REASON_NOISY,         /* the interval reaches into the minimum effect */
	NB_CMP_REASON_SUPPORTED,     /* the interval lies beyond the minimum effect */
	NB_CMP_REASON_ONLY_BASE,
	NB_CMP_REASON_ONLY_NEW,
	NB_CMP_REASON_WITHIN_FLOOR,  /* the medians differ by no more than the metric's floor */
	NB_CMP_REASON_NOISY_FLOOR,   /* beyond the minimum effect, but the interval reaches within the floor */
	NB_CMP_REASON_NOISY_SPREAD,  /* beyond effect and floor, but by less than the runs of a side spread */
	NB_CMP_REASON_DISTURBED,     /* a supported change, but other programs loaded a side (cpu_other_pct) */
	NB_CMP_REASON_STEAL,         /* a supported change the host's steal difference can explain (steal_pct) */
	NB_CMP_REASON_FOLLOWS_THROUGHPUT, /* a CPU cost that moved with the throughput, by no more */
	NB_CMP_REASON_FEW_PAIRS,     /* paired rounds: too few pairs for the sign interval to reach 1 - alpha */
};

/* A VM's host load: the point's median steal_pct per side (NAN when a side lacks it) and the
 * change in a figure their difference can explain, in percent (0: below NB_STEAL_DIFF_PCT). */
#define NB_STEAL_DIFF_PCT 1.0
#define NB_STEAL_EFFECT 2.0  /* times the CPU count: % of a figure per point of steal */
struct nb_cmp_steal {
	double base_pct, new_pct;
	double explains_pct;
};

struct nb_cmp_metric_result {
	const char *name;        /* the report's copy (or a literal): results borrow from the reports */
	enum nb_cmp_direction direction;
	bool gated;
	bool has_base, has_new, has_change, change_capped, has_p;
	double base, new;        /* medians */
	int n_base, n_new;
	double change_pct;       /* bounded: never inf or NaN */
	double p_value;
	bool has_ci;
	double ci_lo_pct, ci_hi_pct; /* (1 - alpha) interval of the change, % of the base median */
	double min_effect_pct;
	bool has_floor;
	double floor;            /* absolute, in the metric's unit, as applied to this point */
	const char *floor_family;
	double spread;           /* the larger side's spread of runs (run_spread), in the metric's unit */
	bool spread_ratio;       /* the spread rule was judged in ratios (every run above 0): spread_pct */
	double spread_pct;       /* the larger side's spread of runs as a ratio, in percent (x1.5: 50) */
	double spread_factor;    /* the gap had to exceed this many spreads (nb_cmp_spread_factor) */
	double other_pct;        /* the worse side's largest cpu_other_pct of the point; NAN when absent */
	struct nb_cmp_steal steal; /* the point's, for the reason's text */
	bool counts_losses;      /* the row says: what did not fit, not what was done (NB_METRIC_COUNTS_LOSSES) */
	bool follows_work;       /* the row says: a CPU cost that grows with the work (NB_METRIC_FOLLOWS_WORK) */
	bool host_state;         /* the row says: the host's circumstances, not judged by them (NB_METRIC_HOST_STATE) */
	double throughput_change_pct; /* the point's, for NB_CMP_REASON_FOLLOWS_THROUGHPUT */
	int n_pairs;             /* paired rounds the verdict rests on; 0: judged on runs (or unpaired rounds) */
	double alpha;            /* the level it was judged at: opt->alpha, or the gate's share (alpha_split) */
	enum nb_cmp_verdict verdict;
	enum nb_cmp_reason reason; /* why; nb_cmp_reason_text() words it */
	struct nb_seq_metric seq;  /* --sequential: decided or not, and the pairs still needed */
};

/* A profile symbol whose share of busy samples moved. Between two reports the move is new - base;
 * over paired rounds (n_pairs >= 2) the shares are the sides' medians, the move the median of
 * the per-pair moves, and lo..hi their range. */
struct nb_cmp_mover {
	const char *symbol;
	double base_share_pct, new_share_pct;
	/* absent from that side's top list (single profiles): its share was below the list's smallest,
	 * which the *_share_pct above holds as the bound; the move is judged by that bound */
	bool base_unlisted, new_unlisted;
	int n_pairs;
	double change_pts, change_lo_pts, change_hi_pts;
};

struct nb_cmp_point_result {
	const char *id;
	const struct nb_cmp_point *base, *new; /* either is NULL for a new/missing point */
	enum nb_cmp_verdict verdict;           /* worst verdict of the gated metrics, or the status change */
	int n_metrics;
	struct nb_cmp_metric_result *metrics;
	int n_movers;
	struct nb_cmp_mover movers[NB_CMP_MAX_MOVERS];
};

struct nb_cmp_env_diff {
	const char *key;
	const char *base, *new; /* compact JSON text, NULL when absent */
};

struct nb_cmp_rounds;

struct nb_cmp_result {
	const struct nb_cmp_report *base, *new;
	const struct nb_cmp_options *opt;
	const struct nb_cmp_rounds *rounds; /* compare over rounds: the sets behind base and new; NULL */
	enum nb_cmp_overall verdict;
	int n_points;
	struct nb_cmp_point_result *points;
	int n_env_diffs;
	struct nb_cmp_env_diff env_diffs[NB_CMP_ENV_MAX + 1];
	const char *test_diff_id; /* a point whose "test" object differs, NULL when none */
	int n_test_diffs;
	int count[NB_CMP_CHANGED + 1]; /* points per verdict */
	struct nb_cmp_metric_result *metric_pool; /* owns every point's metrics array */
	/* Foreign load: the worst point's median cpu_other_pct per side (NAN when the report has
	 * none) and whether the two differ enough to explain a change (nb_cmp_run sets it). */
	double other_base_pct, other_new_pct;
	bool other_differs;
	/* The sequential verdict: the gated metrics it judged (every point's) and the alpha each was
	 * judged at (opt->alpha, or opt->alpha / seq_gated with opt->alpha_split). */
	int seq_gated;
	double seq_alpha;
};

/* Compare two reports. Both reports and opt must outlive the result. Returns 0, or
 * -EINVAL when a report repeats a point id, -ENOMEM. */
int nb_cmp_run(const struct nb_cmp_report *base, const struct nb_cmp_report *new, const struct nb_cmp_options *opt,
	       struct nb_cmp_result *out, struct nb_err *err);

void nb_cmp_result_free(struct nb_cmp_result *r);

enum nb_cmp_direction nb_cmp_metric_direction(const char *name);
const char *nb_cmp_verdict_name(enum nb_cmp_verdict v);
const char *nb_cmp_overall_name(enum nb_cmp_overall v);

/* Why a metric got its verdict, in words ("" when the verdict says it all). */
/* A gated metric whose verdict was withheld because a side was disturbed (foreign load, host
 * steal): bad data, not a pass. */
bool nb_cmp_withheld_disturbed(const struct nb_cmp_metric_result *m);
/* How many points have such a metric. */
int nb_cmp_disturbed_points(const struct nb_cmp_result *r);

/* compare's exit status from the verdicts, the contract compare, ab and bisect share (docs/compare.md,
 * "Exit codes"): 1 a regression or a missing gated metric or point; 4 a gated metric withheld because a
 * side was disturbed (unless opt->allow_disturbed): more pairs cannot help; 3 undecided: --sequential
 * with a gated metric not decided yet, or with fail_on_inconclusive any inconclusive one; else 0. */
enum nb_cmp_exit {
	NB_CMP_EXIT_OK = 0,
	NB_CMP_EXIT_FAIL = 1,
	NB_CMP_EXIT_UNDECIDED = 3,
	NB_CMP_EXIT_WITHHELD = 4,
};
enum nb_cmp_exit nb_cmp_exit_status(const struct nb_cmp_result *r, bool fail_on_inconclusive);

const char *nb_cmp_reason_text(char *buf, size_t len, const struct nb_cmp_metric_result *m,
			       const struct nb_cmp_options *opt);

/* "+34.0%", "-50.0%", ">10000%", "" when there is no change; buf of at least 16 bytes. */
const char *nb_cmp_format_change(char *buf, size_t len, const struct nb_cmp_metric_result *m);

#endif
