// qpdf's C API, opened at first use (LazyQPDF.c): a PDF's page objects, rewritten with stream data and
// object streams preserved.
#pragma once
#include <qpdf/qpdf-c.h>

/// Keeps streams and object streams as they are: only the objects changed are new. Called after
/// qpdf_init_write (the writer exists only then).
static inline void CQPDF_preserve(qpdf_data qpdf) {
    qpdf_set_object_stream_mode(qpdf, qpdf_o_preserve);
    qpdf_set_stream_data_mode(qpdf, qpdf_s_preserve);
}

/// Whether a call's result has the error bit (QPDF_ERRORS is an expression Swift cannot import).
static inline int CQPDF_failed(QPDF_ERROR_CODE code) { return (code & QPDF_ERRORS) != 0; }

/// NULL when libqpdf could be opened (it is opened at first use: LazyQPDF.c), else why not.
const char *CQPDF_library_error(void);
/// libqpdf's file name (soname) at `index`, or NULL past the last.
const char *CQPDF_library_file(int index);
