// libqpdf opened at its first use (a PDF page turned): its C functions qlbrowse calls are defined
// here under their own names, hidden, forwarding to the library's (see CLazyLibrary). qpdf marks
// its declarations visible; that mark is dropped here so that these stay inside the program.
#include <stdio.h>
#include <qpdf/DLL.h>
#undef QPDF_DLL
#define QPDF_DLL
#pragma GCC visibility push(hidden)
#include "CQPDF.h"
#include "LazyLibrary.h"

// qpdf's soname is not in its headers: each major version names its own.
#if QPDF_MAJOR_VERSION == 11
#define QPDF_SONAME "libqpdf.so.29"
#else
#error "qpdf's major version changed: put its soname (readelf -d libqpdf.so | grep SONAME) here"
#endif

static LazyLibrary libqpdf = {.label = "libqpdf", .files = {QPDF_SONAME}};

const char *CQPDF_library_error(void) { return lazy_library_open(&libqpdf); }
const char *CQPDF_library_file(int index) { return lazy_library_file(&libqpdf, index); }

#define FORWARD(type, name, parameters, arguments) LAZY_FORWARD(libqpdf, type, name, parameters, arguments)
#define FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(libqpdf, name, parameters, arguments)

FORWARD(qpdf_data, qpdf_init, (void), ())
FORWARD_VOID(qpdf_cleanup, (qpdf_data *qpdf), (qpdf))
FORWARD(QPDF_BOOL, qpdf_has_error, (qpdf_data qpdf), (qpdf))
FORWARD(qpdf_error, qpdf_get_error, (qpdf_data qpdf), (qpdf))
FORWARD(enum qpdf_error_code_e, qpdf_get_error_code, (qpdf_data qpdf, qpdf_error error), (qpdf, error))
FORWARD(char const *, qpdf_get_error_message_detail, (qpdf_data qpdf, qpdf_error error), (qpdf, error))
FORWARD_VOID(qpdf_set_suppress_warnings, (qpdf_data qpdf, QPDF_BOOL value), (qpdf, value))
FORWARD(QPDF_ERROR_CODE, qpdf_read, (qpdf_data qpdf, char const *path, char const *password), (qpdf, path, password))
FORWARD(int, qpdf_get_num_pages, (qpdf_data qpdf), (qpdf))
FORWARD(qpdf_oh, qpdf_get_page_n, (qpdf_data qpdf, size_t index), (qpdf, index))
FORWARD(QPDF_BOOL, qpdf_oh_has_key, (qpdf_data qpdf, qpdf_oh object, char const *key), (qpdf, object, key))
FORWARD(qpdf_oh, qpdf_oh_get_key, (qpdf_data qpdf, qpdf_oh object, char const *key), (qpdf, object, key))
FORWARD(QPDF_BOOL, qpdf_oh_is_integer, (qpdf_data qpdf, qpdf_oh object), (qpdf, object))
FORWARD(int, qpdf_oh_get_int_value_as_int, (qpdf_data qpdf, qpdf_oh object), (qpdf, object))
FORWARD(qpdf_oh, qpdf_oh_new_integer, (qpdf_data qpdf, long long value), (qpdf, value))
FORWARD_VOID(qpdf_oh_replace_key, (qpdf_data qpdf, qpdf_oh object, char const *key, qpdf_oh item), (qpdf, object, key, item))
FORWARD(QPDF_ERROR_CODE, qpdf_init_write, (qpdf_data qpdf, char const *path), (qpdf, path))
FORWARD_VOID(qpdf_set_object_stream_mode, (qpdf_data qpdf, enum qpdf_object_stream_e mode), (qpdf, mode))
FORWARD_VOID(qpdf_set_stream_data_mode, (qpdf_data qpdf, enum qpdf_stream_data_e mode), (qpdf, mode))
FORWARD(QPDF_ERROR_CODE, qpdf_write, (qpdf_data qpdf), (qpdf))

FORWARD(qpdf_oh, qpdf_get_root, (qpdf_data qpdf), (qpdf))
FORWARD(QPDF_BOOL, qpdf_is_encrypted, (qpdf_data qpdf), (qpdf))
FORWARD(QPDF_BOOL, qpdf_allow_modify_annotation, (qpdf_data qpdf), (qpdf))
FORWARD(qpdf_oh, qpdf_oh_parse, (qpdf_data qpdf, char const *text), (qpdf, text))
FORWARD(qpdf_oh, qpdf_make_indirect_object, (qpdf_data qpdf, qpdf_oh object), (qpdf, object))
FORWARD(qpdf_oh, qpdf_oh_new_stream, (qpdf_data qpdf), (qpdf))
FORWARD(qpdf_oh, qpdf_oh_new_null, (qpdf_data qpdf), (qpdf))
FORWARD(qpdf_oh, qpdf_oh_new_array, (qpdf_data qpdf), (qpdf))
FORWARD(qpdf_oh, qpdf_oh_get_dict, (qpdf_data qpdf, qpdf_oh object), (qpdf, object))
FORWARD_VOID(qpdf_oh_replace_stream_data, (qpdf_data qpdf, qpdf_oh stream, unsigned char const *buf, size_t len, qpdf_oh filter, qpdf_oh parms),
             (qpdf, stream, buf, len, filter, parms))
FORWARD_VOID(qpdf_oh_append_item, (qpdf_data qpdf, qpdf_oh array, qpdf_oh item), (qpdf, array, item))
FORWARD(QPDF_BOOL, qpdf_oh_is_array, (qpdf_data qpdf, qpdf_oh object), (qpdf, object))
FORWARD(int, qpdf_oh_get_array_n_items, (qpdf_data qpdf, qpdf_oh array), (qpdf, array))
FORWARD(qpdf_oh, qpdf_oh_get_array_item, (qpdf_data qpdf, qpdf_oh array, int index), (qpdf, array, index))
FORWARD(QPDF_BOOL, qpdf_oh_is_number, (qpdf_data qpdf, qpdf_oh object), (qpdf, object))
FORWARD(double, qpdf_oh_get_numeric_value, (qpdf_data qpdf, qpdf_oh object), (qpdf, object))

#pragma GCC visibility pop
