#!/usr/bin/python3
"""Architecture checks of the package, read from Package.swift and the Swift sources (stdlib only).

Usage:
  scripts/architecture.py [--root DIR] [--max-lines 300] [--check-doc docs/ARCHITECTURE.md]
  scripts/architecture.py [--root DIR] --diagram
  scripts/architecture.py [--root DIR] --write-doc docs/ARCHITECTURE.md

Checks (one line per problem, `path:line: what is wrong`; exit status 1 when any fails):
  - no Swift file under Sources/ has more than --max-lines lines;
  - a C module (a `.systemLibrary` target, or a target with C sources and no Swift) is imported
    only under C_IMPORTS_ALLOWED;
  - every module a target's files import (Sources/<target>, Tests/<target>, or its `path:`) is
    among the target's direct dependencies in Package.swift (toolchain modules aside);
  - every file that calls a libc function taking a path (PATH_CALLS) imports SystemKit, whose
    String overloads hand the kernel the name's own bytes (`FileSystemBytes`); so do the files
    of Providers and Editors calling the libraries' path functions (their overloads are in
    LibraryPathCalls.swift and EditorPathCalls.swift); `utf8CString` never makes a path;
  - file-system calls (FILE_CALLS: the path calls, readdir, FileManager, DirectoryLister…) only
    below the place layer (BELOW_THE_PLACES: SystemKit, Places with LocalPlace, the local place's
    parts, the engine) and, call by call, in the files of FILE_CALLS_ALLOWED, each with its
    reason: everything else reaches files through a `Place` (issue #24);
  - `import BrowserUI` only in the browse command (BROWSER_UI_IMPORTERS): no other command links
    the terminal UI;
  - no enum in Sources has more than MAX_ENUM_CASES cases, and no struct, class or actor more
    than MAX_OPTIONAL_PROPERTIES optional stored properties (a flat vocabulary, a bag of
    optionals: issue #24), but for the few named in VOCABULARY_ALLOWED;
  - with --check-doc FILE: FILE holds the diagram --diagram prints, between MARKER_BEGIN and
    MARKER_END (--write-doc FILE puts it there).
"""
import argparse, difflib, os, re, sys

# Where `import C…` may appear: folders (ending in /) or glob patterns, relative to the package root.
C_IMPORTS_ALLOWED = [
    "Sources/SystemKit/",
    "Sources/Providers/",
    "Sources/Editors/",
    "Sources/TerminalGraphics/Drivers/",
    "Sources/ThumbnailKit/Codecs/",
    "Sources/BrowserUI/Curses*.swift",
    "Sources/BrowserUI/Screen/Curses*.swift",
]

# Modules of the toolchain and the platform: imported freely, never declared in Package.swift.
TOOLCHAIN_MODULES = {
    "Swift", "_Concurrency", "Glibc", "Musl", "Darwin", "os", "Dispatch", "Foundation",
    "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Synchronization",
    "XCTest", "Testing", "PackageDescription", "RegexBuilder", "Observation",
}

# Issue #24: a type is a vocabulary to split, not a list to grow.
MAX_ENUM_CASES = 40
MAX_OPTIONAL_PROPERTIES = 10
# Types allowed over a limit, named with the reason; none today (BrowserAction and Command were
# split into per-feature vocabularies, issue #24). Any type over a limit fails.
VOCABULARY_ALLOWED = set()

MARKER_BEGIN = "<!-- modules:begin -->"
MARKER_END = "<!-- modules:end -->"

TARGET_KINDS = {"target", "executableTarget", "testTarget", "systemLibrary", "binaryTarget", "macro", "plugin"}


# --- Reading Swift text ---------------------------------------------------------------------------

def mask(text):
    """The text with comments and the insides of string literals blanked (newlines kept, same
    length), so brackets, commas and `import` lines can be found without being fooled by them."""
    out = list(text)

    def blank(start, end):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    i = 0
    while i < len(text):
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            blank(i, end)
            i = end
        elif text.startswith("/*", i):
            end = _comment_end(text, i)
            blank(i, end)
            i = end
        elif re.match(r'#*"', text[i:i + 8]):
            body, close, end = _string_span(text, i)
            blank(body, close)
            i = end
        else:
            i += 1
    return "".join(out)


def _comment_end(text, i):
    """End of the block comment starting at i (Swift's block comments nest)."""
    depth = 0
    while i < len(text):
        if text.startswith("/*", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("*/", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return i
        else:
            i += 1
    return len(text)


def _string_span(text, i):
    """(start of contents, start of closing delimiter, end) of the string literal at i: plain,
    multi-line and raw (#"…"#) strings, with interpolations that may hold strings of their own."""
    hashes = len(text[i:]) - len(text[i:].lstrip("#"))
    quote = '"""' if text.startswith('"""', i + hashes) else '"'
    close, escape = quote + "#" * hashes, "\\" + "#" * hashes
    k = i + hashes + len(quote)
    body = k
    while k < len(text):
        if text.startswith(close, k):
            return body, k, k + len(close)
        if quote == '"' and text[k] == "\n":
            return body, k, k  # unterminated: stop at the line's end
        if text.startswith(escape + "(", k):
            k = _interpolation_end(text, k + len(escape) + 1)
        elif text.startswith(escape, k):
            k += len(escape) + 1
        else:
            k += 1
    return body, len(text), len(text)


def _interpolation_end(text, k):
    """Index after the `)` closing an interpolation whose code starts at k."""
    depth = 1
    while k < len(text):
        if re.match(r'#*"', text[k:k + 8]):
            k = _string_span(text, k)[2]
            continue
        if text[k] == "(":
            depth += 1
        elif text[k] == ")":
            depth -= 1
            if depth == 0:
                return k + 1
        k += 1
    return k


def closing_bracket(masked, i):
    """Index of the bracket closing the one at i, in masked text."""
    depth = 0
    for k in range(i, len(masked)):
        if masked[k] in "([{":
            depth += 1
        elif masked[k] in ")]}":
            depth -= 1
            if depth == 0:
                return k
    raise ValueError(f"no closing bracket for {masked[i]!r} at offset {i}")


def split_top_level(masked, start, end):
    """Spans (start, end) of the comma-separated items between start and end, outside brackets."""
    spans, depth, item = [], 0, start
    for k in range(start, end + 1):
        c = masked[k] if k < end else ","
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            a, b = item, k
            while a < b and masked[a].isspace():
                a += 1
            while b > a and masked[b - 1].isspace():
                b -= 1
            if a < b:
                spans.append((a, b))
            item = k + 1
    return spans


# --- Package.swift --------------------------------------------------------------------------------

class Target:
    def __init__(self, name, kind, dependencies, products, path):
        self.name, self.kind, self.path = name, kind, path
        self.dependencies = dependencies  # module names, in the order written
        self.products = products          # {module name: package} for `.product(name:package:)`

    def __repr__(self):
        return f"Target({self.name!r}, {self.kind!r}, {self.dependencies!r}, path={self.path!r})"


def _arguments(masked, span):
    """{label: (start, end)} of a call's labelled arguments; span is the call, `.kind(…)`."""
    open_paren = masked.index("(", span[0])
    arguments = {}
    for a, b in split_top_level(masked, open_paren + 1, closing_bracket(masked, open_paren)):
        label = re.match(r"(\w+)\s*:\s*", masked[a:b])
        if label:
            arguments.setdefault(label.group(1), (a + label.end(), b))
    return arguments


def _string(text, masked, span):
    """The value of a plain string literal, or None."""
    a, b = span
    if b - a >= 2 and masked[a] == '"' and masked[b - 1] == '"':
        return text[a + 1:b - 1]
    return None


def _call(masked, span):
    """The name of the call at span (`.product(…)` -> "product"), or None."""
    match = re.match(r"(?:\w+)?\.(\w+)\s*\(", masked[span[0]:span[1]])
    return match.group(1) if match else None


def parse_package(text):
    """The targets of a Package.swift, in the order written."""
    masked = mask(text)
    package = re.search(r"\bPackage\s*\(", masked)
    if not package:
        raise ValueError("Package.swift: no `Package(` call")
    targets_span = _arguments(masked, (package.start(), len(masked))).get("targets")
    if not targets_span or masked[targets_span[0]] != "[":
        raise ValueError("Package.swift: `targets:` is not an array literal")
    start = targets_span[0]
    targets = []
    for span in split_top_level(masked, start + 1, closing_bracket(masked, start)):
        kind = _call(masked, span)
        if kind not in TARGET_KINDS:
            raise ValueError(f"Package.swift: cannot read target `{text[span[0]:span[1]][:60]}`")
        arguments = _arguments(masked, span)
        name = _string(text, masked, arguments["name"])
        dependencies, products = [], {}
        if "dependencies" in arguments:
            a, b = arguments["dependencies"]
            for item in split_top_level(masked, a + 1, closing_bracket(masked, a)):
                by_name = _string(text, masked, item)
                if by_name is None:  # .product(name:package:), .target(name:), .byName(name:)
                    call = _arguments(masked, item)
                    by_name = _string(text, masked, call["name"])
                    if _call(masked, item) == "product":
                        products[by_name] = _string(text, masked, call["package"]) if "package" in call else None
                dependencies.append(by_name)
        path = _string(text, masked, arguments["path"]) if "path" in arguments else None
        if path is None:
            path = {"testTarget": "Tests", "plugin": "Plugins"}.get(kind, "Sources") + "/" + name
        targets.append(Target(name, kind, dependencies, products, path.rstrip("/")))
    return targets


# --- Swift sources --------------------------------------------------------------------------------

IMPORT = re.compile(r"^[ \t]*(?:@\w+(?:\([^)\n]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|open)\s+)?"
                    r"import\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?(\w+)", re.M)


def imports(text):
    """[(line, module)] of the file's import declarations (`import A.B` counts as A)."""
    masked = mask(text)
    return [(masked.count("\n", 0, m.start()) + 1, m.group(1)) for m in IMPORT.finditer(masked)]


def swift_files(root, folder):
    """Swift files under root/folder, relative to root, sorted."""
    found = []
    for directory, subfolders, files in os.walk(os.path.join(root, folder)):
        subfolders.sort()
        found += [os.path.relpath(os.path.join(directory, f), root) for f in sorted(files) if f.endswith(".swift")]
    return found


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


# --- Checks: each returns a list of "path:line: problem" -------------------------------------------

def check_file_lengths(root, max_lines):
    problems = []
    for path in swift_files(root, "Sources"):
        count = len(read(root, path).splitlines())
        if count > max_lines:
            problems.append(f"{path}:{max_lines + 1}: {count} lines, more than {max_lines}")
    return problems


def c_import_allowed(path):
    for place in C_IMPORTS_ALLOWED:
        if place.endswith("/") and path.startswith(place):
            return True
        if not place.endswith("/") and re.fullmatch(re.escape(place).replace(r"\*", "[^/]*"), path):
            return True
    return False


def c_module_names(root, targets):
    """The system libraries, and the C targets (CAV, CVips: C sources that open their library at
    first use), which are C edges like them."""
    def c_only(target):
        folder = os.path.join(root, target.path or "")
        names = [f for _, _, files in os.walk(folder) for f in files] if target.path and os.path.isdir(folder) else []
        return any(n.endswith(".c") for n in names) and not any(n.endswith(".swift") for n in names)
    return {t.name for t in targets if t.kind == "systemLibrary" or (t.kind == "target" and c_only(t))}


def check_c_imports(root, targets):
    c_modules = c_module_names(root, targets)
    problems = []
    for target in targets:
        for path in swift_files(root, target.path):
            for line, module in imports(read(root, path)):
                if module in c_modules and not c_import_allowed(path):
                    problems.append(f"{path}:{line}: imports the C module {module} outside the places allowed "
                                    f"(C_IMPORTS_ALLOWED in scripts/architecture.py)")
    return problems


def check_declared_imports(root, targets):
    problems = []
    for target in targets:
        declared = set(target.dependencies) | {target.name}
        for path in swift_files(root, target.path):
            for line, module in imports(read(root, path)):
                if module not in declared and module not in TOOLCHAIN_MODULES:
                    problems.append(f"{path}:{line}: imports {module}, which Package.swift does not list "
                                    f"in the dependencies of {target.name}")
    return problems


PATH_CALLS = ("open openat stat lstat fstatat statvfs access mkdir mkdirat rmdir unlink unlinkat remove rename "
              "renameat link symlink chmod utimensat opendir strdup posix_spawn_file_actions_addopen").split()
LIBRARY_PATH_CALLS = ("CVips_thumbnail CVips_thumbnail_any_size CVips_open_header CVips_loader CVips_open CVips_write "
                      "magic_file archive_read_open_filename libraw_open_file avformat_open_input "
                      "avformat_alloc_output_context2 qpdf_read qpdf_init_write CPNG_open CTIFF_open").split()
PATH_CALL = re.compile(r"(?<![\w.])(?<!case )(" + "|".join(PATH_CALLS + LIBRARY_PATH_CALLS) + r")\(\s*[^)\s]")


def check_path_calls(root, targets):
    """Files outside SystemKit that call a path function must import SystemKit, or the Glibc
    original (the string's UTF-8, not the name's bytes) is what Swift picks."""
    problems = []
    for target in targets:
        if target.name == "SystemKit" or not target.path or not target.path.startswith("Sources"):
            continue
        for path in swift_files(root, target.path):
            text = read(root, path)
            masked = mask(text)
            imported = {module for _, module in imports(text)}
            for match in PATH_CALL.finditer(masked):
                if "SystemKit" not in imported:
                    line = masked.count("\n", 0, match.start()) + 1
                    problems.append(f"{path}:{line}: calls {match.group(1)} without importing SystemKit: the path "
                                    f"would reach the kernel as its drawn form, not its bytes")
                    break
            for match in re.finditer(r"\.utf8CString\b", masked):
                line = masked.count("\n", 0, match.start()) + 1
                problems.append(f"{path}:{line}: utf8CString makes a C string of the text, not of the name's bytes: "
                                f"use withFileSystemRepresentation")
    return problems


# Issue #24: one place layer under everything. Above it, files are reached only through a `Place`
# (Sources/Places), so that a new kind of place (a remote machine over SSH, #26) is one new type.
FILE_CALLS = PATH_CALLS + "readdir fopen inotify_add_watch".split()
FILE_TYPES = "FileManager DirectoryLister DirectoryEntries".split()
FILE_CALL = re.compile(r"(?<![\w.])(?<!case )(?<!func )(" + "|".join(FILE_CALLS) + r")\(\s*[^)\s]|\b(" + "|".join(FILE_TYPES) + r")\b")

# Folders where every file-system call belongs, and why.
BELOW_THE_PLACES = {
    "Sources/SystemKit/": "the system layer: the calls themselves, every path handed over as its bytes",
    "Sources/Places/": "the place layer: LocalPlace (and the edit's safe placement) meet the local file system here",
    "Sources/FileSystemKit/": "the local place's parts: DirectoryLister, FileOperation, FileCopier, TrashCan, "
                              "VolumeCapabilities, the volume monitor, FileFinder's walk, the undo journal",
    "Sources/ThumbnailKit/": "the engine: the freedesktop cache's own files, shared repositories, the batch's walk, "
                             "the worker processes and the service's socket",
    "Sources/Providers/": "the engine: the worker's decoders open the file they were handed",
    "Sources/Editors/": "the engine: lossless edits write their result in the worker",
    "Sources/ThumbnailWorker/": "the engine: the worker loop and its limits",
}

# Files above the place layer that make a call of FILE_CALLS all the same: the calls allowed, and why.
FILE_CALLS_ALLOWED = {
    "Sources/TerminalGraphics/TerminalProbe.swift": ({"open"}, "opens /dev/tty: the terminal, not an item of a place"),
    "Sources/qlbrowse/PreviewCommand.swift": ({"open"}, "opens /dev/tty: the terminal, not an item of a place"),
    "Sources/BrowserUI/Shell/BrowserApp.swift": ({"open"}, "`open(_:kind:)` is the app's own method (a file handed to the user's program)"),
    "Sources/BrowserUI/Shell/ChildProcess.swift": ({"posix_spawn_file_actions_addopen", "strdup"},
                                                   "process plumbing: /dev/null for a child, copies of its arguments"),
    "Sources/BrowserUI/Shell/SoundPlayer.swift": ({"posix_spawn_file_actions_addopen", "strdup"},
                                                  "process plumbing: /dev/null for the player, copies of its arguments"),
    "Sources/BrowserUI/Shell/BookmarkFile.swift": ({"stat"}, "the bookmarks file is the program's own state, as config.toml is"),
    "Sources/BrowserUI/Shell/NamesEditor.swift": ({"unlink"}, "the program's own temporary file for $EDITOR"),
    "Sources/qlbrowse/BrowseCommand.swift": ({"open", "stat"}, "the program's own output files: the log and --choosedir"),
    "Sources/qlbrowse/ThumbnailCommand.swift": ({"access"}, "whether this user may write the engine's output into the -o folder"),
    "Sources/qlbrowse/ThumbnailCall+Cached.swift": ({"stat", "access", "lstat"},
                                                   "a cached call answered before anything starts: the -o folder and the cache's own folders, on paths LocalDiskPath vouched for as local disks"),
    "Sources/qlbrowse/SupportedTypesMemo.swift": ({"stat"}, "the worker executable's identity, the key of the program's own cached type list"),
    "Sources/qlbrowse/CacheCommand.swift": ({"access", "lstat", "opendir", "readdir", "unlink"},
                                            "the thumbnail cache's own files (the engine's), and whether a cached original is gone"),
}

# The files that may import BrowserUI: the browse command and its --theme.
BROWSER_UI_IMPORTERS = {"Sources/qlbrowse/BrowseCommand.swift", "Sources/qlbrowse/ThemeLoader.swift"}


def check_place_layer(root, targets, below=None, allowed_calls=None, ui_importers=None):
    """File-system calls only below the place layer or as FILE_CALLS_ALLOWED says; BrowserUI
    imported only by the browse command. (The keyword arguments replace the tables, for tests.)"""
    below = BELOW_THE_PLACES if below is None else below
    allowed_calls = FILE_CALLS_ALLOWED if allowed_calls is None else allowed_calls
    ui_importers = BROWSER_UI_IMPORTERS if ui_importers is None else ui_importers
    problems = []
    for target in targets:
        if not target.path or not target.path.startswith("Sources"):
            continue
        for path in swift_files(root, target.path):
            text = read(root, path)
            if "BrowserUI" in {module for _, module in imports(text)} and path not in ui_importers:
                problems.append(f"{path}:1: imports BrowserUI: only the browse command links the terminal UI")
            if any(path.startswith(folder) for folder in below):
                continue
            allowed = allowed_calls.get(path, (set(), ""))[0]
            masked = mask(text)
            for match in FILE_CALL.finditer(masked):
                name = match.group(1) or match.group(2)
                if name not in allowed:
                    line = masked.count("\n", 0, match.start()) + 1
                    problems.append(f"{path}:{line}: {name} reaches the file system above the place layer: ask a Place "
                                    f"(Sources/Places), or name the call and why in FILE_CALLS_ALLOWED")
    return problems


TYPE_DECLARATION = re.compile(r"\b(enum|struct|class|actor)\s+(\w+)\b[^{};=]*\{")
STORED_OPTIONAL = re.compile(
    r"(?:^|(?<=;))[ \t]*(?:@\w+(?:\([^)\n]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|open)(?:\(set\))?\s+)*"
    r"(?:(?:weak|unowned|lazy|nonisolated|final|override|dynamic)\s+)*(?:var|let)\s+\w+\s*:\s*([^={;\n]+?)\s*(=|\{|;|$)", re.M)


def _top_level(masked, start, end):
    """masked[start:end] with everything inside braces blanked (newlines kept): a type body's
    own declarations, without its members' bodies or nested types."""
    out, depth = [], 0
    for c in masked[start:end]:
        if c == "}":
            depth -= 1
        out.append(c if depth == 0 or c == "\n" else " ")
        if c == "{":
            depth += 1
    return "".join(out)


def _case_count(body, k):
    """How many cases the `case` clause at k declares (commas outside brackets, up to the end of
    the statement)."""
    depth, count = 0, 1
    for c in body[k + 4:]:
        if c in "([<":
            depth += 1
        elif c in ")]>":
            depth -= 1
        elif c == "," and depth == 0:
            count += 1
        elif c in "\n;" and depth <= 0:
            break
    return count


def type_vocabularies(text):
    """[(line, kind, name, cases, optional stored properties)] of the types a Swift file declares."""
    masked = mask(text)
    found = []
    for match in TYPE_DECLARATION.finditer(masked):
        kind, name = match.group(1), match.group(2)
        if name in ("func", "var", "let", "subscript", "init"):
            continue  # `class func`, `class var`
        open_brace = match.end() - 1
        body = _top_level(masked, open_brace + 1, closing_bracket(masked, open_brace))
        cases = sum(_case_count(body, m.start()) for m in re.finditer(r"(?<![\w.])case\b", body)) if kind == "enum" else 0
        optionals = 0
        if kind != "enum":
            for prop in STORED_OPTIONAL.finditer(body):
                stored = prop.group(2) != "{" or re.search(r"\b(didSet|willSet)\b", masked[open_brace:][prop.start():prop.start() + 400])
                line_start = body.rfind("\n", 0, prop.start()) + 1
                if stored and not re.search(r"\b(static|class)\s", body[line_start:prop.start() + 1] + body[prop.start():prop.end()]):
                    type_text = prop.group(1).strip()
                    optionals += type_text.endswith(("?", "!")) or type_text.startswith("Optional<")
        found.append((masked.count("\n", 0, match.start()) + 1, kind, name, cases, optionals))
    return found


def check_vocabularies(root, allowed=None):
    """Enums over MAX_ENUM_CASES cases and types over MAX_OPTIONAL_PROPERTIES optional stored
    properties, but for the names in `allowed` (VOCABULARY_ALLOWED)."""
    allowed = VOCABULARY_ALLOWED if allowed is None else allowed
    problems = []
    for path in swift_files(root, "Sources"):
        for line, kind, name, cases, optionals in type_vocabularies(read(root, path)):
            for what, count, limit in (("cases", cases, MAX_ENUM_CASES), ("optional properties", optionals, MAX_OPTIONAL_PROPERTIES)):
                if count <= limit:
                    continue
                if name in allowed:
                    continue
                problems.append(f"{path}:{line}: {kind} {name} has {count} {what}, more than {limit}: split it "
                                f"(one payload per case, a small struct per concern); see VOCABULARY_ALLOWED")
    return problems


# --- The diagram ----------------------------------------------------------------------------------

def diagram(root, targets):
    """The module tree: executables first, each module with its direct dependencies below it (a
    module already drawn is shown again as `name …`), the C modules it uses beside it."""
    by_name = {t.name: t for t in targets}
    c_modules = c_module_names(root, targets)
    modules = [t for t in targets if t.kind != "testTarget" and t.name not in c_modules]
    heights = {}

    def height(name):  # the longest chain of package modules below
        if name not in heights:
            target = by_name.get(name)
            below = [d for d in target.dependencies if d in by_name and d not in c_modules] if target else []
            heights[name] = 1 + max((height(d) for d in below), default=0)
        return heights[name]

    used = {d for t in modules for d in t.dependencies}
    roots = [t for t in modules if t.kind == "executableTarget"]
    roots += [t for t in modules if t.kind != "executableTarget" and t.name not in used]
    rows, drawn = [], set()

    def draw(name, prefix, branch, last):
        target = by_name.get(name)
        label = prefix + branch + name
        if target is None:
            owner = next((t.products[name] for t in modules if name in t.products), None)
            rows.append((label, f"product of {owner}" if owner else "external"))
            return
        if name in drawn:
            rows.append((label + " …", ""))
            return
        drawn.add(name)
        notes = "executable" if target.kind == "executableTarget" else ""
        c_used = [d for d in target.dependencies if d in c_modules]
        if c_used:
            notes += ("; " if notes else "") + "C: " + ", ".join(c_used)
        rows.append((label, notes))
        children = [d for d in target.dependencies if d not in c_modules]
        children.sort(key=lambda d: -height(d))  # stable: the order written breaks ties
        inner = prefix + ("" if not branch else "   " if last else "│  ")
        for k, child in enumerate(children):
            is_last = k == len(children) - 1
            draw(child, inner, "└─ " if is_last else "├─ ", is_last)

    for root_target in roots:
        draw(root_target.name, "", "", True)
    width = max((len(label) for label, _ in rows), default=0) + 2
    return "".join((label.ljust(width) + notes).rstrip() + "\n" for label, notes in rows)


def doc_block(root, targets):
    return f"{MARKER_BEGIN}\n```\n{diagram(root, targets)}```\n{MARKER_END}"


def _block_span(text):
    begin, end = text.find(MARKER_BEGIN), text.find(MARKER_END)
    if begin < 0 or end < begin:
        return None
    return begin, end + len(MARKER_END)


def check_doc(root, doc, targets):
    text = read(root, doc)
    span = _block_span(text)
    if span is None:
        return [f"{doc}:1: no {MARKER_BEGIN} … {MARKER_END} block for the module diagram"]
    expected = doc_block(root, targets)
    if text[span[0]:span[1]] == expected:
        return []
    line = text.count("\n", 0, span[0]) + 1
    diff = difflib.unified_diff(text[span[0]:span[1]].splitlines(), expected.splitlines(), "in the doc", "from Package.swift", lineterm="")
    return [f"{doc}:{line}: the module diagram differs from Package.swift "
            f"(scripts/architecture.py --write-doc {doc} rewrites it)\n" + "\n".join("    " + d for d in diff)]


def write_doc(root, doc, targets):
    text = read(root, doc)
    span = _block_span(text)
    if span is None:
        raise SystemExit(f"{doc}: no {MARKER_BEGIN} … {MARKER_END} block to rewrite; add the two markers first")
    with open(os.path.join(root, doc), "w", encoding="utf-8") as f:
        f.write(text[:span[0]] + doc_block(root, targets) + text[span[1]:])


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the package's root folder (default: the one holding this script)")
    parser.add_argument("--max-lines", type=int, default=300, help="longest Swift file allowed in Sources (300)")
    parser.add_argument("--check-doc", metavar="FILE", help="also check FILE's module diagram (relative to the root)")
    parser.add_argument("--diagram", action="store_true", help="print the module diagram and stop")
    parser.add_argument("--write-doc", metavar="FILE", help="rewrite FILE's module diagram block and stop")
    args = parser.parse_args(argv)

    targets = parse_package(read(args.root, "Package.swift"))
    if args.diagram:
        sys.stdout.write(diagram(args.root, targets))
        return 0
    if args.write_doc:
        write_doc(args.root, args.write_doc, targets)
        return 0
    problems = check_file_lengths(args.root, args.max_lines)
    problems += check_c_imports(args.root, targets)
    problems += check_declared_imports(args.root, targets)
    problems += check_path_calls(args.root, targets)
    problems += check_place_layer(args.root, targets)
    problems += check_vocabularies(args.root)
    if args.check_doc:
        problems += check_doc(args.root, args.check_doc, targets)
    for problem in problems:
        print(problem)
    print(f"architecture: {len(problems)} problem(s)" if problems else "architecture: all checks pass",
          file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
