// libncursesw opened at its first use: every ncurses function qlbrowse calls is defined here,
// with its header's type (the compiler checks each against the declaration), hidden from other
// libraries, and forwards to the library's function of that name, looked up once; its globals
// (stdscr, LINES…) are read through their looked-up addresses. Loading and relocating ncursesw
// and tinfo cost each short call about 0.6 M instructions and 20 page faults it had no use for.
#include <stdio.h>
#pragma GCC visibility push(hidden)
#include "CNcurses.h"
#include "LazyLibrary.h"

static LazyLibrary libncurses = {.label = "libncursesw", .files = {"libncursesw.so.6"}};

const char *CNcurses_library_error(void) { return lazy_library_open(&libncurses); }

#define FORWARD(type, name, parameters, arguments) LAZY_FORWARD(libncurses, type, name, parameters, arguments)
#define FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(libncurses, name, parameters, arguments)
/// A global of the library (its dependency libtinfo's, for some), by its looked-up address.
#define GLOBAL(name) (*LAZY_FUNCTION(libncurses, name))

FORWARD(int, cbreak, (void), ())
FORWARD(int, clearok, (WINDOW *window, bool on), (window, on))
FORWARD(int, curs_set, (int visibility), (visibility))
FORWARD(int, def_prog_mode, (void), ())
FORWARD(int, define_key, (const char *definition, int code), (definition, code))
FORWARD(int, endwin, (void), ())
FORWARD(int, getcchar, (const cchar_t *cell, wchar_t *text, attr_t *attributes, NCURSES_PAIRS_T *pair, void *options),
        (cell, text, attributes, pair, options))
FORWARD(int, getmouse, (MEVENT *event), (event))
FORWARD(bool, has_colors, (void), ())
FORWARD(int, init_extended_pair, (int pair, int foreground, int background), (pair, foreground, background))
FORWARD(int, intrflush, (WINDOW *window, bool on), (window, on))
FORWARD(int, keypad, (WINDOW *window, bool on), (window, on))
FORWARD(int, mouseinterval, (int interval), (interval))
FORWARD(mmask_t, mousemask, (mmask_t mask, mmask_t *old), (mask, old))
FORWARD(SCREEN *, newterm, (const char *term, FILE *output, FILE *input), (term, output, input))
FORWARD(int, nodelay, (WINDOW *window, bool on), (window, on))
FORWARD(int, noecho, (void), ())
FORWARD(int, nonl, (void), ())
FORWARD(int, putp, (const char *text), (text))
FORWARD(int, reset_prog_mode, (void), ())
FORWARD(SCREEN *, set_term, (SCREEN *screen), (screen))
FORWARD(int, setcchar, (cchar_t *cell, const wchar_t *text, const attr_t attributes, NCURSES_PAIRS_T pair, const void *options),
        (cell, text, attributes, pair, options))
FORWARD(int, start_color, (void), ())
FORWARD(int, ungetch, (int key), (key))
FORWARD(int, use_default_colors, (void), ())
FORWARD(int, wadd_wch, (WINDOW *window, const cchar_t *cell), (window, cell))
FORWARD(int, werase, (WINDOW *window), (window))
FORWARD(int, wget_wch, (WINDOW *window, wint_t *character), (window, character))
FORWARD(int, win_wch, (WINDOW *window, cchar_t *cell), (window, cell))
FORWARD(int, wmove, (WINDOW *window, int y, int x), (window, y, x))
FORWARD(int, wredrawln, (WINDOW *window, int top, int count), (window, top, count))
FORWARD(int, wrefresh, (WINDOW *window), (window))

WINDOW *CNcurses_stdscr(void) { return GLOBAL(stdscr); }

int CNcurses_start(const char *term) {
    SCREEN *screen = newterm(term, stdout, stdin);
    if (screen == NULL) return 0;
    set_term(screen);
    return 1;
}

int CNcurses_lines(void) { return GLOBAL(LINES); }
int CNcurses_cols(void) { return GLOBAL(COLS); }
int CNcurses_colors(void) { return GLOBAL(COLORS); }
int CNcurses_color_pairs(void) { return GLOBAL(COLOR_PAIRS); }

int CNcurses_put(int y, int x, unsigned int ch, attr_t attrs, int pair) {
    cchar_t cell;
    wchar_t text[2] = { (wchar_t)ch, 0 };
    setcchar(&cell, text, attrs, 0, &pair);
    return mvwadd_wch(GLOBAL(stdscr), y, x, &cell);
}

int CNcurses_get(unsigned int *out) {
    wint_t ch = 0;
    int status = wget_wch(GLOBAL(stdscr), &ch);
    *out = (unsigned int)ch;
    return status;
}

void CNcurses_report_focus(int on) {
    if (on) {
        define_key("\033[I", KEY_MAX + 1);
        define_key("\033[O", KEY_MAX + 2);
    }
    putp(on ? "\033[?1004h" : "\033[?1004l");
    fflush(stdout);
}

int CNcurses_mouse_all(void) {
    mousemask(ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION, NULL);
    mouseinterval(0);
    return 0;
}

int CNcurses_mouse(int *y, int *x) {
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

unsigned long CNcurses_row_hash(int shown, int y) {
    WINDOW *window = shown ? GLOBAL(curscr) : GLOBAL(stdscr);
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

#pragma GCC visibility pop
