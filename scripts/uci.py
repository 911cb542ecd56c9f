"""A minimal UCI engine driver shared by the scripts here (search_speed.py,
stop_latency.py, tm_bench.py, fsf_label.py, book.py): start an engine for Sittuyin, send
lines, read until a line that ends the wait, score a position.

Import it from a script in this directory with

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from uci import Engine

Reads have no timeout: an engine that exits raises RuntimeError; one that stops answering
stops the script.
"""

import subprocess


class Engine:
    """An engine process, initialised for Sittuyin with the given UCI options."""

    def __init__(self, path, options=None, variant="sittuyin", stderr=None, env=None):
        """`stderr`: a file to keep the engine's diagnostics in (default: dropped); `env`:
        the process's environment (default: this one's), e.g. with RUST_LOG set."""
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=stderr or subprocess.DEVNULL, env=env, text=True,
                                  bufsize=1)
        self.send("uci")
        self.until("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        for name, value in (options or {}).items():
            self.send(f"setoption name {name} value {value}")
        self.sync()

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, done):
        """Reads lines up to and including the first that starts with `done` (a string) or
        satisfies it (a function); returns them all, without their line ends."""
        test = done if callable(done) else (lambda line: line.startswith(done))
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.rstrip("\n")
            lines.append(line)
            if test(line):
                return lines

    def sync(self):
        """`isready` and waits for `readyok`: everything sent before has been handled."""
        self.send("isready")
        self.until("readyok")

    def score(self, fen, limit):
        """Searches `fen` with `go LIMIT` (e.g. "depth 8", "nodes 100000") and returns the
        last score reported, in centipawns from the side to move, or None for a mate."""
        self.send(f"position fen {fen}")
        self.send(f"go {limit}")
        cp = None
        for line in self.until("bestmove"):
            if line.startswith("info") and " score " in line:
                t = line.split()
                i = t.index("score")
                cp = int(t[i + 2]) if t[i + 1] == "cp" else None
        return cp

    def close(self, timeout=5):
        """`quit`, then waits up to `timeout` seconds (None: for ever) and kills an engine
        that is still running or cannot be written to."""
        try:
            self.send("quit")
            self.p.wait(timeout=timeout)
        except Exception:
            self.p.kill()
