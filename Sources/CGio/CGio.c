// GDBus through libgio opened at first use: each gio function, and each function of GLib (variants,
// the main loop), is called through its address, looked up once in libgio and the libraries it
// brought, with its header's type. GLib is not linked: a short call loads neither it nor pcre2.
#include <gio/gio.h>
#include <stdio.h>
#include "CGio.h"
#include "LazyLibrary.h"

static LazyLibrary libgio = {.label = "libgio", .files = {"libgio-2.0.so.0"}};

#define GIO(name) (*LAZY_FUNCTION(libgio, name))
#define GLIB(name) GIO(name)

const char *CGio_library_error(void) { return lazy_library_open(&libgio); }

static struct {
    GMainLoop *loop;
    GDBusConnection *connection;
    GDBusNodeInfo *node;
    char *path;
    char *interface;
    CGio_handler handler;
    CGio_lost lost;
    void *context;
    int acquired;
} service;

static void method_called(GDBusConnection *connection, const gchar *sender, const gchar *path, const gchar *interface,
                          const gchar *method, GVariant *parameters, GDBusMethodInvocation *invocation, gpointer data) {
    (void)connection; (void)sender; (void)path; (void)interface; (void)parameters; (void)data;
    service.handler(service.context, (CGio_call *)invocation, method);
}

static const GDBusInterfaceVTable vtable = {method_called, NULL, NULL, {0}};

static void bus_acquired(GDBusConnection *connection, const gchar *name, gpointer data) {
    (void)name; (void)data;
    service.connection = connection;
    GError *error = NULL;
    if (!GIO(g_dbus_connection_register_object)(connection, service.path, service.node->interfaces[0], &vtable, NULL, NULL, &error)) {
        fprintf(stderr, "qlbrowse: cannot serve %s: %s\n", service.path, error ? error->message : "?");
        GLIB(g_clear_error)(&error);
        service.lost(service.context, CGio_lost_unregistered);
    }
}

static void name_acquired(GDBusConnection *connection, const gchar *name, gpointer data) {
    (void)connection; (void)name; (void)data;
    service.acquired = 1;
}

static void name_lost(GDBusConnection *connection, const gchar *name, gpointer data) {
    (void)name; (void)data;
    service.lost(service.context, service.acquired ? (connection ? CGio_lost_taken : CGio_lost_bus_gone)
                                                   : (connection ? CGio_lost_taken : CGio_lost_no_bus));
}

const char *CGio_serve(const char *name, const char *path, const char *xml, int replace,
                       CGio_handler handler, CGio_lost lost, void *context) {
    const char *why = CGio_library_error();
    if (why) return why;
    GError *error = NULL;
    service.node = GIO(g_dbus_node_info_new_for_xml)(xml, &error);
    if (!service.node || !service.node->interfaces || !service.node->interfaces[0]) {
        static char message[256];
        snprintf(message, sizeof message, "bad interface description: %s", error ? error->message : "no interface");
        GLIB(g_clear_error)(&error);
        return message;
    }
    service.path = GLIB(g_strdup)(path);
    service.interface = GLIB(g_strdup)(service.node->interfaces[0]->name);
    service.handler = handler;
    service.lost = lost;
    service.context = context;
    service.loop = GLIB(g_main_loop_new)(NULL, FALSE);
    GBusNameOwnerFlags flags = G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT | (replace ? G_BUS_NAME_OWNER_FLAGS_REPLACE : 0);
    GIO(g_bus_own_name)(G_BUS_TYPE_SESSION, name, flags, bus_acquired, name_acquired, name_lost, NULL, NULL);
    return NULL;
}

void CGio_run(void) { GLIB(g_main_loop_run)(service.loop); }
void CGio_quit(void) { if (service.loop) GLIB(g_main_loop_quit)(service.loop); }

static GVariant *argument(CGio_call *call, int index) {
    GVariant *parameters = GIO(g_dbus_method_invocation_get_parameters)((GDBusMethodInvocation *)call);
    if (!parameters || index < 0 || (gsize)index >= GLIB(g_variant_n_children)(parameters)) return NULL;
    return GLIB(g_variant_get_child_value)(parameters, (gsize)index);
}

static gboolean tick(gpointer data) {
    void **pair = data;
    ((void (*)(void *))pair[0])(pair[1]);
    return G_SOURCE_CONTINUE;
}

void CGio_every(unsigned seconds, void (*callback)(void *context), void *context) {
    void **pair = GLIB(g_malloc_n)(2, sizeof(void *));
    pair[0] = (void *)callback;
    pair[1] = context;
    GLIB(g_timeout_add_seconds_full)(G_PRIORITY_DEFAULT, seconds, tick, pair, GLIB(g_free));
}

char *CGio_call_sender(CGio_call *call) {
    return GLIB(g_strdup)(GIO(g_dbus_method_invocation_get_sender)((GDBusMethodInvocation *)call));
}

char *CGio_call_string(CGio_call *call, int index) {
    GVariant *value = argument(call, index);
    if (!value) return NULL;
    char *text = GLIB(g_variant_is_of_type)(value, G_VARIANT_TYPE_STRING) ? GLIB(g_variant_dup_string)(value, NULL) : NULL;
    GLIB(g_variant_unref)(value);
    return text;
}

uint32_t CGio_call_uint(CGio_call *call, int index) {
    GVariant *value = argument(call, index);
    if (!value) return 0;
    uint32_t number = GLIB(g_variant_is_of_type)(value, G_VARIANT_TYPE_UINT32) ? GLIB(g_variant_get_uint32)(value) : 0;
    GLIB(g_variant_unref)(value);
    return number;
}

char **CGio_call_strings(CGio_call *call, int index) {
    GVariant *value = argument(call, index);
    if (!value) return NULL;
    char **strings = GLIB(g_variant_is_of_type)(value, G_VARIANT_TYPE_STRING_ARRAY) ? GLIB(g_variant_dup_strv)(value, NULL) : NULL;
    GLIB(g_variant_unref)(value);
    return strings;
}

void CGio_free_strings(char **strings) { GLIB(g_strfreev)(strings); }
void CGio_free(char *string) { GLIB(g_free)(string); }

static GVariant *strings(const char *const *list) {
    return GLIB(g_variant_new_strv)(list ? (const gchar *const *)list : (const gchar *const[]){NULL}, -1);
}

void CGio_return_nothing(CGio_call *call) { GIO(g_dbus_method_invocation_return_value)((GDBusMethodInvocation *)call, NULL); }

void CGio_return_uint(CGio_call *call, uint32_t value) {
    GIO(g_dbus_method_invocation_return_value)((GDBusMethodInvocation *)call, GLIB(g_variant_new)("(u)", value));
}

void CGio_return_strings(CGio_call *call, const char *const *first, const char *const *second) {
    GVariant *value = second ? GLIB(g_variant_new)("(@as@as)", strings(first), strings(second)) : GLIB(g_variant_new)("(@as)", strings(first));
    GIO(g_dbus_method_invocation_return_value)((GDBusMethodInvocation *)call, value);
}

void CGio_return_error(CGio_call *call, const char *message) {
    GIO(g_dbus_method_invocation_return_error_literal)((GDBusMethodInvocation *)call, GIO(g_dbus_error_quark)(),
                                                        G_DBUS_ERROR_INVALID_ARGS, message);
}

static int emit(const char *destination, const char *signal, GVariant *parameters) {
    if (!service.connection) {
        GLIB(g_variant_unref)(GLIB(g_variant_ref_sink)(parameters));
        return -1;
    }
    return GIO(g_dbus_connection_emit_signal)(service.connection, destination, service.path, service.interface, signal, parameters, NULL)
        ? 0 : -1;
}

int CGio_emit_handle(const char *destination, const char *signal, uint32_t handle) {
    return emit(destination, signal, GLIB(g_variant_new)("(u)", handle));
}

int CGio_emit_handle_strings(const char *destination, const char *signal, uint32_t handle, const char *const *list) {
    return emit(destination, signal, GLIB(g_variant_new)("(u@as)", handle, strings(list)));
}

int CGio_emit_error(const char *destination, const char *signal, uint32_t handle, const char *const *list, int32_t code,
                    const char *message) {
    return emit(destination, signal, GLIB(g_variant_new)("(u@asis)", handle, strings(list), code, message));
}
