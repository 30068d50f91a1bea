#!/usr/bin/python3
"""Runs a command as the leader of a fresh session and process group, waits for it to exit, then
reports every process still in that group.

Usage: process-group.py COMMAND ARG...
Prints one JSON object: {"status": exit status, "left": [[pid, command line], ...]}. The command's
standard output and error go to this script's standard error.
"""
import json
import os
import subprocess
import sys


def group_members(pgid):
    members = []
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open(f'/proc/{entry}/stat', 'rb') as handle:
                stat = handle.read().decode(errors='replace')
            # The command name is in parentheses and may hold spaces: the fields follow the last ')'.
            fields = stat[stat.rindex(')') + 2:].split()
            state, process_group = fields[0], int(fields[2])
            if process_group != pgid:
                continue
            with open(f'/proc/{entry}/cmdline', 'rb') as handle:
                command = handle.read().replace(b'\0', b' ').decode(errors='replace').strip()
            members.append([int(entry), f'{command} ({state})'])
        except (OSError, ValueError, IndexError):
            continue  # ended meanwhile
    return members


def main():
    child = subprocess.Popen(sys.argv[1:], start_new_session=True, stdin=subprocess.DEVNULL,
                             stdout=sys.stderr, stderr=sys.stderr)
    status = child.wait()
    # The command has exited and been reaped: whatever still carries its group id is left over.
    print(json.dumps({'status': status, 'left': group_members(child.pid)}))


if __name__ == '__main__':
    main()
