// libarchive: the file-type macros are casts Swift cannot import; as functions.
#pragma once
#include <archive.h>
#include <archive_entry.h>

static inline int CArchive_is_directory(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFDIR; }
static inline int CArchive_is_symlink(struct archive_entry *entry) { return archive_entry_filetype(entry) == AE_IFLNK; }
