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
    if not state.running:
        return None
    series = [(name, [0] + [row[name] for row in state.running]) for name in state.columns]
    return line_chart(series)


def player_chart(record):
    """A player's points in each round they played, oldest first, or None before any."""
    if not record.rounds:
        return None
    return line_chart([(record.player.name, [r.points for r in record.rounds])], label_offset=1)


def line_chart(series, label_offset=0):
    """Lines for [(name, values)], all the same length; values are >= 0.

    The point at index i is labelled i + label_offset on the x axis (running totals start
    with the 0 before round 1, so they label from index 1; other series from index 0).
    """
    points_count = len(series[0][1])
    top = max(1, max(max(values) for _, values in series))
    step = _nice_step(top)
    top = step * -(-top // step)
    steps = max(1, points_count - 1)
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i):
        return round(LEFT + plot_w * i / steps, 1)

    def y(value):
        return round(TOP + plot_h * (1 - value / top), 1)

    lines = []
    for n, (name, values) in enumerate(series):
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
        lines.append(Line(name, COLOURS[n % len(COLOURS)], points, x(len(values) - 1), y(values[-1])))
    y_ticks = [(y(v), v) for v in range(0, top + 1, step)]
    label_every = max(1, -(-steps // 12))
    first = 1 - label_offset
    x_ticks = [(x(i), i + label_offset) for i in range(first, points_count) if (i + label_offset) % label_every == 0]
    return Chart(WIDTH, HEIGHT, lines, y_ticks, x_ticks, LEFT, y(0), WIDTH - RIGHT)


def _nice_step(top: int) -> int:
    """A grid step of 1, 2 or 5 times a power of ten giving four to eight lines."""
    scale = 1
    while True:
        for base in (1, 2, 5):
            if top / (base * scale) <= 6:
                return base * scale
        scale *= 10
