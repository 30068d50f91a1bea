// A D-Bus service over GDBus, for `qlbrowse dbus` (the freedesktop thumbnailer interface). libgio
// is opened at first use (CLazyLibrary), so no other command loads it. One service per process.
#pragma once
#include <stdint.h>

/// A method call, answered exactly once with one of the CGio_return_ functions.
typedef struct CGio_call CGio_call;

/// Called on the loop's thread for each method call of the served interface.
typedef void (*CGio_handler)(void *context, CGio_call *call, const char *method);
/// Why the name is not (or no longer) ours.
enum { CGio_lost_no_bus = 0, CGio_lost_taken = 1, CGio_lost_bus_gone = 2, CGio_lost_unregistered = 3 };
/// Called on the loop's thread when the name could not be had, or was lost (`why`: above).
typedef void (*CGio_lost)(void *context, int why);

/// NULL when libgio could be opened, else why not.
const char *CGio_library_error(void);

/// Serves the interface described by `xml` (one interface) at `path` on the session bus and asks
/// for `name` (`replace`: take it over from an owner that allows it; ours allows it too). The
/// calls arrive once `CGio_run` runs. NULL when the request is under way, else why not (static).
const char *CGio_serve(const char *name, const char *path, const char *xml, int replace,
                       CGio_handler handler, CGio_lost lost, void *context);
/// Runs the loop calls and signals go through, until `CGio_quit` (from any thread).
void CGio_run(void);
void CGio_quit(void);

/// Calls `tick` on the loop's thread every `seconds` (with the method calls, never beside them).
void CGio_every(unsigned seconds, void (*tick)(void *context), void *context);

/// The caller's unique bus name (":1.42"), for signals meant for it alone; freed with CGio_free.
char *CGio_call_sender(CGio_call *call);
/// The `index`th argument: a string (NULL if it is not one; freed with CGio_free), a number, or a
/// list of strings (NULL-ended, freed with CGio_free_strings).
char *CGio_call_string(CGio_call *call, int index);
uint32_t CGio_call_uint(CGio_call *call, int index);
char **CGio_call_strings(CGio_call *call, int index);
void CGio_free_strings(char **strings);
void CGio_free(char *string);

/// Answers (from any thread): nothing, a number, one or two lists of strings (`second` NULL:
/// one), or an error with a message.
void CGio_return_nothing(CGio_call *call);
void CGio_return_uint(CGio_call *call, uint32_t value);
void CGio_return_strings(CGio_call *call, const char *const *first, const char *const *second);
void CGio_return_error(CGio_call *call, const char *message);

/// Signals of the served interface (from any thread) to `destination` (a caller's unique name;
/// NULL: to everyone listening); 0 when sent.
int CGio_emit_handle(const char *destination, const char *signal, uint32_t handle);
int CGio_emit_handle_strings(const char *destination, const char *signal, uint32_t handle, const char *const *strings);
int CGio_emit_error(const char *destination, const char *signal, uint32_t handle, const char *const *strings, int32_t code,
                    const char *message);
