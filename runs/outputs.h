/* Where a command may write what its user names (-o FILE, --out FILE, --html, --ktap, --svg,
 * --asm, --bin; --out DIR, the parent of a new run folder): never over an input. One check for
 * every command: cmd/cli.c calls it for each option its table marks as an output, before the
 * command reads or measures anything, so a refusal costs nothing. */
#ifndef PMUCAL_OUTPUTS_H
#define PMUCAL_OUTPUTS_H
#include <stdbool.h>
#include <stddef.h>

/* A run folder, below, is a folder whose manifest.json, read by runs/runfile.h's manifest_read,
 * records a pmucal command, or is damaged (a damaged or half-written run is still one); a
 * manifest.json that is another program's JSON object does not make one. */

/* Why path may not be the file an output option writes, into why (false: it may be written):
 *  - it is a folder, a block device or a socket (a character device such as /dev/null, or a
 *    FIFO, is written in place; a regular file, or a link, is replaced by a new file);
 *  - the folder it would be written in does not exist;
 *  - it, or the file a link there points to, lies inside an existing run folder, whose files only
 *    the command that measures it writes;
 *  - it is the same file (device and inode, through links) as a file the command line names:
 *    any argument, the value of --opt=VALUE, and the VALUE of each KEY=VALUE word (a case's
 *    file=X). args are the command's words (argv[0] the subcommand); self is the value's own
 *    text in them, never compared with itself. */
bool run_output_refused(const char *path, int nargs, char *const *args, const char *self, char *why, size_t n);
/* Did run_output_refused let path through as a command line's output (self given)? Such a path
 * is checked again when it is written: a run folder made around it, or a link planted, since. */
bool run_output_passed(const char *path);
/* The same for a folder in which a command makes its new run folder (--out DIR): refused only
 * when DIR, or its nearest existing ancestor, lies inside an existing run folder. */
bool run_parent_refused(const char *dir, char *why, size_t n);

#endif
