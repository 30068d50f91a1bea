// libarchive opened at its first use (an archive listed): its functions qlbrowse calls are
// defined here under their own names, hidden, forwarding to the library's (see CLazyLibrary).
#include <stdio.h>
#pragma GCC visibility push(hidden)
#include "CArchive.h"
#include "LazyLibrary.h"

// libarchive's soname has been 13 since 3.0; its headers do not name it.
#if ARCHIVE_VERSION_NUMBER < 3000000 || ARCHIVE_VERSION_NUMBER >= 4000000
#error "libarchive's major version changed: put its soname (readelf -d libarchive.so | grep SONAME) here"
#endif

static LazyLibrary libarchive = {.label = "libarchive", .files = {"libarchive.so.13"}};

const char *CArchive_library_error(void) { return lazy_library_open(&libarchive); }
const char *CArchive_library_file(int index) { return lazy_library_file(&libarchive, index); }

#define FORWARD(type, name, parameters, arguments) LAZY_FORWARD(libarchive, type, name, parameters, arguments)

FORWARD(struct archive *, archive_read_new, (void), ())
FORWARD(int, archive_read_free, (struct archive *archive), (archive))
FORWARD(int, archive_read_support_filter_all, (struct archive *archive), (archive))
FORWARD(int, archive_read_support_format_all, (struct archive *archive), (archive))
FORWARD(int, archive_read_open_filename, (struct archive *archive, const char *path, size_t block), (archive, path, block))
FORWARD(int, archive_read_next_header, (struct archive *archive, struct archive_entry **entry), (archive, entry))
FORWARD(int, archive_read_data_skip, (struct archive *archive), (archive))
FORWARD(int, archive_errno, (struct archive *archive), (archive))
FORWARD(const char *, archive_error_string, (struct archive *archive), (archive))
FORWARD(const char *, archive_format_name, (struct archive *archive), (archive))
FORWARD(__LA_MODE_T, archive_entry_filetype, (struct archive_entry *entry), (entry))
FORWARD(int, archive_entry_is_encrypted, (struct archive_entry *entry), (entry))
FORWARD(time_t, archive_entry_mtime, (struct archive_entry *entry), (entry))
FORWARD(int, archive_entry_mtime_is_set, (struct archive_entry *entry), (entry))
FORWARD(const char *, archive_entry_pathname, (struct archive_entry *entry), (entry))
FORWARD(const char *, archive_entry_pathname_utf8, (struct archive_entry *entry), (entry))
FORWARD(la_int64_t, archive_entry_size, (struct archive_entry *entry), (entry))
FORWARD(int, archive_entry_size_is_set, (struct archive_entry *entry), (entry))

#pragma GCC visibility pop
