#!/usr/bin/env python3
"""A test engine that takes `points` at its word: it answers each request with the legal action
of the most points (the first of equals), and keeps no memory.

    maxpoints.py [LOG]

With LOG, every line it is sent is appended to that file as it arrives (the test of the online
bridge compares what it was sent online with what a local match sends).
"""

import json
import sys


def main():
    log = open(sys.argv[1], "a") if len(sys.argv) > 1 else None
    for line in sys.stdin:
        if log:
            log.write(line if line.endswith("\n") else line + "\n")
            log.flush()
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            out = {"type": "id", "name": "maxpoints.py", "options": []}
        elif kind == "request":
            points = msg["points"]
            best = max(range(len(points)), key=lambda i: (points[i], -i))
            out = {"type": "action", "id": msg["id"], "index": best}
        elif kind == "quit":
            return
        else:
            continue
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
