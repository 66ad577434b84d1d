#!/usr/bin/env python3
"""Rewrites a committed corpus as at most --max inputs that keep as much of
the coverage of the given inputs as fits (fuzz/README.md, "Refreshing a
corpus").

libFuzzer's -merge=1 keeps every input that adds an edge, which for these
harnesses is several hundred (each SIMD instance, type and layout is code of
its own). This runs the harness's merge once to learn each input's features
(edges, -use_counters=0) from the merge control file, then picks inputs
greedily, the one adding the most features first, until --max are chosen or
nothing more is added.

usage: trim_corpus.py HARNESS OUTPUT_DIR INPUT_DIR... [--max N]
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile


def features_of_inputs(harness, input_dirs):
    """Runs the harness's merge; returns {path: set of features}."""
    with tempfile.TemporaryDirectory() as scratch:
        control = os.path.join(scratch, "control")
        empty = os.path.join(scratch, "empty")
        os.mkdir(empty)
        environment = dict(os.environ, ASAN_OPTIONS="detect_leaks=0")
        subprocess.run([harness, "-merge=1", "-use_counters=0", "-merge_control_file=" + control, empty]
                       + input_dirs, check=True, env=environment, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(control) as f:
            lines = f.read().splitlines()
    count = int(lines[0])
    paths = lines[2:2 + count]
    features = {}
    for line in lines[2 + count:]:
        fields = line.split()
        if fields and fields[0] == "FT":
            features[paths[int(fields[1])]] = set(fields[2:])
    return features


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("harness")
    parser.add_argument("output")
    parser.add_argument("inputs", nargs="+")
    parser.add_argument("--max", type=int, default=100)
    args = parser.parse_args()

    features = features_of_inputs(args.harness, args.inputs)
    everything = set().union(*features.values()) if features else set()
    covered, chosen = set(), []
    # Smallest first among equals, so that the picks stay short.
    candidates = sorted(features, key=lambda p: (os.path.getsize(p), p))
    while len(chosen) < args.max:
        best = max(candidates, key=lambda p: len(features[p] - covered), default=None)
        if best is None or not features[best] - covered:
            break
        chosen.append(best)
        covered |= features[best]
        candidates.remove(best)

    # Read everything first: an output directory may also be an input.
    contents = []
    for path in chosen:
        with open(path, "rb") as f:
            contents.append(f.read())
    shutil.rmtree(args.output, ignore_errors=True)
    os.makedirs(args.output)
    for data in contents:
        with open(os.path.join(args.output, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    print(f"{args.output}: {len(chosen)} of {len(features)} inputs, "
          f"{len(covered)} of {len(everything)} features, {sum(map(len, contents))} bytes")


if __name__ == "__main__":
    sys.exit(main())
