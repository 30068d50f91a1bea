#pragma once
#include <poppler.h>
#include <cairo.h>

static inline void CPoppler_unref(const void *object) { if (object) g_object_unref((gpointer)object); }
static inline int CPoppler_error_is_encrypted(GError *error) {
    return error && error->domain == POPPLER_ERROR && error->code == POPPLER_ERROR_ENCRYPTED;
}
static inline const char *CPoppler_error_message(GError *error) { return error ? error->message : ""; }
static inline void CPoppler_error_free(GError *error) { if (error) g_error_free(error); }
