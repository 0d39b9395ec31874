// SPDX-License-Identifier: MIT
/* The restore journal: original knob values written (and fsync'd) before the first
 * change, so that a normal end, an error, a signal or a later `nicbench knobs restore`
 * after SIGKILL can put every knob back. */
#ifndef NB_JOURNAL_H
#define NB_JOURNAL_H

#include "nic/knob_types.h"
#include "kit/nb_error.h"

struct nb_journal;

/* Default path for an interface: /run/nicbench/<iface>.journal (tmpfs: a reboot
 * resets the knobs and the journal together). Returns 0 or -ENAMETOOLONG. */
int nb_journal_default_path(const char *iface, char *buf, size_t len);

/* Create a journal. Fails with -EEXIST (message says to run `nicbench knobs restore`)
 * when a journal from an earlier run is still there. Creates the parent directory. */
int nb_journal_create(const char *path, const struct nb_knob_target *t,
		      struct nb_journal **out, struct nb_err *err);

/* Record the original value of a knob before its first change (later calls for
 * the same knob are no-ops). Appends and fsyncs. */
int nb_journal_remember(struct nb_journal *j, const char *knob, const char *original,
			struct nb_err *err);

/* Name the run record of this run (an absolute path) so that `nicbench knobs restore` after a
 * SIGKILL can also assemble the report from it. Appends and fsyncs a "@record" line. */
int nb_journal_note_record(struct nb_journal *j, const char *record_path, struct nb_err *err);
/* The run record a journal names, NULL when none. */
const char *nb_journal_record(const struct nb_journal *j);
/* Read the knob's current value and remember it with the path it came through (every NAPI
 * listed for a per-NAPI knob). Restore then goes back through that same path, and fails
 * rather than fall back to sysfs when napi-set has gone. Line: "<knob>\t<value>\tvia=<path>".
 * Returns the read's error when the device does not offer the knob. */
int nb_journal_remember_current(struct nb_journal *j, const char *knob, struct nb_err *err);

/* Write every remembered original back (read back to check). Tries every knob even
 * when one fails; returns the first error. */
int nb_journal_restore(struct nb_journal *j, struct nb_err *err);

/* Restore and keep the file: for a caller that has more to make durable (the report from the
 * run record the journal names) before the journal may go, so that a SIGKILL in between
 * leaves a journal that `nicbench knobs restore` can finish from. On failure the message says
 * the journal is kept. Safe with NULL. */
int nb_journal_restore_keep(struct nb_journal *j, struct nb_err *err);
/* Delete the file (its directory synced) and free. Safe with NULL. */
int nb_journal_remove(struct nb_journal *j, struct nb_err *err);

/* Restore, then delete the file and free. Safe with NULL. When a knob cannot be restored
 * the file is kept (the message says so) so that `nicbench knobs restore` can retry. */
int nb_journal_finish(struct nb_journal *j, struct nb_err *err);

/* Apply a journal file left by a killed run, then remove it. `paths` lets tests use fixtures. */
int nb_journal_restore_file(const char *path, const struct nb_paths *paths, struct nb_err *err);

/* Load an existing journal for inspection or restore (`nicbench knobs restore`). -ENOENT
 * "no journal at PATH" when there is none, -EINVAL on a file that is not a journal. A torn
 * last line is skipped: its knob was never changed. `paths` is copied, its strings are not:
 * they must outlive the journal (the same holds for nb_journal_create). */
int nb_journal_load(const char *path, const struct nb_paths *paths, struct nb_journal **out,
		    struct nb_err *err);

/* Free without restoring or deleting (the file stays for a later restore). Safe with NULL. */
void nb_journal_free(struct nb_journal *j);

/* The interface a journal belongs to, and its entries in file order. */
const char *nb_journal_iface(const struct nb_journal *j);
int nb_journal_count(const struct nb_journal *j);
int nb_journal_entry(const struct nb_journal *j, int index, const char **knob, const char **value);
/* The path an entry's original came through ("napi-netlink", "sysfs"), NULL when unrecorded. */
const char *nb_journal_entry_via(const struct nb_journal *j, int index);

/* How the last restore went for an entry: 1 when tried, with *after the value read back (NULL
 * when it could not be read) and *error why it failed (NULL when it did not); 0 when untried. */
int nb_journal_entry_outcome(const struct nb_journal *j, int index, const char **after, const char **error);
/* The path an entry was read and restored through; for one journaled without it, the path
 * the last restore's write took (NB_VIA_ANY before any restore). */
enum nb_knob_via nb_journal_entry_path(const struct nb_journal *j, int index);

#endif
