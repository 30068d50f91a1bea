// libarchive, opened at first use (LazyArchive.c): the file-type macros are casts Swift cannot
// import; as functions.
#pragma once
#include <archive.h>
#include <archive_entry.h>

static inline int CArchive_is_directory(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFDIR; }
static inline int CArchive_is_symlink(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFLNK; }

/// NULL when libarchive could be opened (it is opened at first use: LazyArchive.c), else why not.
const char *CArchive_library_error(void);
/// libarchive's file name (soname) at `index`, or NULL past the last.
const char *CArchive_library_file(int index);
