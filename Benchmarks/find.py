#!/usr/bin/python3
"""Finding names, side by side in one run: `qlbrowse find` against fd on the same tree, and `F`
in the browser as a user types.

1. A tree of FILES files (1,000,000 by default) in folders of 500, four levels deep, and one
   `quarterly-report-2023.pdf` four folders down (Tests/Support/find-latency.py makes it, once:
   kept in BENCH_DIR between runs).
2. One file: `qlbrowse find --all qrep23 TREE` against `fdfind quarterly TREE`; many files:
   `qlbrowse find --all file0000 TREE` against `fdfind file0000 TREE` (fuzzy and regular
   expressions do not find the same set; the counts are printed). For each, the time to the first
   line and to the end (best of RUNS), and the ratios. Target: <= 1.0x fd to the end.
3. `F` in the browser (pyte, Tests/Support/find-latency.py): the first result after the last key,
   p99 over 10 trials. Target: <= 200 ms.

usage: Benchmarks/find.py [--qlbrowse PATH] [--files N] [--runs N]
"""
import argparse, os, select, shutil, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.environ.get('BENCH_DIR', '/tmp/qlbrowse-bench')
sys.path.insert(0, os.path.join(ROOT, 'Tests', 'Support'))


def load_latency_module():
    import importlib.util
    spec = importlib.util.spec_from_file_location('find_latency', os.path.join(ROOT, 'Tests', 'Support', 'find-latency.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(command):
    """(seconds to the first line, seconds to the end, lines)."""
    start = time.time()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    first, lines = None, 0
    while True:
        chunk = process.stdout.read1(1 << 16)
        if not chunk:
            break
        if first is None:
            first = time.time() - start
        lines += chunk.count(b'\n')
    process.wait()
    return (first if first is not None else float('nan')), time.time() - start, lines


def best_of(command, runs):
    results = [timed(command) for _ in range(runs)]
    return min(r[0] for r in results), min(r[1] for r in results), results[0][2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--qlbrowse', default=os.path.join(ROOT, '.build', 'release', 'qlbrowse'))
    parser.add_argument('--files', type=int, default=1_000_000)
    parser.add_argument('--runs', type=int, default=3)
    args = parser.parse_args()
    fd = shutil.which('fdfind') or shutil.which('fd')
    if fd is None:
        sys.exit('fd is not installed (Debian package fd-find)')
    support = load_latency_module()
    tree = os.path.join(BENCH, 'find-%d' % args.files)
    if not os.path.exists(os.path.join(tree, '.complete')):
        shutil.rmtree(tree, ignore_errors=True)
        os.makedirs(tree)
        print('making %d files in %s…' % (args.files, tree), flush=True)
        support.make_tree(tree, args.files)
        open(os.path.join(tree, '.complete'), 'w').close()
    timed([fd, 'warm-the-page-cache', tree])
    print('%-30s %12s %12s %10s' % ('', 'first line', 'all', 'matches'))
    failures = 0
    for label, ours, theirs in [('one file, four folders down', ['find', '--all', 'qrep23'], ['quarterly']),
                                ('many files', ['find', '--all', 'file0000'], ['file0000'])]:
        mine = best_of([args.qlbrowse] + ours + [tree], args.runs)
        other = best_of([fd] + theirs + [tree], args.runs)
        ratio = mine[1] / other[1]
        print('%-30s %10.3f s %10.3f s %10d   qlbrowse find' % (label, mine[0], mine[1], mine[2]))
        print('%-30s %10.3f s %10.3f s %10d   fd' % ('', other[0], other[1], other[2]))
        verdict = 'PASS' if ratio <= 1.0 else 'FAIL'
        failures += verdict == 'FAIL'
        print('%-30s first %.2fx, all %.2fx fd   %s (target <= 1.0x to the end)' % ('', mine[0] / other[0], ratio, verdict))
    work = os.path.join(BENCH, 'find-ui')
    result = subprocess.run([sys.executable, os.path.join(ROOT, 'Tests', 'Support', 'find-latency.py'), args.qlbrowse, work,
                             '--files', str(args.files), '--strict'], capture_output=True, text=True)
    print(result.stdout.strip())
    failures += result.returncode != 0
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
