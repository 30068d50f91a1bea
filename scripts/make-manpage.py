#!/usr/bin/python3
"""Write the qlbrowse(1) manual page (roff, man macros) to standard output.

Usage:
  scripts/make-manpage.py --qlbrowse PATH [--readme README.md] [--date YYYY-MM-DD]

Everything that describes the command comes from the built binary, so the page cannot drift from
it: `qlbrowse --version`, `qlbrowse --help` and `qlbrowse help SUBCOMMAND …` for every subcommand
(nested ones too), as ArgumentParser prints them. The key table and the config file example come
from the README ("### The browser"). FILES, ENVIRONMENT and SEE ALSO are written here.

Check the result with:
  groff -man -Tutf8 -ww -z qlbrowse.1     (no output means no warnings)
  man -l qlbrowse.1
Stdlib only.
"""
import argparse
import re
import subprocess
import sys

SECTION = re.compile(r"^([A-Z][A-Z ]*):(?: (.*))?$")
ENTRY = re.compile(r"^  (\S.*?)(?: {2,}(\S.*))?$")
CONTINUATION = re.compile(r"^ {6,}(\S.*)$")


def help_text(binary, path):
    """`qlbrowse help PATH…` (or `--help` for the root); a failure stops the generator."""
    command = [binary, "help", *path] if path else [binary, "--help"]
    result = subprocess.run(command, capture_output=True, text=True, env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"})
    if result.returncode != 0:
        sys.exit(f"make-manpage: {' '.join(command)} failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def parse_help(text):
    """Splits ArgumentParser help into overview, discussion, usage and (name, description) lists."""
    parsed = {"overview": "", "discussion": [], "usage": "", "ARGUMENTS": [], "OPTIONS": [], "SUBCOMMANDS": []}
    section = None
    paragraph = []

    def end_paragraph():
        if paragraph and section == "discussion":
            parsed["discussion"].append(" ".join(paragraph))
        paragraph.clear()

    for line in text.splitlines():
        match = SECTION.match(line)
        if match and match.group(1) in ("OVERVIEW", "USAGE", "ARGUMENTS", "OPTIONS", "SUBCOMMANDS"):
            end_paragraph()
            section = match.group(1)
            if section == "OVERVIEW":
                parsed["overview"] = match.group(2) or ""
            elif section == "USAGE":
                parsed["usage"] = match.group(2) or ""
            continue
        if section == "OVERVIEW":
            if line.strip():
                parsed["overview"] += " " + line.strip()
            else:
                section = "discussion"
        elif section == "discussion":
            if line.strip():
                paragraph.append(line.strip())
            else:
                end_paragraph()
        elif section in ("ARGUMENTS", "OPTIONS", "SUBCOMMANDS"):
            if not line.strip() or line.strip().startswith("See '"):
                continue
            continued = CONTINUATION.match(line)
            entries = parsed[section]
            if continued and entries:
                name, description = entries[-1]
                entries[-1] = (name, (description + " " + continued.group(1)).strip())
                continue
            entry = ENTRY.match(line)
            if entry:
                entries.append((entry.group(1), entry.group(2) or ""))
    end_paragraph()
    return parsed


def without_machine_defaults(description):
    """Drops a second "(default: N)" that only repeats this machine's value after a described default
    ("--jobs … (default: one per core). (default: 2)"): the page must not depend on the build host."""
    if description.count("(default:") > 1:
        description = re.sub(r"\s*\(default: [^()]*\)\s*$", "", description)
    return description


def roff(text):
    """Escapes text for roff: backslashes, leading control characters, option dashes, non-ASCII."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"(?<![\w-])-(?=[\w-])", r"\\-", text)
    text = re.sub(r"(?<=\\-)-", r"\\-", text)
    text = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in text)
    text = text.replace("'", "\\(aq").replace("`", "\\(ga")
    if text.startswith("."):
        text = "\\&" + text
    return text


def inline_code(text):
    """README cells: `code` becomes bold, the rest is escaped."""
    parts = re.split(r"`([^`]*)`", text)
    return "".join(f"\\fB{roff(part)}\\fR" if index % 2 else roff(part) for index, part in enumerate(parts))


def readme_keys(readme):
    """The rows of the key table under "### The browser" as (keys, description)."""
    rows, inside = [], False
    for line in readme.splitlines():
        if line.startswith("### The browser"):
            inside = True
        elif inside and line.startswith("#"):
            break
        elif inside and line.startswith("|") and not line.startswith("|---") and not line.startswith("| keys"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if len(cells) >= 2:
                rows.append((re.findall(r"`([^`]+)`", cells[0]), cells[1]))
    if not rows:
        sys.exit("make-manpage: no key table under '### The browser' in the README")
    return rows


def readme_config(readme):
    """The config.toml example block of the README."""
    match = re.search(r"```toml\n(.*?)```", readme, re.S)
    if not match:
        sys.exit("make-manpage: no ```toml block in the README")
    return match.group(1).rstrip("\n").splitlines()


def entries(lines, items, skip=("--version", "-h, --help")):
    for name, description in items:
        if name in skip:
            continue
        lines += [".TP", "\\fB" + roff(name) + "\\fR", roff(without_machine_defaults(description)) or "\\&"]


def subcommand_pages(binary, path, lines):
    """One .SS per subcommand (depth first), from `qlbrowse help PATH…`."""
    parsed = parse_help(help_text(binary, path))
    if not parsed["SUBCOMMANDS"]:
        lines += [".SS " + roff("qlbrowse " + " ".join(path)), ".nf", roff(parsed["usage"]), ".fi", roff(parsed["overview"].strip())]
        for paragraph in parsed["discussion"]:
            lines += [".PP", roff(paragraph)]
        entries(lines, parsed["ARGUMENTS"])
        entries(lines, parsed["OPTIONS"])
        return
    for name, _ in parsed["SUBCOMMANDS"]:
        subcommand_pages(binary, path + [name.split()[0]], lines)


def main():
    arguments = argparse.ArgumentParser(description="Write qlbrowse(1) to standard output.")
    arguments.add_argument("--qlbrowse", required=True, help="the built qlbrowse binary")
    arguments.add_argument("--readme", default="README.md")
    arguments.add_argument("--date", default="", help="the page's date (the commit's), YYYY-MM-DD")
    options = arguments.parse_args()
    with open(options.readme, encoding="utf-8") as file:
        readme = file.read()

    version = subprocess.run([options.qlbrowse, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    root = parse_help(help_text(options.qlbrowse, []))
    browse = parse_help(help_text(options.qlbrowse, ["browse"]))
    lines = [
        f'.TH QLBROWSE 1 "{options.date}" "qlbrowse {roff(version)}" "User Commands"',
        ".nh",
        ".ad l",
        ".SH NAME",
        "qlbrowse \\- " + roff(root["overview"].strip().rstrip(".").replace("A terminal", "terminal", 1)),
        ".SH SYNOPSIS",
    ]
    for name, _ in root["SUBCOMMANDS"]:
        command = name.split()[0]
        if command == "browse":
            lines += [".B qlbrowse", roff("[browse] [PATH] [OPTIONS]"), ".br"]
        else:
            lines += [".B qlbrowse", roff(f"{command} …"), ".br"]
    lines += [".SH DESCRIPTION", roff(root["overview"].strip()), ".PP", roff(browse["overview"].strip())]
    for paragraph in browse["discussion"]:
        lines += [".PP", roff(paragraph)]
    lines += [".SH COMMANDS"]
    entries(lines, root["SUBCOMMANDS"])
    lines += [".SH OPTIONS", "Options of the browser (the default command):"]
    entries(lines, browse["OPTIONS"])
    entries(lines, root["OPTIONS"], skip=())
    lines += [".SH KEYS", "In the browser (rebind them in the config file):"]
    for keys, description in readme_keys(readme):
        lines += [".TP", " ".join(f"\\fB{roff(key)}\\fR" for key in keys), inline_code(description)]
    lines += [".SH SUBCOMMANDS"]
    for name, _ in root["SUBCOMMANDS"]:
        if name.split()[0] != "browse":
            subcommand_pages(options.qlbrowse, [name.split()[0]], lines)
    lines += [".SH CONFIGURATION", roff("$XDG_CONFIG_HOME/qlbrowse/config.toml (mistakes are reported, not fatal):"),
              ".PP", ".RS", ".nf", *map(roff, readme_config(readme)), ".fi", ".RE"]
    files = [
        ("$XDG_CONFIG_HOME/qlbrowse/config.toml", "The configuration (default ~/.config/qlbrowse/config.toml)."),
        ("$XDG_CONFIG_HOME/qlbrowse/themes/NAME.theme", "Your themes, found by name."),
        ("/usr/share/qlbrowse/themes/", "The installed themes: default, light, high-contrast."),
        ("$XDG_CACHE_HOME/thumbnails/", "The freedesktop thumbnail cache shared with other file managers (default ~/.cache/thumbnails)."),
        ("$XDG_STATE_HOME/qlbrowse/qlbrowse.log", "Library warnings (default ~/.local/state/qlbrowse/qlbrowse.log)."),
        ("$XDG_RUNTIME_DIR/qlbrowse/service.sock", "The socket of the resident thumbnail service that thumbnail and preview start on demand "
         "(/tmp/qlbrowse-UID/ when XDG_RUNTIME_DIR is unset; the folder is 0700); service.pid beside it names the running service."),
        ("$XDG_STATE_HOME/qlbrowse/service.log", "What the service did: started, refused another user's connection, replaced, idle."),
        ("$XDG_DATA_HOME/Trash/", "The freedesktop trash (default ~/.local/share/Trash), shared with other file managers and trash-cli."),
        ("/usr/libexec/qlbrowse/qlbrowse-thumbnailer", "The worker process that decodes files; found beside qlbrowse or in ../libexec/qlbrowse/ from it."),
    ]
    lines += [".SH FILES"]
    for name, description in files:
        lines += [".TP", "\\fI" + roff(name) + "\\fR", roff(description)]
    environment = [
        ("QLBROWSE_THUMBNAILER", "The worker executable to use instead of the installed one."),
        ("QLBROWSE_NO_SERVICE", "Set to 1: thumbnail, preview and the browser decode in workers of their own, as with --no-service or service = false in config.toml."),
        ("XDG_RUNTIME_DIR", "Where the service's socket lives."),
        ("LS_COLORS", "Colours file names as ls(1) does."),
        ("NO_COLOR", "Turns colour off."),
        ("TERM, COLORTERM", "The terminal: a TERM with no terminfo entry falls back to xterm-256color or xterm; COLORTERM=truecolor draws block art in 24-bit colour."),
        ("TMUX, TMUX_PANE", "Inside tmux the outer terminal is asked through tmux, and allow-passthrough is turned on for this pane only while qlbrowse runs."),
        ("VISUAL, EDITOR, PAGER", "Open text files (default: less)."),
        ("XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_STATE_HOME, XDG_DATA_HOME", "Where the files above live."),
    ]
    lines += [".SH ENVIRONMENT"]
    for name, description in environment:
        lines += [".TP", "\\fB" + roff(name) + "\\fR", roff(description)]
    lines += [".SH NOTES", roff("Removing the package leaves your configuration, thumbnail cache, log and trash alone: "
                                 "the package has no maintainer scripts and never touches home folders."),
              ".SH SEE ALSO", "\\fBnnn\\fR(1), \\fBranger\\fR(1), \\fBtrash\\fR(1), \\fBxdg\\-open\\fR(1)"]
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
