"""Geometry of the running-totals line chart, drawn as SVG by `templates/_chart.svg.html`.

Kept out of the template so the arithmetic is tested once; the template only places it.
The colours are chosen to stay apart for the colour-blind (Okabe-Ito) and on a phone.
"""

from dataclasses import dataclass

COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B")
WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 36, 12, 10, 24


@dataclass
class Line:
    name: str
    colour: str
    points: str
    end_x: float
    end_y: float


@dataclass
class Chart:
    width: int
    height: int
    lines: list
    y_ticks: list  # (y, label)
    x_ticks: list  # (x, label)
    left: int
    bottom: float
    right: float


def running_chart(state):
    """Running totals per player after each played round, or None before the first round."""
    running = state.running
    if not running:
        return None
    top = max(1, max(max(row.values()) for row in running))
    step = _nice_step(top)
    top = step * -(-top // step)
    rounds = len(running)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i):  # i = 0 is the start, before round 1
        return round(LEFT + plot_w * i / rounds, 1)

    def y(value):
        return round(TOP + plot_h * (1 - value / top), 1)

    lines = []
    for n, name in enumerate(state.players):
        values = [0] + [row[name] for row in running]
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
        lines.append(Line(name, COLOURS[n % len(COLOURS)], points, x(rounds), y(values[-1])))
    y_ticks = [(y(v), v) for v in range(0, top + 1, step)]
    x_ticks = [(x(i), i) for i in range(1, rounds + 1)]
    return Chart(WIDTH, HEIGHT, lines, y_ticks, x_ticks, LEFT, y(0), WIDTH - RIGHT)


def _nice_step(top: int) -> int:
    """A grid step of 1, 2 or 5 times a power of ten giving four to eight lines."""
    scale = 1
    while True:
        for base in (1, 2, 5):
            if top / (base * scale) <= 6:
                return base * scale
        scale *= 10
