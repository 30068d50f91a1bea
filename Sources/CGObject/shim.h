// GLib's object system, for the C targets that hand GObjects around (CVips).
#pragma once
#include <glib-object.h>
