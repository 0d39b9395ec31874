// SPDX-License-Identifier: MIT
/* The effective configuration of a sweep: built from defaults, then a JSON config
 * file, then command-line flags (flags win). jansson stays inside config_json.c. */
#ifndef NB_CONFIG_H
#define NB_CONFIG_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "napi_knobs.h"
#include "nic/iface_irqs.h"
#include "kit/nb_error.h"
#include "kit/options.h"

#define NB_MAX_TESTS 16
#define NB_MAX_AXES 12
#define NB_MAX_AXIS_KNOBS 4     /* knobs swept together: "gro_flush_timeout:napi_defer_hard_irqs" */
#define NB_MAX_AXIS_VALUES 16
#define NB_MAX_REPETITIONS 100
#define NB_KNOB_NAME_MAX 32

/* "traffic_cpu" is a knob of the traffic process, not of the kernel: the runner
 * pins the iperf child instead of writing sysfs. */
#define NB_KNOB_TRAFFIC_CPU "traffic_cpu"

enum nb_proto { NB_PROTO_TCP, NB_PROTO_UDP };
enum nb_direction { NB_DIR_TX, NB_DIR_RX, NB_DIR_RR };  /* RR: request/response (tcp-rr, udp-rr) */

struct nb_test_spec {
	char name[16];           /* tcp-tx, tcp-rx, udp-tx, udp-rx, tcp-rr, udp-rr */
	enum nb_proto proto;
	enum nb_direction dir;   /* TX: this host sends; RX: the peer sends (iperf3 -R) */
	int duration_s;
	int omit_s;
	int streams;
	uint64_t rate_bps;       /* UDP target rate, 0 = unlimited (-b0) */
	int length;              /* UDP datagram length; 0 = iperf default for TCP; NB_UDP_LENGTH_MTU */
};

/* The request/response tests (tcp-rr, udp-rr) against nicbench serve's rr port. */
struct nb_rr_spec {
	int flows;               /* connections, each one transaction at a time in closed loop */
	int request, response;   /* bytes per request / response (16..65507) */
	uint64_t rate_tps;       /* open loop: transactions per second across flows; 0 = closed loop */
	int timeout_ms;          /* UDP: unanswered this long = lost */
	int port;                /* the peer's rr port */
};

/* One dimension of the knob matrix: one knob, or several knobs swept together. */
struct nb_knob_axis {
	int nknobs;
	char knobs[NB_MAX_AXIS_KNOBS][NB_KNOB_NAME_MAX];
	int nvalues;
	char values[NB_MAX_AXIS_VALUES][NB_MAX_AXIS_KNOBS][NB_KNOB_VALUE_MAX];
};

/* --length mtu: each point's datagram fills one frame at the interface's MTU then (MTU - 28, IPv6
 * MTU - 48), so a sweep of the mtu knob keeps one datagram per frame */
#define NB_UDP_LENGTH_MTU (-1)
#define NB_UDP_MAX_LENGTH 65507  /* the largest UDP payload over IPv4 */

/* A test field swept like a knob (--rate 150M,1000M, --length 60,1460): one point per value, for the
 * tests the field applies to (UDP ones), with "/rate=150M" in the point id. */
#define NB_MAX_FIELD_AXES 2
#define NB_FIELD_LABEL_MAX 24
struct nb_field_axis {
	const struct nb_opt *row;   /* the test field's row in nb_config_table */
	int nvalues;
	double values[NB_MAX_AXIS_VALUES];
	char labels[NB_MAX_AXIS_VALUES][NB_FIELD_LABEL_MAX]; /* as written: "150M" */
};

/* Where a report stands in an A/B set of rounds (--round SIDE:I/N[:SET]); absent: not in one. */
#define NB_ROUND_SET_MAX 64
#define NB_MAX_ROUNDS 1000
struct nb_round_spec {
	bool present;
	char side;               /* 'A' or 'B' */
	int index, of;           /* 1..of */
	char set[NB_ROUND_SET_MAX]; /* an id shared by the set; "": none given */
};

/* Which reports run the diagnostic repetition (tracepoints + profile), --diagnostics. */
enum nb_diag_mode {
	NB_DIAG_AUTO,            /* every report; with --round only round diag_round of each side */
	NB_DIAG_ALWAYS,          /* every report, every round */
	NB_DIAG_NEVER,           /* none */
};

struct nb_config {
	char iface[16];
	char peer_host[256];
	int peer_port;
	struct nb_test_spec test_defaults; /* what a test named without options gets */
	int ntests;
	struct nb_test_spec tests[NB_MAX_TESTS];
	int repetitions;         /* with reps_auto: the most runs a point may take */
	/* repetitions until the answer is known, and rounds (--repetitions auto, --interleave) */
	bool reps_auto;          /* repeat until the median is known to +-precision_pct (src/result/adaptive.h) */
	int reps_min;            /* auto: clean runs before a point may stop */
	double precision_pct;    /* auto: half width of the 90% interval of the median, % of it */
	bool interleave;         /* rounds: one repetition of every unfinished point per round */
	bool shuffle;            /* interleave: each round in an order drawn from shuffle_seed */
	uint64_t shuffle_seed;
	double settle_s;         /* pause after applying knobs and before each run */
	int interval_ms;         /* sampler period while traffic flows */
	int grace_s;             /* past duration + omit + grace a run is killed (timeout) */
	int connect_timeout_s;   /* how long a run may take to start (retries included) */
	int naxes;
	struct nb_knob_axis axes[NB_MAX_AXES];
	int nfield_axes;         /* test fields swept over values, in the order given */
	struct nb_field_axis field_axes[NB_MAX_FIELD_AXES];
	char journal[PATH_MAX];  /* empty: default per-interface path */
	char output[PATH_MAX];   /* report path; empty: default name */
	char description[256];
	bool raw;                /* keep iperf's raw JSON in the report */
	bool json_stdout;        /* print the report on stdout at the end */
	bool trace;              /* collect tracepoint metrics where available */
	bool profile;            /* sampling kernel profile per point */
	bool profile_stacks;     /* the profile also records kernel call chains (folded stacks) */
	enum nb_diag_mode diag_mode;
	int diag_round;          /* auto with --round: the round of each side that holds them (1..of) */
	struct nb_round_spec round;
	bool promiscuous;        /* hold the interface promiscuous (libpcap) during the sweep */
	int capture_packets;     /* per point, capture up to this many packets (0: none) */
	int capture_snaplen;     /* bytes kept per captured packet */
	struct nb_rr_spec rr;    /* tcp-rr and udp-rr */
	bool peer_local;         /* the peer's iperf3 server runs on this machine (veth test bed, loopback) */
	/* the iperf3 tests' traffic: "" or "auto" (libiperf when built in), "libiperf", "iperf3" (the program,
	 * traffic/iperf_prog.h); the program's path ("": iperf3 from PATH) */
	char traffic_backend[16];
	char iperf3_program[256];
	char peer_mtu[16];       /* the peer follows the mtu knob: "" or "auto", "require", "off" */
	int peer_ctl_port;       /* nicbench serve's control port (peer MTU requests) */
	double idle_check_s;     /* quiet-machine check before the first point; 0: none */
	bool redact;             /* leave hostname, kernel command line and iperf3's raw JSON out */
	char config_file[PATH_MAX];
	/* board.irq_names as nb_irq_names_parse's text ("rx:vrx200_rx tx:vrx200_tx"); "": the
	 * interface's IRQs are found by the drivers' usual names */
	char irq_names[NB_IRQ_PATTERNS_MAX * (NB_IRQ_PATTERN_LEN + 6)];
};

/* Defaults: tcp-tx tcp-rx udp-tx udp-rx, 10 s, omit 2 s, 1 stream, UDP -b0 with
 * 1448-byte datagrams, 3 repetitions, settle 2 s, 100 ms interval, peer port 5201. */
void nb_config_defaults(struct nb_config *cfg);

/* Parse a JSON config file into cfg (on top of what is there). Unknown keys and bad
 * values are -EINVAL with a message naming the file and the key. */
int nb_config_load_file(struct nb_config *cfg, const char *path, struct nb_err *err);

/* The settings of run and plan (config_table.c): flags, file keys, ranges, defaults, help. */
extern const struct nb_opt_table nb_config_table;

/* Command-line helpers: each returns 0 or -EINVAL with a message naming the flag. */
int nb_config_set_tests(struct nb_config *cfg, const char *list, struct nb_err *err);   /* "tcp-tx,udp-rx" */
int nb_config_add_knob_axis(struct nb_config *cfg, const char *spec, struct nb_err *err); /* "threaded=0,1" */
int nb_config_set_peer(struct nb_config *cfg, const char *hostport, struct nb_err *err); /* HOST[:PORT], [v6]:PORT */

/* --rate / --length and "udp": {"rate": ...}: one value sets the field of every test it applies to
 * (and ends a sweep of it); a comma-separated list (2..16 values) sweeps it: one point per value.
 * -EINVAL naming the value and what was expected (the caller names the flag or key). */
int nb_config_set_test_field(struct nb_config *cfg, const struct nb_opt *row, const char *list, struct nb_err *err);
/* The field's short name, "rate" of "udp.rate": the point id's "/rate=150M". */
const char *nb_field_axis_name(const struct nb_field_axis *axis);

/* --repetitions / "repetitions": "N", "auto" (3-10) or "auto:MIN-MAX". -EINVAL with the reason
 * (the caller names the flag or key). */
int nb_config_set_repetitions(struct nb_config *cfg, const char *text, struct nb_err *err);
#define NB_AUTO_REPS_MIN 3
#define NB_AUTO_REPS_MAX 10
#define NB_DEFAULT_PRECISION_PCT 2.0

/* The checks across settings once everything is merged: interface and peer given, every value
 * inside its row's range (for values set by code), no test twice. */
int nb_config_validate(const struct nb_config *cfg, struct nb_err *err);

/* --round / "round": "SIDE:I/N[:SET]", SIDE A or B, 1 <= I <= N. -EINVAL naming the flag. */
int nb_config_set_round(struct nb_config *cfg, const char *text, struct nb_err *err);
/* --diagnostics / "diagnostics": auto, always, never, or a round number (auto in that round). */
int nb_config_set_diagnostics(struct nb_config *cfg, const char *text, struct nb_err *err);
const char *nb_diag_mode_name(enum nb_diag_mode m);
/* Does this report run the diagnostic repetition? (tracing on, and this round holds it) */
bool nb_config_diagnostics_here(const struct nb_config *cfg);

/* Fill a test's protocol and direction from its name; -EINVAL for unknown names. */
int nb_test_from_name(struct nb_test_spec *t, const char *name);

/* The effective configuration as JSON text (malloc'd) for the report's "config". */
char *nb_config_to_json(const struct nb_config *cfg);

/* ---- what the config file's loader (config_json.c) shares with the flags ---- */

/* A test takes the duration, omit, streams and, for UDP, rate and length of cfg->test_defaults. */
void nb_test_take_defaults(const struct nb_config *cfg, struct nb_test_spec *t);
/* An empty axis of the knobs "a" or "a:b" (swept together); -EINVAL for an unknown knob. */
int nb_knob_axis_init(struct nb_knob_axis *axis, const char *names, struct nb_err *err);
/* Add one value, checked against its knob (for a joined axis: "20000:1", one part per knob). */
int nb_knob_axis_add_value(struct nb_knob_axis *axis, const char *value, struct nb_err *err);
/* Add an axis to cfg. A knob named again replaces the earlier axis in its place (a flag
 * overrides the file, ids keep the file's order); other axes that shared a knob with it go. */
int nb_config_put_axis(struct nb_config *cfg, const struct nb_knob_axis *axis, struct nb_err *err);

#endif
