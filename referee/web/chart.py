"""Geometry of the running-totals line chart, drawn as SVG by `templates/_chart.svg.html`.

Kept out of the template so the arithmetic is tested once; the template only places it.
The lines are told apart three ways, so that none depends on seeing colour: by colour
(Okabe-Ito, chosen to stay apart for the colour-blind and on a phone), by the shape of
their markers, and by their dash pattern. Each line is named at its end, the names moved
apart where the final totals are close (`spread`), and each round is a column of the
chart that can be tapped for its totals (app.js; without JavaScript, the column's <title>
and the table under the chart say the same).
"""

import math
from dataclasses import dataclass, field

COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#8C564B")
#: A marker shape per line, in the order of COLOURS.
SHAPES = ("circle", "square", "triangle", "diamond", "triangle-down", "plus", "cross", "star")
#: A stroke-dasharray per line ("" is solid), in the order of COLOURS.
DASHES = ("", "8 4", "2 3", "10 3 2 3", "5 5", "1 3", "12 3 3 3 3 3", "6 2 2 2")

#: The drawing is WIDTH x HEIGHT units, shown about one unit to a CSS pixel on a phone.
WIDTH, HEIGHT = 340, 236
LEFT, TOP, BOTTOM = 34, 12, 24
#: The names at the lines' ends: their font size, and the least distance between two.
LABEL_SIZE = 12
LABEL_GAP = 15
#: A name longer than this is cut, with an ellipsis, to keep the plot wide.
LABEL_CHARS = 9
#: A label's marker is this far right of its line's end, and its text this far right of that.
LABEL_OFFSET, TEXT_OFFSET = 10, 7
#: The widest the names' gutter right of the plot may be (LABEL_CHARS and a 3-digit total fit).
GUTTER = 130
#: The width of one character of the labels, in font sizes (a sans-serif's average, bold).
CHAR_WIDTH = 0.66
#: Markers are drawn on every point while points are at least this far apart, else on
#: every few points (and always on the last).
MARKER_SPACING = 14
MARKER_RADIUS = 4.2


@dataclass
class Line:
    name: str
    colour: str
    points: str
    end_x: float
    end_y: float
    index: int = 0
    dash: str = ""
    shape: str = "circle"
    markers: list = field(default_factory=list)   # SVG path data, one per marked point
    label: str = ""                                # the text at the line's end
    label_x: float = 0
    label_y: float = 0                             # where the label's middle is, after spreading
    label_marker: str = ""                         # the marker drawn before the label
    legend_marker: str = ""                        # the marker drawn in the legend's sample

    @property
    def text_x(self) -> float:
        return round(self.label_x + TEXT_OFFSET, 1)

    @property
    def leader(self) -> bool:
        """Whether the label was moved off its line's end (a short line joins them)."""
        return abs(self.label_y - self.end_y) > 1


@dataclass
class Column:
    """One tappable round: its x, the band of the plot it covers, and every line's value there."""
    number: int
    x: float
    x0: float
    width: float
    values: list   # (name, value, change since the point before or None), one per line


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
    top: float = TOP
    columns: list = field(default_factory=list)
    running: bool = True   # running totals (with each round's change), or points per round


def running_chart(state):
    """Running totals per player after each played round, or None before the first round."""
    if not state.running:
        return None
    series = [(name, [0] + [row[name] for row in state.running]) for name in state.columns]
    numbers = [r.number for r in state.played] if len(state.played) == len(state.running) else None
    return line_chart(series, numbers=numbers)


def player_chart(record):
    """A player's points in each round they played, oldest first, or None before any."""
    if not record.rounds:
        return None
    return line_chart([(record.player.name, [r.points for r in record.rounds])], label_offset=1)


def line_chart(series, label_offset=0, numbers=None):
    """Lines for [(name, values)], all the same length; values are >= 0.

    The point at index i is labelled i + label_offset on the x axis (running totals start
    with the 0 before round 1, so they label from index 1; other series from index 0).
    `numbers`, for running totals, are the rounds' own numbers (one per point after the 0).
    """
    running = label_offset == 0
    points_count = len(series[0][1])
    top = max(1, max(max(values) for _, values in series))
    step = _nice_step(top)
    top = step * -(-top // step)
    steps = max(1, points_count - 1)
    # a running total is named with its total; a player's points per round with the name alone
    labels = [_label(name, values[-1] if running else None) for name, values in series]
    # the names' gutter: a marker, then the text (LABEL_OFFSET, TEXT_OFFSET)
    right = WIDTH - min(GUTTER, max(_text_width(label) for label in labels) + LABEL_OFFSET + TEXT_OFFSET + 4)
    plot_w = right - LEFT
    plot_h = HEIGHT - TOP - BOTTOM

    def x(i):
        return round(LEFT + plot_w * i / steps, 1)

    def y(value):
        return round(TOP + plot_h * (1 - value / top), 1)

    first = 1 if running else 0  # the 0 every running total starts from is not a round
    spacing = plot_w / steps
    every = max(1, math.ceil(MARKER_SPACING / spacing))
    marked = [i for i in range(first, points_count) if (i - first) % every == 0 or i == points_count - 1]
    lines = []
    for n, (name, values) in enumerate(series):
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
        shape = SHAPES[n % len(SHAPES)]
        line = Line(name, COLOURS[n % len(COLOURS)], points, x(len(values) - 1), y(values[-1]), index=n,
                    dash=DASHES[n % len(DASHES)], shape=shape,
                    markers=[marker(shape, x(i), y(values[i])) for i in marked],
                    label=labels[n], legend_marker=marker(shape, 14, 6, 3.6))
        lines.append(line)
    placed = spread([line.end_y for line in lines], LABEL_GAP, TOP + LABEL_SIZE / 2, y(0))
    for line, label_y in zip(lines, placed):
        line.label_x = round(line.end_x + LABEL_OFFSET, 1)
        line.label_y = round(label_y, 1)
        line.label_marker = marker(line.shape, line.label_x, line.label_y, 3.6)
    y_ticks = [(y(v), v) for v in range(0, top + 1, step)]
    label_every = max(1, -(-steps // 12))
    x_ticks = [(x(i), i + label_offset) for i in range(1 - label_offset, points_count)
               if (i + label_offset) % label_every == 0]
    columns = []
    for i in range(first, points_count):
        lo = max(LEFT, x(i) - spacing / 2)
        hi = x(i) + spacing / 2 if i < points_count - 1 else right
        number = numbers[i - 1] if running and numbers else i + label_offset
        values = [(name, v[i], v[i] - v[i - 1] if running else None) for name, v in series]
        columns.append(Column(number, x(i), round(lo, 1), round(hi - lo, 1), values))
    return Chart(WIDTH, HEIGHT, lines, y_ticks, x_ticks, LEFT, y(0), right, columns=columns, running=running)


def spread(wanted, gap, low, high):
    """Positions for labels that would sit at `wanted` (in any order), each at least `gap`
    from the next, within [low, high], and as near their wanted places as that allows:
    labels that would overlap are gathered into a block centred on their mean, blocks that
    then overlap are joined, and a block pushed past an edge is moved back inside. The
    labels keep their order (a higher value's label stays above). Returned in the order of
    `wanted`. Where all of them cannot fit `gap` apart, they share the room evenly."""
    count = len(wanted)
    if count == 0:
        return []
    if count > 1 and (count - 1) * gap > high - low:
        gap = (high - low) / (count - 1)
    order = sorted(range(count), key=lambda i: (wanted[i], i))
    blocks = []  # [start, [indices]]: the first label of the block is at start, the next gap below...
    for i in order:
        blocks.append([wanted[i], [i]])
        while True:
            block = blocks[-1]
            members = block[1]
            mean = sum(wanted[j] for j in members) / len(members)
            block[0] = min(max(mean - gap * (len(members) - 1) / 2, low), high - gap * (len(members) - 1))
            if len(blocks) > 1 and blocks[-2][0] + gap * len(blocks[-2][1]) > block[0] + 1e-9:
                before = blocks.pop(-2)
                block[1] = before[1] + members
                continue
            break
    placed = [0.0] * count
    for start, members in blocks:
        for k, i in enumerate(members):
            placed[i] = start + gap * k
    return placed


def marker(shape, cx, cy, r=MARKER_RADIUS):
    """SVG path data of a marker of `shape` centred on (cx, cy), of about radius r."""
    if shape == "circle":
        return f"M{_n(cx - r)},{_n(cy)}a{_n(r)},{_n(r)} 0 1,0 {_n(2 * r)},0a{_n(r)},{_n(r)} 0 1,0 {_n(-2 * r)},0Z"
    if shape == "square":
        s = r * 0.85
        corners = [(-s, -s), (s, -s), (s, s), (-s, s)]
    elif shape == "triangle":
        corners = [(0, -r * 1.2), (r * 1.1, r * 0.8), (-r * 1.1, r * 0.8)]
    elif shape == "triangle-down":
        corners = [(0, r * 1.2), (r * 1.1, -r * 0.8), (-r * 1.1, -r * 0.8)]
    elif shape == "diamond":
        corners = [(0, -r * 1.2), (r * 1.2, 0), (0, r * 1.2), (-r * 1.2, 0)]
    elif shape in ("plus", "cross"):
        a, b = r * 1.1, r * 0.38
        corners = [(-b, -a), (b, -a), (b, -b), (a, -b), (a, b), (b, b), (b, a), (-b, a), (-b, b), (-a, b), (-a, -b),
                   (-b, -b)]
        if shape == "cross":
            c = math.sqrt(0.5)
            corners = [((px - py) * c, (px + py) * c) for px, py in corners]
    elif shape == "star":
        corners = []
        for k in range(10):
            radius = r * 1.3 if k % 2 == 0 else r * 0.55
            angle = math.pi * k / 5 - math.pi / 2
            corners.append((radius * math.cos(angle), radius * math.sin(angle)))
    else:
        raise ValueError(f"no marker shape {shape!r}")
    return "M" + "L".join(f"{_n(cx + px)},{_n(cy + py)}" for px, py in corners) + "Z"


def _n(v: float) -> str:
    """A coordinate with at most one decimal, without a trailing .0."""
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _label(name: str, value) -> str:
    short = name if len(name) <= LABEL_CHARS else name[:LABEL_CHARS - 1].rstrip() + "…"
    return short if value is None else f"{short} {value}"


def _text_width(text: str) -> float:
    return len(text) * LABEL_SIZE * CHAR_WIDTH


def _nice_step(top: int) -> int:
    """A grid step of 1, 2 or 5 times a power of ten giving four to eight lines."""
    scale = 1
    while True:
        for base in (1, 2, 5):
            if top / (base * scale) <= 6:
                return base * scale
        scale *= 10
