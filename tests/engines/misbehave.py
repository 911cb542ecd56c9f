#!/usr/bin/env python3
"""A misbehaving UCI engine for the referee tests of `sitke match`: a proxy in front of
a real engine (Fairy-Stockfish by default) that passes every line through, except that
it misbehaves on the Nth `bestmove` it would send in a game (counted from `ucinewgame`,
or from its start):

    --mode illegal   sends `bestmove a1h8` instead (never legal in Sittuyin)
    --mode crash     prints a note on stderr and exits with status 3 instead
    --mode slow      holds the bestmove back for --delay seconds first
    --mode mute      never answers anything (not even `uci`)

Usage: misbehave.py --mode MODE [--at N] [--delay S] [--engine PATH]
"""

import argparse
import os
import subprocess
import sys
import threading
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["illegal", "crash", "slow", "mute"], required=True)
    ap.add_argument("--at", type=int, default=5)
    ap.add_argument("--delay", type=float, default=5.0)
    ap.add_argument("--engine", default="/usr/games/fairy-stockfish")
    args = ap.parse_args()

    if args.mode == "mute":
        # Read and ignore everything until the runner gives up and kills us.
        for _ in sys.stdin:
            pass
        return

    child = subprocess.Popen([args.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)

    answered = [0]

    def upstream():
        for line in sys.stdin:
            if line.strip() == "ucinewgame":
                answered[0] = 0
            try:
                child.stdin.write(line)
                child.stdin.flush()
            except BrokenPipeError:
                break
        try:
            child.stdin.close()
        except BrokenPipeError:
            pass

    threading.Thread(target=upstream, daemon=True).start()
    for line in child.stdout:
        if line.startswith("bestmove"):
            answered[0] += 1
            if answered[0] == args.at:
                if args.mode == "illegal":
                    line = "bestmove a1h8\n"
                elif args.mode == "crash":
                    print("misbehave.py: crashing on purpose", file=sys.stderr, flush=True)
                    child.kill()
                    os._exit(3)
                elif args.mode == "slow":
                    time.sleep(args.delay)
        sys.stdout.write(line)
        sys.stdout.flush()
    child.wait()


if __name__ == "__main__":
    main()
