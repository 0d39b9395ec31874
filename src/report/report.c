// SPDX-License-Identifier: MIT
/* The report object: its head (host, interface, config), each finished repetition appended to
 * the run record as it ends, and the report assembled from that record and written atomically.
 * The JSON of runs and points is report_json.c's, the table report_table.c's. */
#include "report.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kit/headline.h"
#include "kit/nb_paths.h"
#include "knobs/journal.h"
#include "report/report_counters.h"
#include "report/report_internal.h"
#include "report/report_napi.h"

static void rfc3339_now(char *buf, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Empty strings from the kernel become null: "not reported" is not "". */
static json_t *str_or_null(const char *s)
{
	return s && s[0] ? json_string(s) : json_null();
}

/* The metric the point's row shows and compare gates by default (kit/headline.h). */
static const char *point_headline(const struct nb_report *r, const struct nb_test_spec *t)
{
	struct nb_headline_test h = {
		.udp = t->proto == NB_PROTO_UDP, .rx = t->dir == NB_DIR_RX, .rr = t->dir == NB_DIR_RR,
		.rate_bps = t->rate_bps, .length = t->length, .promiscuous = r->promiscuous,
	};

	return nb_headline_metric(&h);
}

int nb_report_new(const struct nb_config *cfg, const struct nb_host_info *host, const struct nb_iface_info *iface,
		  struct nb_report **out, struct nb_err *err)
{
	struct nb_report *r = calloc(1, sizeof(*r));
	char created[32];
	char *cfg_text;
	json_t *cfg_json, *kernel;

	if (!r)
		return nb_err_set(err, -ENOMEM, "create report: out of memory");
	cfg_text = nb_config_to_json(cfg);
	cfg_json = cfg_text ? json_loads(cfg_text, 0, NULL) : NULL;
	free(cfg_text);
	rfc3339_now(created, sizeof(created));
	/* --redact: a report to publish need not tell the boot arguments or the machine's name */
	kernel = json_pack("{s:s, s:s, s:s}", "release", host->release, "version", host->version,
			   "cmdline", cfg->redact ? NB_REDACTED : host->cmdline);
	json_object_set_new(kernel, "config_hash", str_or_null(host->config_hash));
	r->root = json_object();
	r->promiscuous = cfg->promiscuous;
	json_object_set_new(r->root, "schema", json_string(NB_REPORT_SCHEMA));
	json_object_set_new(r->root, "tool", json_pack("{s:s, s:s}", "name", "nicbench", "version", NICBENCH_VERSION));
	json_object_set_new(r->root, "created", json_string(created));
	json_object_set_new(r->root, "host", json_pack("{s:s, s:o, s:i, s:o}", "hostname",
						       cfg->redact ? NB_REDACTED : host->hostname,
						       "kernel", kernel, "cpus", host->cpus,
						       "cpu_model", str_or_null(host->cpu_model)));
	if (cfg->redact)
		json_object_set_new(json_object_get(r->root, "host"), "redacted",
				    json_pack("[s, s]", "hostname", "kernel.cmdline"));
	json_object_set_new(r->root, "interface",
			    json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}", "name", iface->name,
				      "driver", str_or_null(iface->driver),
				      "driver_version", str_or_null(iface->driver_version),
				      "firmware", str_or_null(iface->firmware),
				      "bus_info", str_or_null(iface->bus_info),
				      "mtu", iface->mtu >= 0 ? json_integer(iface->mtu) : json_null(),
				      "speed_mbps", iface->speed_mbps > 0 ? json_integer(iface->speed_mbps) : json_null()));
	json_object_set_new(r->root, "peer", json_pack("{s:s, s:i}", "host", cfg->peer_host, "port", cfg->peer_port));
	json_object_set_new(r->root, "config", cfg_json ? cfg_json : json_object());
	if (cfg->round.present) {
		char side[2] = { cfg->round.side, '\0' };
		json_t *round = json_pack("{s:s, s:i, s:i}", "side", side, "index", cfg->round.index, "of",
					  cfg->round.of);

		if (cfg->round.set[0])
			json_object_set_new(round, "set", json_string(cfg->round.set));
		json_object_set_new(r->root, "round", round);
	}
	/* which round of the set holds the diagnostic repetition: only told when it may not be this one */
	if (cfg->trace && (cfg->round.present || cfg->diag_mode == NB_DIAG_NEVER)) {
		bool here = nb_config_diagnostics_here(cfg);
		json_t *where = cfg->diag_mode == NB_DIAG_AUTO && cfg->round.present ? json_integer(cfg->diag_round)
										      : json_null();

		json_object_set_new(r->root, "diagnostics", json_pack("{s:s, s:o, s:b}", "mode",
								       nb_diag_mode_name(cfg->diag_mode), "round", where,
								       "in_this_report", here));
	}
	*out = r;
	return 0;
}

/* ---- the run record: what each line holds ----
 * {"type":"header","format":"nicbench-record/1","report_path":P,"report":{schema, tool, host, ...}}
 * {"type":"point","index":I,"point":{id, test, knobs, capture?, trace_unavailable?, trace_notes?}}
 * {"type":"run","index":I,"rep":R,"run":{status, error?, metrics, samples?, iperf?}}
 * {"type":"diag","index":I,"run":{status, error?, metrics}}  (the diagnostic repetition)
 * {"type":"end","index":I,"status":S,"error":E?,"profile":[...]?,"capture_packets":N?,"kernel_log":{...}?}
 * A point with a "point" line and no "end" line was cut short: it is assembled as incomplete. */

static int record_put(struct nb_report *r, json_t *line, struct nb_err *err)
{
	char *text = json_dumps(line, JSON_COMPACT | JSON_REAL_PRECISION(17));
	int rc;

	json_decref(line);
	if (!text)
		return nb_err_set(err, -ENOMEM, "write run record: cannot serialise (out of memory)");
	rc = nb_record_append(r->rec, text, strlen(text), err);
	free(text);
	return rc;
}

int nb_report_open_record(struct nb_report *r, const char *record_path, const char *report_path, struct nb_err *err)
{
	char abs[PATH_MAX];
	json_t *header;
	int rc;

	if (r->rec)
		return nb_err_set(err, -EBUSY, "open run record: the report already has one");
	rc = nb_record_create(record_path, &r->rec, err);
	if (rc < 0)
		return rc;
	header = json_pack("{s:s, s:s, s:O}", "type", "header", "format", NB_RECORD_FORMAT, "report", r->root);
	if (report_path) {
		/* absolute: `nicbench knobs restore` may run from another directory */
		if (report_path[0] != '/' && getcwd(abs, sizeof(abs)) &&
		    strlen(abs) + 1 + strlen(report_path) < sizeof(abs)) {
			strcat(abs, "/");
			strcat(abs, report_path);
		} else {
			snprintf(abs, sizeof(abs), "%s", report_path);
		}
		json_object_set_new(header, "report_path", json_string(abs));
	}
	return record_put(r, header, err);
}

static int record_ready(struct nb_report *r, struct nb_err *err)
{
	return r->rec ? 0 : nb_report_open_record(r, NULL, NULL, err);
}

const char *nb_report_record_path(const struct nb_report *r)
{
	return r->rec ? nb_record_writer_path(r->rec) : "";
}

long long nb_report_record_bytes(const struct nb_report *r)
{
	return r->rec ? nb_record_writer_bytes(r->rec) : 0;
}

void nb_report_drop_record_file(struct nb_report *r)
{
	if (r->rec)
		nb_record_writer_unlink(r->rec);
}

/* The point's mark, grown on first use; NULL when out of memory. */
static struct point_mark *mark_of(struct nb_report *r, int index)
{
	if (index >= r->nmarks) {
		int n = index + 16;
		struct point_mark *grown = realloc(r->marks, (size_t)n * sizeof(*grown));

		if (!grown)
			return NULL;
		memset(grown + r->nmarks, 0, (size_t)(n - r->nmarks) * sizeof(*grown));
		r->marks = grown;
		r->nmarks = n;
	}
	return &r->marks[index];
}

static bool point_begun(struct nb_report *r, int index)
{
	return index < r->nmarks && r->marks[index].begun;
}

/* Which ends of the link the mtu knob set, and how: {"dut": 9000, "peer": 9000, "peer_how": "nicbench serve"}. */
static json_t *point_mtu_json(const struct nb_point_mtu *m)
{
	json_t *o = json_pack("{s:i, s:o, s:s}", "dut", m->dut, "peer", m->peer >= 0 ? json_integer(m->peer) : json_null(),
			      "peer_how", m->peer_how);

	if (m->dut_how[0])
		json_object_set_new(o, "dut_note", json_string(m->dut_how));
	if (m->peer_iface[0])
		json_object_set_new(o, "peer_iface", json_string(m->peer_iface));
	if (m->peer_note[0])
		json_object_set_new(o, "peer_note", json_string(m->peer_note));
	return o;
}

int nb_report_begin_point(struct nb_report *r, const struct nb_point_result *pr, struct nb_err *err)
{
	const struct nb_point *p = pr->point;
	json_t *o = json_object();
	json_t *knobs = json_object();
	struct point_mark *mark = mark_of(r, p->index);
	int rc = mark ? record_ready(r, err) : nb_err_set(err, -ENOMEM, "begin point %s: out of memory", p->id);

	if (rc < 0) {
		json_decref(o);
		json_decref(knobs);
		return rc;
	}
	for (int k = 0; k < pr->nknobs; k++) {
		const char *name = pr->readback[k].name, *value = pr->readback[k].value;
		unsigned long long num;

		/* numbers as numbers, so that jq 'select(.knobs.threaded == 1)' finds them */
		json_object_set_new(knobs, name, nb_knob_value_number(name, value, &num) ? json_integer((json_int_t)num) :
										       json_string(value));
	}
	json_object_set_new(o, "id", json_string(p->id));
	json_object_set_new(o, "test", nb_report_test_json(p->test));
	json_object_set_new(o, "headline", json_string(point_headline(r, p->test)));
	json_object_set_new(o, "knobs", knobs);
	nb_report_napi_json(o, pr);
	if (pr->mtu.present)
		json_object_set_new(o, "mtu", point_mtu_json(&pr->mtu));
	if (pr->udp_length > 0)
		json_object_set_new(o, "udp_length", json_integer(pr->udp_length));
	if (pr->capture_file[0])
		json_object_set_new(o, "capture", json_pack("{s:s, s:i}", "file", pr->capture_file, "packets", 0));
	if (pr->trace_note[0])
		json_object_set_new(o, "trace_unavailable", json_string(pr->trace_note));
	if (pr->trace_detail[0])
		json_object_set_new(o, "trace_notes", json_string(pr->trace_detail));
	mark->begun = true;
	mark->runs_recorded = 0;
	return record_put(r, json_pack("{s:s, s:i, s:o}", "type", "point", "index", p->index, "point", o), err);
}

int nb_report_add_run(struct nb_report *r, const struct nb_point_result *pr, int rep, struct nb_err *err)
{
	int rc = 0;

	if (!point_begun(r, pr->point->index))
		rc = nb_report_begin_point(r, pr, err);
	if (rc < 0)
		return rc;
	rc = record_put(r, json_pack("{s:s, s:i, s:i, s:o}", "type", "run", "index", pr->point->index, "rep", rep,
				     "run", nb_report_run_json(&pr->runs[rep], false)), err);
	if (rc == 0)
		r->marks[pr->point->index].runs_recorded = rep + 1;
	return rc;
}

int nb_report_add_diagnostics(struct nb_report *r, const struct nb_point_result *pr, const struct nb_run_record *run,
			      struct nb_err *err)
{
	int rc = 0;

	if (!point_begun(r, pr->point->index))
		rc = nb_report_begin_point(r, pr, err);
	if (rc < 0)
		return rc;
	/* its figures explain the measured ones; its raw output and series are not kept */
	return record_put(r, json_pack("{s:s, s:i, s:o}", "type", "diag", "index", pr->point->index, "run",
				       nb_report_run_json(run, true)), err);
}

/* Points ended, by status, for the line after the table (the table itself is read back from the
 * written report: render/run_table.c). */
static void count_point(struct nb_report *r, const struct nb_point_result *pr)
{
	switch (pr->status) {
	case NB_POINT_OK: r->points_ok++; break;
	case NB_POINT_UNSUPPORTED: r->points_unsupported++; break;
	default: r->points_failed++; break;
	}
}

static json_t *profile_json(const struct nb_profile *prof)
{
	json_t *a = json_array();

	for (int i = 0; i < prof->n; i++)
		json_array_append_new(a, json_pack("{s:s, s:f}", "symbol", prof->top[i].symbol, "share_pct",
						   prof->top[i].share_pct));
	return a;
}

/* The folded file by its name alone: it sits beside the report, which may move with it. */
static json_t *stacks_json(const struct nb_point_result *pr)
{
	const char *base = strrchr(pr->stacks_file, '/');

	return json_pack("{s:s, s:I, s:I, s:I, s:I}", "file", base ? base + 1 : pr->stacks_file, "samples",
			 (json_int_t)pr->stacks.samples, "stacks", (json_int_t)pr->stacks.distinct, "truncated_samples",
			 (json_int_t)pr->stacks.truncated_samples, "other_samples", (json_int_t)pr->stacks.other_samples);
}

int nb_report_add_round(struct nb_report *r, const struct nb_round_info *ri, struct nb_err *err)
{
	json_t *order = json_array();
	int rc = record_ready(r, err);

	if (rc < 0) {
		json_decref(order);
		return rc;
	}
	for (int i = 0; i < ri->npoints; i++)
		json_array_append_new(order, json_integer(ri->order[i]));
	return record_put(r, json_pack("{s:s, s:i, s:o, s:f, s:f}", "type", "round", "round", ri->round, "order", order,
				       "knob_change_s", ri->knob_change_s, "seconds", ri->seconds), err);
}

int nb_report_add_point(struct nb_report *r, const struct nb_point_result *pr, struct nb_err *err)
{
	const struct nb_point *p = pr->point;
	json_t *end;
	int rc = 0;

	if (!point_begun(r, p->index))
		rc = nb_report_begin_point(r, pr, err);
	/* runs the caller did not record one by one */
	for (int i = rc == 0 ? r->marks[p->index].runs_recorded : 0; rc == 0 && i < pr->nruns; i++)
		rc = nb_report_add_run(r, pr, i, err);
	if (rc < 0)
		return rc;
	end = json_pack("{s:s, s:i, s:s}", "type", "end", "index", p->index, "status",
			nb_point_status_name(pr->status));
	if (pr->status != NB_POINT_OK)
		json_object_set_new(end, "error", json_string(pr->error));
	if (pr->capture_file[0])
		json_object_set_new(end, "capture_packets", json_integer(pr->capture_packets));
	if (pr->profile.n > 0)
		json_object_set_new(end, "profile", profile_json(&pr->profile));
	if (pr->stacks_file[0])
		json_object_set_new(end, "profile_stacks", stacks_json(pr));
	if (pr->nnotes > 0) {
		json_t *notes = json_array();

		for (int i = 0; i < pr->nnotes; i++)
			json_array_append_new(notes, json_string(pr->notes[i]));
		json_object_set_new(end, "notes", notes);
	}
	if (pr->kernel_log)
		json_object_set_new(end, "kernel_log", nb_report_kernel_log_json(pr->kernel_log));
	rc = record_put(r, end, err);
	r->marks[p->index].begun = false;
	if (rc < 0)
		return rc;
	count_point(r, pr);
	return 0;
}

char *nb_report_dumps(struct nb_report *r)
{
	struct nb_record_reader *rd;
	struct nb_err err = { 0 };
	char *text = NULL;
	size_t size = 0;
	FILE *mem;
	int rc;

	if (record_ready(r, &err) < 0 || nb_record_reader_open(NULL, nb_record_writer_fd(r->rec), &rd, &err) < 0)
		return NULL;
	mem = open_memstream(&text, &size);
	if (!mem) {
		nb_record_reader_close(rd);
		return NULL;
	}
	rc = nb_report_assemble_json(rd, mem, NULL, NULL, &err);
	nb_record_reader_close(rd);
	if (fclose(mem) != 0 || rc < 0) {
		free(text);
		return NULL;
	}
	return text;
}

static int temp_path(const char *path, char *tmp, size_t len)
{
	return (size_t)snprintf(tmp, len, "%s.tmp.%d", path, (int)getpid()) < len ? 0 : -ENAMETOOLONG;
}

int nb_report_check_writable(const char *path, struct nb_err *err)
{
	char tmp[PATH_MAX + 16];
	int fd;

	if (temp_path(path, tmp, sizeof(tmp)) < 0)
		return nb_err_set(err, -ENAMETOOLONG, "write report %s: path too long", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return nb_err_set(err, -errno, "write report %s: create %s: %s", path, tmp, strerror(errno));
	close(fd);
	unlink(tmp);
	return 0;
}

/* "w.json.tmp.123" for w.json: the writer's pid, or 0 when name is not such a file */
static int temp_owner(const char *name, const char *base)
{
	size_t blen = strlen(base);
	const char *digits = name + blen + 5;
	char *end;
	long pid;

	if (strncmp(name, base, blen) || strncmp(name + blen, ".tmp.", 5) || *digits < '1' || *digits > '9')
		return 0;
	errno = 0;
	pid = strtol(digits, &end, 10);
	return *end || errno || pid > INT_MAX ? 0 : (int)pid;
}

/* kill(pid, 0) fails with ESRCH only when no such process exists; EPERM means it runs */
static bool pid_running(int pid)
{
	return kill((pid_t)pid, 0) == 0 || errno != ESRCH;
}

int nb_report_remove_stale_temps(const char *path, void (*removed)(const char *tmp, int pid, void *ctx), void *ctx)
{
	char dir[PATH_MAX], tmp[PATH_MAX + 300];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	struct dirent *de;
	DIR *d;
	int n = 0;

	if (nb_path_dir(dir, sizeof(dir), path) < 0)
		return -ENAMETOOLONG;
	if (!*base)
		return 0;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		int pid = temp_owner(de->d_name, base);

		if (pid <= 0 || pid == (int)getpid() || pid_running(pid))
			continue;
		/* named as the writer named it: beside path */
		snprintf(tmp, sizeof(tmp), "%.*s%s", (int)(base - path), path, de->d_name);
		if (unlink(tmp) == 0) {
			n++;
			if (removed)
				removed(tmp, pid, ctx);
		}
	}
	closedir(d);
	return n;
}

/* Assemble into a temporary file, fsync, rename: a crash leaves the old or the new report. */
static int assemble_to(struct nb_record_reader *rd, const char *path, json_t *restore, struct nb_assembly_info *info,
		       struct nb_err *err)
{
	char tmp[PATH_MAX + 16];
	FILE *out;
	int fd, rc;

	if (temp_path(path, tmp, sizeof(tmp)) < 0)
		return nb_err_set(err, -ENAMETOOLONG, "write report %s: path too long", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return nb_err_set(err, -errno, "write report %s: create %s: %s", path, tmp, strerror(errno));
	out = fdopen(fd, "w");
	if (!out) {
		close(fd);
		unlink(tmp);
		return nb_err_set(err, -ENOMEM, "write report %s: out of memory", path);
	}
	rc = nb_report_assemble_json(rd, out, restore, info, err);
	if (rc < 0) {
		fclose(out);
		unlink(tmp);
		nb_err_prefix(err, "write report %s: ", path);
		return rc;
	}
	if (fflush(out) != 0 || fsync(fd) < 0) {
		int e = errno;

		fclose(out);
		unlink(tmp);
		return nb_err_set(err, -e, "write report %s: flush %s: %s", path, tmp, strerror(e));
	}
	if (fclose(out) != 0) {
		int e = errno;

		unlink(tmp);
		return nb_err_set(err, -e, "write report %s: close %s: %s", path, tmp, strerror(e));
	}
	if (rename(tmp, path) < 0) {
		int e = errno;

		unlink(tmp);
		return nb_err_set(err, -e, "write report %s: rename from %s: %s", path, tmp, strerror(e));
	}
	/* the caller removes the run record next: the rename must be on disk before that */
	rc = nb_fsync_parent(path);
	if (rc < 0)
		return nb_err_set(err, rc, "write report %s: sync its directory: %s", path, strerror(-rc));
	return 0;
}

int nb_report_write(struct nb_report *r, const char *path, struct nb_err *err)
{
	struct nb_record_reader *rd;
	int rc = record_ready(r, err);

	if (rc == 0)
		rc = nb_record_reader_open(NULL, nb_record_writer_fd(r->rec), &rd, err);
	if (rc < 0)
		return rc;
	rc = assemble_to(rd, path, NULL, NULL, err);
	nb_record_reader_close(rd);
	return rc;
}

static int assemble_record(const char *record_path, const char *report_path, json_t *restore,
			   struct nb_assembly_info *info, struct nb_err *err)
{
	struct nb_assembly_info probe = { 0 };
	struct nb_record_reader *rd;
	FILE *null;
	int rc;

	memset(info, 0, sizeof(*info));
	if (!report_path) {
		/* the header names the report: read it first (one pass to /dev/null is cheap next
		 * to the run that made the record) */
		rc = nb_record_reader_open(record_path, -1, &rd, err);
		if (rc < 0)
			return rc;
		null = fopen("/dev/null", "we");
		rc = null ? nb_report_assemble_json(rd, null, NULL, &probe, err) : nb_err_set(err, -errno, "open /dev/null: %s",
									 strerror(errno));
		if (null)
			fclose(null);
		nb_record_reader_close(rd);
		if (rc < 0) {
			nb_err_prefix(err, "assemble %s: ", record_path);
			return rc;
		}
		if (!probe.report_path[0])
			return nb_err_set(err, -EINVAL, "assemble %s: the record names no report path", record_path);
		report_path = probe.report_path;
	}
	rc = nb_record_reader_open(record_path, -1, &rd, err);
	if (rc < 0)
		return rc;
	snprintf(info->report_path, sizeof(info->report_path), "%s", report_path);
	rc = assemble_to(rd, report_path, restore, info, err);
	nb_record_reader_close(rd);
	if (rc == 0)
		snprintf(info->report_path, sizeof(info->report_path), "%s", report_path);
	return rc;
}

int nb_report_assemble(const char *record_path, const char *report_path, struct nb_assembly_info *info,
		       struct nb_err *err)
{
	return assemble_record(record_path, report_path, NULL, info, err);
}

/* ---- restore: what the run found before its first change and what it left ---- */

static const char *restore_path_name(enum nb_knob_via via)
{
	return via == NB_VIA_IOCTL ? "ioctl" : via == NB_VIA_ANY ? "unknown" : nb_knob_via_name(via);
}

/* The value of NAPI id in a per-NAPI list ("282=7777 283=0"); NULL when absent. */
static json_t *napi_value(const char *list, const char *id)
{
	size_t idlen = strlen(id);

	for (const char *p = list; p && *p; p = strchr(p, ' '), p = p ? p + 1 : NULL)
		if (!strncmp(p, id, idlen) && p[idlen] == '=')
			return json_stringn(p + idlen + 1, strcspn(p + idlen + 1, " "));
	return json_null();
}

static json_t *restore_json(const struct nb_journal *j, int rc, const char *error)
{
	json_t *knobs = json_array(), *o;

	for (int i = 0; j && i < nb_journal_count(j); i++) {
		const char *knob, *value, *after = NULL, *why = NULL;
		enum nb_knob_via via = nb_journal_entry_path(j, i);
		bool tried;

		nb_journal_entry(j, i, &knob, &value);
		tried = nb_journal_entry_outcome(j, i, &after, &why);
		if (via == NB_VIA_NAPI && strchr(value, '=')) {
			/* one entry per NAPI: its id is the scope */
			for (const char *p = value; p && *p; p = strchr(p, ' '), p = p ? p + 1 : NULL) {
				char id[32];
				size_t n = strcspn(p, "=");

				if (n >= sizeof(id) || !p[n])
					break;
				snprintf(id, sizeof(id), "%.*s", (int)n, p);
				o = json_pack("{s:s, s:s+, s:s, s:o, s:o}", "knob", knob, "scope", "napi ", id, "path",
					      restore_path_name(via), "original", napi_value(value, id), "after",
					      after ? napi_value(after, id) : json_null());
				if (why)
					json_object_set_new(o, "error", json_string(why));
				json_array_append_new(knobs, o);
			}
			continue;
		}
		o = json_pack("{s:s, s:s, s:s, s:s, s:o}", "knob", knob, "scope", "device", "path", restore_path_name(via),
			      "original", value, "after", after ? json_string(after) : json_null());
		if (why)
			json_object_set_new(o, "error", json_string(why));
		else if (!tried)
			json_object_set_new(o, "error", json_string("not restored"));
		json_array_append_new(knobs, o);
	}
	o = json_pack("{s:s, s:o}", "status", rc == 0 ? "ok" : "failed", "knobs", knobs);
	if (rc != 0 && error && error[0])
		json_object_set_new(o, "error", json_string(error));
	return o;
}

int nb_report_put_restore(struct nb_report *r, const struct nb_journal *j, int rc, const char *error,
			  struct nb_err *err)
{
	return record_put(r, json_pack("{s:s, s:o}", "type", "restore", "restore", restore_json(j, rc, error)), err);
}

int nb_report_assemble_restored(const char *record_path, const struct nb_journal *j, int rc, const char *error,
				struct nb_assembly_info *info, struct nb_err *err)
{
	json_t *restore = restore_json(j, rc, error);
	int ret = assemble_record(record_path, NULL, restore, info, err);

	json_decref(restore);
	return ret;
}

void nb_report_set_peer_local(struct nb_report *r, const struct nb_peer_local *peer, bool forced)
{
	json_t *pids = json_array(), *local;

	for (int i = 0; i < peer->npids; i++)
		json_array_append_new(pids, json_integer(peer->pids[i]));
	local = json_pack("{s:b, s:o, s:s, s:s}", "found", peer->found, "pids", pids, "how", peer->how, "counted",
			  peer->found ? "by socket: the server and its descendants"
				      : forced ? "by name (--peer-local): iperf3 processes" : "no");
	if (local && peer->found)
		json_object_set_new(local, "netns", json_integer((json_int_t)peer->netns));
	json_object_set_new(json_object_get(r->root, "peer"), "local", local);
}

void nb_report_set_traffic_backend(struct nb_report *r, const char *backend, const char *version,
				   const char *program)
{
	json_t *tool = json_object_get(r->root, "tool");

	json_object_set_new(tool, "traffic_backend", json_string(backend));
	json_object_set_new(tool, "iperf3_version", json_string(version));
	if (program)
		json_object_set_new(tool, "iperf3_program", json_string(program));
}

void nb_report_set_idle_check(struct nb_report *r, const struct nb_idle_check *ic)
{
	json_t *busiest = json_array();

	for (int i = 0; i < ic->nbusiest; i++)
		json_array_append_new(busiest, json_pack("{s:i, s:s, s:f}", "pid", ic->busiest[i].pid,
							 "comm", ic->busiest[i].comm, "core_pct", ic->busiest[i].core_pct));
	json_object_set_new(r->root, "idle_check",
			    json_pack("{s:f, s:o, s:o}", "seconds", ic->seconds, "busy_pct",
				      ic->busy_present ? json_real(ic->busy_pct) : json_null(), "busiest", busiest));
}

void nb_report_count(const struct nb_report *r, int *ok, int *failed, int *unsupported)
{
	*ok = r->points_ok;
	*failed = r->points_failed;
	*unsupported = r->points_unsupported;
}

void nb_report_free(struct nb_report *r)
{
	if (!r)
		return;
	json_decref(r->root);
	nb_record_writer_close(r->rec, false);
	free(r->marks);
	free(r);
}
