// chafa opened at its first use: each chafa function (and GLib's g_string_free, from the GLib
// chafa brings) is called through its address, looked up once, with its header's type. Loading
// and relocating chafa, GLib and pcre2 cost every short call about 0.6 M instructions and 40 page
// faults, though only the block-art and sixel drivers use them.
#include <stdlib.h>
#include <string.h>
#include <chafa.h>
#include "CChafa.h"
#include "LazyLibrary.h"

static LazyLibrary libchafa = {.label = "libchafa", .files = {"libchafa.so.0"}};

#define CHAFA(name) (*LAZY_FUNCTION(libchafa, name))

const char *CChafa_library_error(void) { return lazy_library_open(&libchafa); }

static ChafaCanvasMode canvas_mode(int colors) {
    if (colors > 256) return CHAFA_CANVAS_MODE_TRUECOLOR;
    if (colors >= 256) return CHAFA_CANVAS_MODE_INDEXED_240;
    if (colors >= 16) return CHAFA_CANVAS_MODE_INDEXED_16;
    return CHAFA_CANVAS_MODE_INDEXED_8;
}

CChafa_canvas *CChafa_canvas_new(int columns, int rows, int cell_width, int cell_height, int sixel, int colors, float work,
                                 const uint8_t *rgba, int width, int height) {
    if (CChafa_library_error()) return NULL;
    ChafaCanvasConfig *config = CHAFA(chafa_canvas_config_new)();
    if (!config) return NULL;
    CHAFA(chafa_canvas_config_set_geometry)(config, columns, rows);
    CHAFA(chafa_canvas_config_set_cell_geometry)(config, cell_width, cell_height);
    if (sixel) {
        CHAFA(chafa_canvas_config_set_canvas_mode)(config, CHAFA_CANVAS_MODE_TRUECOLOR);
        CHAFA(chafa_canvas_config_set_pixel_mode)(config, CHAFA_PIXEL_MODE_SIXELS);
    } else {
        CHAFA(chafa_canvas_config_set_canvas_mode)(config, canvas_mode(colors));
        CHAFA(chafa_canvas_config_set_pixel_mode)(config, CHAFA_PIXEL_MODE_SYMBOLS);
        // chafa's own default for its command line (block+border+space, no inverted symbols),
        // with the effort the driver was made with.
        ChafaSymbolMap *map = CHAFA(chafa_symbol_map_new)();
        CHAFA(chafa_symbol_map_add_by_tags)(map, CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_BORDER | CHAFA_SYMBOL_TAG_SPACE);
        CHAFA(chafa_symbol_map_remove_by_tags)(map, CHAFA_SYMBOL_TAG_INVERTED);
        CHAFA(chafa_canvas_config_set_symbol_map)(config, map);
        CHAFA(chafa_symbol_map_unref)(map);
        CHAFA(chafa_canvas_config_set_work_factor)(config, work);
        // 256 colours: error diffusion keeps a photo's hues (the palette's cube is coarse, and a
        // cell's nearest colour is often a grey): measured on a mid-tone picture, the colour error
        // seen per cell falls from 31 to 21, on camera photos from 35 to 25.
        if (colors <= 16) {
            CHAFA(chafa_canvas_config_set_dither_mode)(config, CHAFA_DITHER_MODE_ORDERED);
        } else if (colors <= 256) {
            CHAFA(chafa_canvas_config_set_dither_mode)(config, CHAFA_DITHER_MODE_DIFFUSION);
        }
    }
    ChafaCanvas *canvas = CHAFA(chafa_canvas_new)(config);
    CHAFA(chafa_canvas_config_unref)(config);
    if (!canvas) return NULL;
    CHAFA(chafa_canvas_draw_all_pixels)(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, rgba, width, height, width * 4);
    return (CChafa_canvas *)canvas;
}

void CChafa_canvas_free(CChafa_canvas *canvas) {
    if (canvas) CHAFA(chafa_canvas_unref)((ChafaCanvas *)canvas);
}

char *CChafa_canvas_print(CChafa_canvas *canvas, size_t *length) {
    *length = 0;
    ChafaTermInfo *info = CHAFA(chafa_term_db_get_fallback_info)(CHAFA(chafa_term_db_get_default)());
    if (!info) return NULL;
    GString *printed = CHAFA(chafa_canvas_print)((ChafaCanvas *)canvas, info);
    CHAFA(chafa_term_info_unref)(info);
    if (!printed) return NULL;
    char *bytes = malloc(printed->len + 1);
    if (bytes) {
        memcpy(bytes, printed->str, printed->len);
        *length = printed->len;
    }
    CHAFA(g_string_free)(printed, TRUE);
    return bytes;
}

void CChafa_free(char *bytes) { free(bytes); }

uint32_t CChafa_canvas_char_at(CChafa_canvas *canvas, int x, int y) {
    return CHAFA(chafa_canvas_get_char_at)((ChafaCanvas *)canvas, x, y);
}

void CChafa_canvas_colors_at(CChafa_canvas *canvas, int x, int y, int raw, int32_t *foreground, int32_t *background) {
    if (raw) {
        CHAFA(chafa_canvas_get_raw_colors_at)((ChafaCanvas *)canvas, x, y, foreground, background);
    } else {
        CHAFA(chafa_canvas_get_colors_at)((ChafaCanvas *)canvas, x, y, foreground, background);
    }
}
