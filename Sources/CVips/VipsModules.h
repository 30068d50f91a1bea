// Inside CVips only: libvips started without its modules, and the modules opened on demand.
#pragma once

/// vips_init with VIPSHOME pointing where no modules are (the caller's VIPSHOME restored after).
int cvips_init_without_modules(const char *argv0);
/// Opens the module a file of a common format may need (openslide: slides are TIFFs too).
void cvips_open_start_modules(void);
/// Opens libvips's other modules (but the blocked ones) the first time; 1 when that call opened any,
/// 0 when they were opened before or there are none: a failed call is worth repeating only on 1.
int cvips_open_modules(void);
