/* Output files (-o, --html, -w ...): one way for every command to write
 * where the user asked without destroying what the path names. */
#ifndef NP_OUTFILE_H
#define NP_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

struct outfile_opts {
	bool no_clobber;	    /* refuse an existing regular file */
	const char *const *inputs; /* files this run reads (NULL-safe) */
	size_t ninputs;
	/* write the path itself, no temporary file: for a program that
	 * drops its privileges before it closes (capture -w), whose rename
	 * in a directory only root may write would fail */
	bool in_place;
	/* no fsync before the rename: for a caller that writes many files
	 * and syncs them once (outfile_sync_dir), as netprobe mesh --out */
	bool no_sync;
};

struct outfile {
	FILE *fp;	  /* write here between open and close */
	char path[4096];  /* the file written (a symlink resolved) */
	char tmp[4096];	  /* the temporary file, "" when written in place */
	bool is_stdout;
	bool noreplace;	  /* a new file under no_clobber: never replace */
	bool created;	  /* the path did not exist: a new file */
	bool no_sync;	  /* opts->no_sync */
	char why[512];	  /* the reason of the last failure, for messages */
};

/* Opens path for writing ("-" is standard output): a device, FIFO or
 * socket is written in place; a symlink is followed; an existing regular
 * file is replaced atomically on outfile_close, keeping its mode and owner
 * (written in place when it has other hard links or its owner cannot be
 * kept); a new file appears whole. Refuses an existing regular file under
 * no_clobber and a path that is one of opts->inputs. Returns 0, or -1 with
 * errno set and o->why saying what went wrong. */
int outfile_open(struct outfile *o, const char *path,
		 const struct outfile_opts *opts);

/* Flushes and closes, then renames the temporary file into place. Returns
 * 0, or -1 (a write error, ENOSPC on a full device...) with o->why set;
 * the temporary file is removed and the old file left as it was. */
int outfile_close(struct outfile *o);

/* Flushes to disk what was written into directory dir (syncfs(2) of its
 * file system): once, after many files written with no_sync. Returns 0 or
 * -1 with errno set. */
int outfile_sync_dir(const char *dir);

/* Gives up: closes and removes the temporary file. Safe after a failure. */
void outfile_abort(struct outfile *o);

#endif
