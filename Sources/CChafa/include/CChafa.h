// chafa for the graphics drivers (block art, sixel), opened at its first use (CChafa.c): a short
// call (`thumbnail`, `preview` without a chafa driver) loads neither chafa nor GLib. Plain C types
// only, so that Swift needs neither chafa's nor GLib's headers.
#pragma once
#include <stddef.h>
#include <stdint.h>

/// A chafa canvas holding one picture.
typedef struct CChafa_canvas CChafa_canvas;

/// NULL when libchafa could be opened, else why not (opening it on the first call).
const char *CChafa_library_error(void);

/// A canvas of `columns`×`rows` cells of `cell_width`×`cell_height` pixels with the RGBA picture
/// (`width`×`height`, rows packed) drawn into it: sixels when `sixel`, else block and border
/// symbols in `colors` colours (8, 16, 256, more: truecolor) with chafa's work factor `work`.
/// NULL when chafa cannot be had or makes none.
CChafa_canvas *CChafa_canvas_new(int columns, int rows, int cell_width, int cell_height, int sixel, int colors, float work,
                                 const uint8_t *rgba, int width, int height);
void CChafa_canvas_free(CChafa_canvas *canvas);

/// The canvas printed as escape sequences (sixel): `*length` bytes, freed with `CChafa_free`; NULL when none.
char *CChafa_canvas_print(CChafa_canvas *canvas, size_t *length);
void CChafa_free(char *bytes);

/// The character of the cell at `x`, `y`, and its colours: packed RGB, or (`raw`) the palette
/// indexes of the indexed modes.
uint32_t CChafa_canvas_char_at(CChafa_canvas *canvas, int x, int y);
void CChafa_canvas_colors_at(CChafa_canvas *canvas, int x, int y, int raw, int32_t *foreground, int32_t *background);
