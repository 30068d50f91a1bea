// ncurses for Swift: the wide-character API, and the macros and mutable globals Swift cannot use.
#pragma once
#define NCURSES_WIDECHAR 1
#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

int wcwidth(wchar_t c);

static inline WINDOW *CNcurses_stdscr(void) { return stdscr; }

/// Starts curses on the terminal type `term` (NULL: $TERM); 0 when terminfo has no such entry
/// (unlike initscr, which prints to stderr and exits).
static inline int CNcurses_start(const char *term) {
    SCREEN *screen = newterm(term, stdout, stdin);
    if (screen == NULL) return 0;
    set_term(screen);
    return 1;
}
static inline int CNcurses_lines(void) { return LINES; }
static inline int CNcurses_cols(void) { return COLS; }
static inline int CNcurses_colors(void) { return COLORS; }
static inline int CNcurses_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t CNcurses_bold(void) { return A_BOLD; }
static inline attr_t CNcurses_reverse(void) { return A_REVERSE; }
static inline attr_t CNcurses_dim(void) { return A_DIM; }
static inline attr_t CNcurses_underline(void) { return A_UNDERLINE; }
static inline int CNcurses_key_resize(void) { return KEY_RESIZE; }
static inline int CNcurses_key_mouse(void) { return KEY_MOUSE; }
static inline int CNcurses_set_locale(void) { return setlocale(LC_ALL, "") != NULL; }
static inline int CNcurses_char_width(unsigned int c) { return wcwidth((wchar_t)c); }

/// Writes one cell: a character with attributes and an extended colour pair.
static inline int CNcurses_put(int y, int x, unsigned int ch, attr_t attrs, int pair) {
    cchar_t cell;
    wchar_t text[2] = { (wchar_t)ch, 0 };
    setcchar(&cell, text, attrs, 0, &pair);
    return mvwadd_wch(stdscr, y, x, &cell);
}

/// Reads one key or character; returns KEY_CODE_YES for function keys, OK for characters, ERR when none.
static inline int CNcurses_get(unsigned int *out) {
    wint_t ch = 0;
    int status = wget_wch(stdscr, &ch);
    *out = (unsigned int)ch;
    return status;
}

/// Focus reports (`ESC [ I`, `ESC [ O`, sent after `ESC [ ? 1004 h`) read as these key codes.
static inline int CNcurses_key_focus_in(void) { return KEY_MAX + 1; }
static inline void CNcurses_report_focus(int on) {
    if (on) {
        define_key("\033[I", KEY_MAX + 1);
        define_key("\033[O", KEY_MAX + 2);
    }
    putp(on ? "\033[?1004h" : "\033[?1004l");
    fflush(stdout);
}

static inline int CNcurses_mouse_all(void) {
    mousemask(ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION, NULL);
    mouseinterval(0);
    return 0;
}

/// The last mouse event: position and whether it was wheel up (1), wheel down (2), the first
/// button pressed or clicked (3), released (4), or the pointer moved (5: a drag when pressed).
static inline int CNcurses_mouse(int *y, int *x) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    *y = event.y; *x = event.x;
    if (event.bstate & BUTTON4_PRESSED) return 1;
#ifdef BUTTON5_PRESSED
    if (event.bstate & BUTTON5_PRESSED) return 2;
#endif
    // A drag may come with the button's bit still set: the motion decides.
    if (event.bstate & REPORT_MOUSE_POSITION) return 5;
    if (event.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) return 3;
    if (event.bstate & BUTTON1_RELEASED) return 4;
    return 0;
}


/// A hash of the characters of row `y` (ncurses' own line hash looks at characters only), as
/// drawn for the next refresh (`shown` 0: stdscr) or as ncurses believes the terminal shows it
/// (`shown` 1: curscr).
static inline unsigned long CNcurses_row_hash(int shown, int y) {
    WINDOW *window = shown ? curscr : stdscr;
    unsigned long hash = 0;
    int columns = getmaxx(window);
    for (int x = 0; x < columns; x++) {
        cchar_t cell;
        if (mvwin_wch(window, y, x, &cell) == ERR) break;
        wchar_t text[CCHARW_MAX + 1];
        attr_t attributes = 0;
        short pair = 0;
        if (getcchar(&cell, text, &attributes, &pair, NULL) == ERR) continue;
        hash += (hash << 5) + (unsigned long)text[0];
    }
    return hash;
}

/// The hash of a row of `columns` blanks.
static inline unsigned long CNcurses_blank_hash(int columns) {
    unsigned long hash = 0;
    for (int x = 0; x < columns; x++) hash += (hash << 5) + (unsigned long)L' ';
    return hash;
}
