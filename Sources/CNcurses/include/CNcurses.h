// ncurses for Swift: the wide-character API, and the macros and mutable globals Swift cannot use.
// libncursesw is opened at its first use (LazyNcurses.c), so the short calls (`thumbnail`,
// `preview`) never load it nor libtinfo: Swift calls the functions declared by curses.h, which
// are defined in LazyNcurses.c, and these, never a global of the library.
#pragma once
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

int wcwidth(wchar_t c);

/// NULL when libncursesw could be opened, else why not (opening it on the first call).
const char *CNcurses_library_error(void);

WINDOW *CNcurses_stdscr(void);

/// Starts curses on the terminal type `term` (NULL: $TERM); 0 when terminfo has no such entry
/// (unlike initscr, which prints to stderr and exits).
int CNcurses_start(const char *term);
int CNcurses_lines(void);
int CNcurses_cols(void);
int CNcurses_colors(void);
int CNcurses_color_pairs(void);
static inline attr_t CNcurses_bold(void) { return A_BOLD; }
static inline attr_t CNcurses_reverse(void) { return A_REVERSE; }
static inline attr_t CNcurses_dim(void) { return A_DIM; }
static inline attr_t CNcurses_underline(void) { return A_UNDERLINE; }
static inline int CNcurses_key_resize(void) { return KEY_RESIZE; }
static inline int CNcurses_key_mouse(void) { return KEY_MOUSE; }
static inline int CNcurses_set_locale(void) { return setlocale(LC_ALL, "") != NULL; }
static inline int CNcurses_char_width(unsigned int c) { return wcwidth((wchar_t)c); }

/// Writes one cell: a character with attributes and an extended colour pair.
int CNcurses_put(int y, int x, unsigned int ch, attr_t attrs, int pair);

/// Reads one key or character; returns KEY_CODE_YES for function keys, OK for characters, ERR when none.
int CNcurses_get(unsigned int *out);

/// Focus reports (`ESC [ I`, `ESC [ O`, sent after `ESC [ ? 1004 h`) read as these key codes.
static inline int CNcurses_key_focus_in(void) { return KEY_MAX + 1; }
void CNcurses_report_focus(int on);

int CNcurses_mouse_all(void);

/// The last mouse event: position and whether it was wheel up (1), wheel down (2), the first
/// button pressed or clicked (3), released (4), or the pointer moved (5: a drag when pressed).
int CNcurses_mouse(int *y, int *x);

/// A hash of the characters of row `y` (ncurses' own line hash looks at characters only), as
/// drawn for the next refresh (`shown` 0: stdscr) or as ncurses believes the terminal shows it
/// (`shown` 1: curscr).
unsigned long CNcurses_row_hash(int shown, int y);

/// The hash of a row of `columns` blanks.
static inline unsigned long CNcurses_blank_hash(int columns) {
    unsigned long hash = 0;
    for (int x = 0; x < columns; x++) hash += (hash << 5) + (unsigned long)L' ';
    return hash;
}
