#!/usr/bin/env python3
"""A greedy Five Up engine speaking fiveup-engine/1 (docs/engine-protocol.md).

Standard library only. It keeps no memory: every answer comes from the request alone.
It takes a Muggins call when offered, claims the most points a claim allows, else lays the
tile that scores most (ties: the heaviest tile, to shed pips), else draws, else passes.

    fiveup match --a "engine:python3 examples/engines/greedy.py" --b club --deals 20
"""

import json
import sys

PROTOCOL = "fiveup-engine/1"


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def pips(tile):
    """The pip total of a tile written `6-4`."""
    a, b = tile.split("-")
    return int(a) + int(b)


def value(action, points):
    """How much the greedy player likes an action: a larger tuple is better."""
    if action == "M":
        return (3, 0, 0)
    if action.startswith("C"):
        return (2, int(action[1:]), 0)
    if action == "D":
        return (0, 0, 0)
    if action == "P":
        return (-1, 0, 0)
    tile = action.split("@")[0]
    return (1, points, pips(tile))


def choose(request):
    legal = request["legal"]
    points = request.get("points") or [0] * len(legal)
    best = max(range(len(legal)), key=lambda i: value(legal[i], points[i]))
    position = request["position"]
    mine = position["table"]["side"]
    text = "count %d, scores %s, side %d" % (position["count"], position["scores"], mine)
    return {
        "type": "action",
        "id": request["id"],
        "index": best,
        "action": legal[best],
        "eval": {"score": float(points[best]), "text": text},
    }


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            msg = json.loads(line)
        except ValueError:
            send({"type": "info", "text": "not JSON: " + line[:60]})
            continue
        kind = msg.get("type")
        if kind == "hello":
            if msg.get("protocol") != PROTOCOL:
                send({"type": "info", "text": "I speak " + PROTOCOL + " only"})
                continue
            send({
                "type": "id",
                "name": "greedy.py",
                "author": "fiveup examples",
                "version": "1",
                "options": [],
            })
        elif kind == "request":
            send(choose(msg))
        elif kind == "quit":
            return
        # new_game, hand, event, hand_over, set_option: nothing to remember.


if __name__ == "__main__":
    main()
