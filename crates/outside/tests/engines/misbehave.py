#!/usr/bin/env python3
"""A Five Up engine that answers well, then misbehaves: the engine tests' adversary.

    misbehave.py MODE [GOOD]

It answers its first GOOD requests (default 1) with the first legal action, then, by MODE:
  sleep     sleeps far past the clock instead of answering;
  illegal   answers an index outside the legal actions;
  garbage   answers with a line that is not JSON;
  exit      exits mid-game;
  flood     writes lines of garbage without end;
  longline  writes one line without end;
  silent    never answers the hello (nor anything else);
  wrongid   answers with an id that was never sent;
  blank     never misbehaves, but writes blank lines before each answer and a malformed eval;
  slow      never misbehaves, but sleeps GOOD milliseconds before each answer.
"""

import json
import sys
import time

mode = sys.argv[1]
good = int(sys.argv[2]) if len(sys.argv) > 2 else 1
answered = 0


def send(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    msg = json.loads(line)
    kind = msg["type"]
    if kind == "hello":
        if mode == "silent":
            time.sleep(3600)
        send(json.dumps({"type": "id", "name": "misbehave-" + mode, "version": "1"}))
    elif kind == "quit":
        break
    elif kind == "request":
        if mode == "blank":
            send("")
            send("   \t")
            send(json.dumps({"type": "action", "id": msg["id"], "index": 0, "eval": "fine"}))
        elif mode == "slow":
            time.sleep(good / 1000.0)
            send(json.dumps({"type": "action", "id": msg["id"], "index": 0}))
        elif answered < good:
            answered += 1
            send(json.dumps({"type": "action", "id": msg["id"], "index": 0}))
        elif mode == "sleep":
            time.sleep(3600)
        elif mode == "illegal":
            send(json.dumps({"type": "action", "id": msg["id"], "index": 999}))
        elif mode == "wrongid":
            send(json.dumps({"type": "action", "id": msg["id"] + 1000, "index": 0}))
        elif mode == "garbage":
            send("this is not a protocol message")
        elif mode == "exit":
            sys.exit(3)
        elif mode == "flood":
            while True:
                send("flood " * 50)
        elif mode == "longline":
            while True:
                sys.stdout.write("x" * 65536)
