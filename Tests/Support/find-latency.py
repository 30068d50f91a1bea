#!/usr/bin/python3
"""`F` among 100,000 files as a user meets it, read from the rendered screen (pyte).

usage: find-latency.py QLBROWSE WORKDIR [--files N] [--trials N] [--strict]

The tree: N files (100,000 by default) in folders of 500, four levels deep, and one
`quarterly-report-2023.pdf` four folders down. Each trial opens `F`, types `qrep23` a key at a
time, and times the first screen showing the file after the last key. Meanwhile each key's time
to the next screen update is taken (the UI answering while the walk and the ranking run).

Checks, one PASS/FAIL line each: the file is found in every trial; every key answered; Enter goes
to its folder with the cursor on it. The times are printed; with `--strict` (Benchmarks/find.py,
on a release build) they are targets too: first result after the last key p99 <= 200 ms, each
key's answer p99 <= 100 ms. Exit status 0 when all pass.
"""
import argparse, os, shutil, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptybrowser import Browser, summarize  # noqa: E402


def make_tree(root, files):
    per_folder = 500
    made = 0
    index = 0
    while made < files:
        folder = os.path.join(root, 'd%d' % (index % 10), 'e%d' % (index // 10 % 10), 'f%d' % (index // 100))
        os.makedirs(folder, exist_ok=True)
        for number in range(min(per_folder, files - made)):
            open(os.path.join(folder, 'file%06d.txt' % (made + number)), 'w').close()
        made += per_folder
        index += 1
    target = os.path.join(root, 'd3', 'e7', 'archive', 'q4')
    os.makedirs(target, exist_ok=True)
    open(os.path.join(target, 'quarterly-report-2023.pdf'), 'w').close()
    return target


def percentile(samples, fraction):
    samples = sorted(samples)
    return samples[min(len(samples) - 1, int(len(samples) * fraction))] if samples else float('nan')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('qlbrowse')
    parser.add_argument('work')
    parser.add_argument('--files', type=int, default=100_000)
    parser.add_argument('--trials', type=int, default=10)
    parser.add_argument('--strict', action='store_true')
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    tree = os.path.join(work, 'tree')
    os.makedirs(tree)
    target = make_tree(tree, args.files)
    # Without --strict (a debug build in the test suite) the times are printed and only bounded loosely.
    first_target, key_target = (200, 100) if args.strict else (3000, 1000)
    env = {'TERM': 'xterm-256color', 'LANG': 'C.UTF-8', 'LC_ALL': 'C.UTF-8', 'XDG_CACHE_HOME': work + '/.cache',
           'XDG_STATE_HOME': work + '/.state', 'XDG_CONFIG_HOME': work + '/.config', 'QLBROWSE_NO_SERVICE': '1'}
    results = []
    browser = Browser([args.qlbrowse, '--graphics', 'none', tree], env)
    try:
        browser.wait_for('sort:name', 10)
        found, firsts, keys = 0, [], []
        for trial in range(args.trials):
            browser.send(b'F')
            browser.wait_for('Find below', 3)
            for letter in b'qrep23':
                sent = time.time()
                browser.send(bytes([letter]))
                first = browser.pump(1.0, quiet=0.02)
                if first is not None:
                    keys.append((first - sent) * 1000)
            last_key = time.time()
            shown = browser.wait_for('quarterly-report-2023.pdf', 5)
            if shown is not None:
                found += 1
                firsts.append((time.time() - last_key) * 1000 if shown > 0 else 0.0)
            if trial < args.trials - 1:
                browser.send(b'\x1b')
                browser.pump(0.3)
                # The next F only once the Esc has been read: a busy browser that finds Esc and F
                # together in its input reads them as Alt-F (seen in CI: 4 of 5 trials found).
                gone = time.time() + 10
                while 'Find below' in browser.text() and time.time() < gone:
                    browser.pump(0.1)
        results.append(('the file four folders down is found in every trial', found == args.trials, '%d of %d' % (found, args.trials)))
        results.append(('first result after the last key: p99 <= %d ms' % first_target, found and percentile(firsts, 0.99) <= first_target,
                        'p50 %.1f ms, p99 %.1f ms over %d trials' % (percentile(firsts, 0.5), percentile(firsts, 0.99), len(firsts))))
        results.append(('every key answered while the walk and the ranking run: p99 <= %d ms' % key_target,
                        len(keys) == 6 * args.trials and percentile(keys, 0.99) <= key_target,
                        '%d/%d, p50 %.1f ms, p99 %.1f ms' % (len(keys), 6 * args.trials, percentile(keys, 0.5), percentile(keys, 0.99))))
        browser.send(b'\r')
        went = browser.wait_for(' ' + target, 5, row=0) is not None and browser.wait_for('1/1 ', 3) is not None
        results.append(('Enter goes to its folder, the cursor on it', went, browser.screen.display[0].strip()))
        results.append(browser.quit())
    finally:
        try:
            browser.kill()
        except (ProcessLookupError, ChildProcessError):
            pass
    return summarize(results, work)


if __name__ == '__main__':
    sys.exit(main())
