#pragma once
#include <chafa.h>
static inline void CChafa_gstring_free(GString *string) { g_string_free(string, TRUE); }
static inline const char *CChafa_gstring_text(GString *string) { return string->str; }
static inline gsize CChafa_gstring_length(GString *string) { return string->len; }
