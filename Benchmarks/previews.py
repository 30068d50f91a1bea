#!/usr/bin/python3
"""Latency of Quick Look previews in the worker, measured on its pipe protocol (no browser).

Usage: Benchmarks/previews.py [--worker PATH] [--pdf FILE] [--video FILE] [--box 1400x900] [--runs N]

Starts one `qlbrowse-thumbnailer` (release build by default), then times, from request written to
reply read: every page of the PDF in order and in random order (page render at the box size), and
frame requests at random times in the video (seeking). Prints p50/p90/max in milliseconds and, for
frames, how far before the asked time the frame shown was (keyframes).
"""
import argparse, json, os, random, statistics, struct, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def send(proc, message):
    header = json.dumps(message).encode()
    proc.stdin.write(struct.pack("<II", len(header), 0) + header)
    proc.stdin.flush()


def receive(proc):
    lengths = proc.stdout.read(8)
    if len(lengths) < 8:
        raise SystemExit("the worker ended")
    header_length, payload_length = struct.unpack("<II", lengths)
    header = json.loads(proc.stdout.read(header_length))
    proc.stdout.read(payload_length)
    return header


def timed(proc, message):
    start = time.perf_counter()
    send(proc, message)
    while True:
        reply = receive(proc)
        if reply["kind"] in ("preview", "failure"):
            return (time.perf_counter() - start) * 1000, reply


def summary(name, values):
    values = sorted(values)
    p = lambda q: values[min(len(values) - 1, int(q * len(values)))]
    print(f"{name}: n={len(values)} p50={p(0.5):.1f} ms p90={p(0.9):.1f} ms max={values[-1]:.1f} ms")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--worker", default=os.path.join(ROOT, ".build/release/qlbrowse-thumbnailer"))
    parser.add_argument("--pdf", default=os.path.join(ROOT, ".fixtures/small/pages12.pdf"))
    parser.add_argument("--video", default=os.path.join(ROOT, ".fixtures/small/long-1080p.mp4"))
    parser.add_argument("--box", default="1400x900")
    parser.add_argument("--runs", type=int, default=40)
    args = parser.parse_args()
    width, height = map(int, args.box.split("x"))
    proc = subprocess.Popen([args.worker], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    ids = iter(range(1, 1 << 30))
    request = lambda **fields: dict(kind="request", id=next(ids), maxWidth=width, maxHeight=height, **fields)
    rng = random.Random(7)

    _, first = timed(proc, request(preview="page", path=os.path.abspath(args.pdf), page=0))  # warm-up
    if first["kind"] == "failure":
        raise SystemExit(f"page: {first.get('reason')}")
    count = first["pageCount"]
    order = list(range(count)) * max(1, args.runs // count)
    summary(f"page {width}x{height}, in order ({count} pages)", [timed(proc, request(preview="page", path=os.path.abspath(args.pdf), page=i))[0] for i in order])
    rng.shuffle(order)
    summary(f"page {width}x{height}, random pages", [timed(proc, request(preview="page", path=os.path.abspath(args.pdf), page=i))[0] for i in order])

    _, facts = timed(proc, request(preview="mediaFacts", path=os.path.abspath(args.video)))
    duration = facts.get("duration") or 10
    times, behind = [], []
    for _ in range(args.runs):
        asked = rng.uniform(0, duration)
        ms, reply = timed(proc, request(preview="frame", path=os.path.abspath(args.video), seconds=asked))
        if reply["kind"] == "failure":
            raise SystemExit(f"frame: {reply.get('reason')}")
        times.append(ms)
        behind.append(asked - reply["shownSeconds"])
    summary(f"frame seek {width}x{height} in {os.path.basename(args.video)} ({duration:.0f} s)", times)
    print(f"  shown before the asked time: p50={statistics.median(behind):.2f} s max={max(behind):.2f} s")
    # Stepping on from the last frame (fine seek forward, playing): the worker decodes on, no seek.
    for step in (1.0, 0.1):
        times, behind, asked = [], [], rng.uniform(0, duration / 2)
        for _ in range(args.runs):
            asked = min(asked + step, duration)
            ms, reply = timed(proc, request(preview="frame", path=os.path.abspath(args.video), seconds=asked))
            times.append(ms)
            behind.append(asked - reply["shownSeconds"])
        summary(f"frame every {step} s onward", times)
        print(f"  shown before the asked time: p50={statistics.median(behind):.2f} s max={max(behind):.2f} s")
    proc.stdin.close()
    proc.wait()


if __name__ == "__main__":
    main()
