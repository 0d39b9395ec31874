// SPDX-License-Identifier: MIT
/* nicbench compare: its rules: the metric table in compare's types, the options' defaults and the
 * parsers of --gate, --min-effect and --floor, and what they make of one metric (pure, no I/O). */
#include "compare_rules.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The metric table's row, in compare's types: the values are the table's (compare.h). */
static struct nb_cmp_floor cmp_floor(struct nb_metric_floor f)
{
	return (struct nb_cmp_floor){ f.family, (enum nb_cmp_floor_kind)f.kind, f.value, f.unit };
}

static const struct nb_cmp_floor no_floor = { NULL, NB_CMP_FLOOR_NONE, 0, NULL };

struct nb_cmp_floor nb_cmp_metric_floor(const char *name)
{
	return cmp_floor(nb_metric_floor_of(name));
}

int nb_cmp_floor_rows(void)
{
	return nb_metric_rows();
}

const char *nb_cmp_floor_row(int i, char *pattern, size_t len, struct nb_cmp_floor *floor,
			     enum nb_cmp_direction *direction)
{
	const struct nb_metric_def *d = nb_metric_row(i);

	if (!d)
		return NULL;
	snprintf(pattern, len, "%s", d->name);
	*floor = cmp_floor(d->floor);
	*direction = (enum nb_cmp_direction)d->direction;
	return pattern;
}

enum nb_cmp_direction nb_cmp_metric_direction(const char *name)
{
	return (enum nb_cmp_direction)nb_metric_direction_of(name);
}

void nb_cmp_options_init(struct nb_cmp_options *opt)
{
	memset(opt, 0, sizeof(*opt));
	opt->min_effect_pct = 5;
	opt->alpha = 0.10;
	opt->min_runs = 3;
	opt->change_cap_pct = 10000;
	nb_cmp_gate_parse(opt, NB_M_THROUGHPUT_BPS "," NB_M_CPU_BUSY_PCT "@*-rx," NB_M_RR_LATENCY_P99_US "@*-rr," NB_M_RR_TRANSACTIONS_PER_S "@*-rr", NULL);
	/* a flood point's headline is its packet rate: gated like every other point's headline, but the
	 * gate line keeps its spelling, since for any other point the rules above gate it already */
	opt->gate[opt->n_gate] = (struct nb_cmp_gate_rule){ .metric = NB_CMP_GATE_HEADLINE, .min_effect_pct = -1,
							      .implicit = true };
	opt->n_gate++;
}

void nb_cmp_options_ab_init(struct nb_cmp_options *opt)
{
	nb_cmp_options_init(opt);
	/* the default gate's rules are known names: this cannot fail */
	nb_cmp_gate_parse(opt, NB_CMP_AB_GATE, NULL);
	opt->sequential = true;
	opt->alpha_split = true;
}

static int parse_pct(const char *text, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end == text || *end || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	*out = v;
	return 0;
}

/* " (did you mean \"X\"?)" when the table holds a name near the unknown one, else "". */
static const char *nearest_hint(char *buf, size_t len, const char *name)
{
	const char *near = nb_metric_nearest(name);

	if (!near)
		return "";
	snprintf(buf, len, " (did you mean \"%s\"?)", near);
	return buf;
}

/* A gate on a name the metric table lacks, or on a neutral metric, would gate nothing and pass:
 * a typo in CI's --gate must fail loudly instead. */
static int check_gatable(const char *metric, struct nb_err *err)
{
	const struct nb_metric_def *d = nb_metric_lookup(metric);
	char hint[NB_METRIC_NAME_MAX + 24];

	if (!d)
		return nb_err_set(err, -EINVAL,
				  "parse gate rule: nicbench writes no metric \"%s\"%s; docs/report.md lists the metrics "
				  "and `nicbench compare --list-floors` their directions",
				  metric, nearest_hint(hint, sizeof(hint), metric));
	if (!d->gate)
		return nb_err_set(err, -EINVAL,
				  "parse gate rule: metric \"%s\" is %s (%s), so it cannot gate: it has no worse side",
				  metric, nb_metric_direction_words(d->direction), d->doc);
	return 0;
}

static int parse_gate_rule(struct nb_cmp_gate_rule *rule, char *tok, struct nb_err *err)
{
	char *eq = strchr(tok, '=');
	char *at = strchr(tok, '@');
	int ret;

	rule->min_effect_pct = -1;
	if (eq) {
		*eq = '\0';
		if (parse_pct(eq + 1, &rule->min_effect_pct))
			return nb_err_set(err, -EINVAL, "parse gate rule \"%s=%s\": \"%s\" is not a percentage", tok,
					  eq + 1, eq + 1);
	}
	if (at && (!eq || at < eq)) {
		*at = '\0';
		snprintf(rule->tests, sizeof(rule->tests), "%s", at + 1);
	}
	if (!*tok || strlen(tok) >= sizeof(rule->metric))
		return nb_err_set(err, -EINVAL, "parse gate rule: metric name \"%s\" is empty or too long", tok);
	ret = strcmp(tok, NB_CMP_GATE_HEADLINE) ? check_gatable(tok, err) : 0;
	if (ret)
		return ret;
	snprintf(rule->metric, sizeof(rule->metric), "%s", tok);
	return 0;
}

int nb_cmp_gate_parse(struct nb_cmp_options *opt, const char *spec, struct nb_err *err)
{
	char buf[1024];
	char *save = NULL;
	int n = 0;

	if (strlen(spec) >= sizeof(buf))
		return nb_err_set(err, -EINVAL, "parse gate \"%.40s...\": longer than %zu characters", spec,
				  sizeof(buf) - 1);
	snprintf(buf, sizeof(buf), "%s", spec);
	if (!strcmp(buf, "none")) {
		opt->n_gate = 0;
		return 0;
	}
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n >= NB_CMP_MAX_GATE)
			return nb_err_set(err, -EINVAL, "parse gate: more than %d rules", NB_CMP_MAX_GATE);
		int ret;

		memset(&opt->gate[n], 0, sizeof(opt->gate[n]));
		ret = parse_gate_rule(&opt->gate[n], tok, err);

		if (ret)
			return ret;
		n++;
	}
	if (!n)
		return nb_err_set(err, -EINVAL, "parse gate \"%s\": no rule (use \"none\" to gate nothing)", spec);
	opt->n_gate = n;
	return 0;
}

int nb_cmp_effect_parse(struct nb_cmp_options *opt, const char *spec, struct nb_err *err)
{
	const char *eq = strchr(spec, '=');
	char name[NB_METRIC_NAME_MAX], hint[NB_METRIC_NAME_MAX + 24];
	double pct;

	if (!eq) {
		if (parse_pct(spec, &pct))
			return nb_err_set(err, -EINVAL, "parse minimum effect \"%s\": not a percentage", spec);
		opt->min_effect_pct = pct;
		return 0;
	}
	if (eq == spec || (size_t)(eq - spec) >= NB_METRIC_NAME_MAX || parse_pct(eq + 1, &pct))
		return nb_err_set(err, -EINVAL, "parse minimum effect \"%s\": expected METRIC=PERCENT", spec);
	snprintf(name, sizeof(name), "%.*s", (int)(eq - spec), spec);
	if (!nb_metric_lookup(name))
		return nb_err_set(err, -EINVAL,
				  "parse minimum effect \"%s\": nicbench writes no metric \"%s\"%s; docs/report.md lists them",
				  spec, name, nearest_hint(hint, sizeof(hint), name));
	for (int i = 0; i < opt->n_effects; i++) {
		if (!strncmp(opt->effects[i].metric, spec, (size_t)(eq - spec)) &&
		    opt->effects[i].metric[eq - spec] == '\0') {
			opt->effects[i].pct = pct;
			return 0;
		}
	}
	if (opt->n_effects >= NB_CMP_MAX_EFFECTS)
		return nb_err_set(err, -EINVAL, "parse minimum effect \"%s\": more than %d metrics", spec,
				  NB_CMP_MAX_EFFECTS);
	snprintf(opt->effects[opt->n_effects].metric, NB_METRIC_NAME_MAX, "%.*s", (int)(eq - spec), spec);
	opt->effects[opt->n_effects].pct = pct;
	opt->n_effects++;
	return 0;
}

static int floor_override_parse(struct nb_cmp_options *opt, const char *tok, struct nb_err *err)
{
	const char *eq = strchr(tok, '=');
	size_t nlen = eq ? (size_t)(eq - tok) : 0;
	char name[NB_METRIC_NAME_MAX], hint[NB_METRIC_NAME_MAX + 24];
	double v;
	int i;

	if (!eq || !nlen || nlen >= NB_METRIC_NAME_MAX || parse_pct(eq + 1, &v))
		return nb_err_set(err, -EINVAL,
				  "parse floor \"%s\": expected METRIC=VALUE or FAMILY=VALUE with VALUE >= 0, or none", tok);
	snprintf(name, sizeof(name), "%.*s", (int)nlen, tok);
	if (!nb_metric_floor_family_known(name) && !nb_metric_lookup(name))
		return nb_err_set(err, -EINVAL,
				  "parse floor \"%s\": \"%s\" is neither a metric nicbench writes nor a floor family%s; "
				  "`nicbench compare --list-floors` lists both",
				  tok, name, nearest_hint(hint, sizeof(hint), name));
	for (i = 0; i < opt->n_floors; i++) {
		if (!strncmp(opt->floors[i].name, tok, nlen) && !opt->floors[i].name[nlen])
			break;
	}
	if (i == opt->n_floors) {
		if (opt->n_floors >= NB_CMP_MAX_FLOORS)
			return nb_err_set(err, -EINVAL, "parse floor \"%s\": more than %d floors", tok, NB_CMP_MAX_FLOORS);
		opt->n_floors++;
	}
	snprintf(opt->floors[i].name, sizeof(opt->floors[i].name), "%.*s", (int)nlen, tok);
	opt->floors[i].value = v;
	return 0;
}

int nb_cmp_floor_parse(struct nb_cmp_options *opt, const char *spec, struct nb_err *err)
{
	char buf[1024];
	char *save = NULL;
	int ret = 0, n = 0;

	if (!strcmp(spec, "none")) {
		opt->no_floors = true;
		return 0;
	}
	if (strlen(spec) >= sizeof(buf))
		return nb_err_set(err, -EINVAL, "parse floor \"%.40s...\": longer than %zu characters", spec,
				  sizeof(buf) - 1);
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *tok = strtok_r(buf, ",", &save); tok && !ret; tok = strtok_r(NULL, ",", &save), n++)
		ret = floor_override_parse(opt, tok, err);
	if (!ret && !n)
		ret = nb_err_set(err, -EINVAL, "parse floor \"%s\": expected METRIC=VALUE or FAMILY=VALUE, or none", spec);
	return ret;
}

/* A metric's floor after --floor: the metric's own override, then its family's. */
struct nb_cmp_floor nb_cmp_effective_floor(const struct nb_cmp_options *opt, const char *name)
{
	struct nb_cmp_floor f = nb_cmp_metric_floor(name);
	const struct nb_cmp_floor_override *family = NULL;

	if (opt->no_floors)
		return no_floor;
	for (int i = 0; i < opt->n_floors; i++) {
		if (!strcmp(opt->floors[i].name, name)) {
			if (f.kind == NB_CMP_FLOOR_NONE)
				f.kind = NB_CMP_FLOOR_ABS;
			f.value = opt->floors[i].value;
			return f;
		}
		if (f.family && !strcmp(opt->floors[i].name, f.family))
			family = &opt->floors[i];
	}
	if (family)
		f.value = family->value;
	return f;
}

double nb_cmp_effective_min_effect(const struct nb_cmp_options *opt, const char *name)
{
	for (int i = 0; i < opt->n_effects; i++) {
		if (!strcmp(opt->effects[i].metric, name))
			return opt->effects[i].pct;
	}
	return opt->min_effect_pct;
}
