// GLib itself (already loaded by chafa in qlbrowse), for CGio's variants and main loop.
#pragma once
#include <glib.h>
