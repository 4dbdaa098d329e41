"""The running-totals chart's geometry (web/chart.py): the names at the lines' ends kept
apart, lines told apart by marker and dash as well as colour, and a column per round."""

import re

import pytest

from referee.web import chart
from referee.web.chart import COLOURS, DASHES, LABEL_GAP, SHAPES, line_chart, marker, spread
from tests.web.helpers import new_game, pips_round


def test_close_labels_are_moved_apart_in_order():
    # final totals 103, 105 and 106 sit 1 to 3 units apart on the chart: their names may not
    placed = spread([40.3, 37.0, 35.3, 128.7], gap=14, low=18, high=200)
    assert placed[3] == 128.7  # a label with room stays at its line's end
    top_three = sorted(placed[:3])
    assert all(b - a >= 14 - 1e-9 for a, b in zip(top_three, top_three[1:]))
    # the highest total (the smallest y) keeps the highest label
    assert placed[2] < placed[1] < placed[0]
    # the three are centred on where they would have been
    assert sum(placed[:3]) / 3 == pytest.approx((40.3 + 37.0 + 35.3) / 3)


def test_labels_stay_inside_the_plot():
    placed = spread([1, 2, 3], gap=10, low=5, high=100)
    assert placed == [5, 15, 25]
    placed = spread([99, 100, 98], gap=10, low=5, high=100)
    assert sorted(placed) == [80, 90, 100]
    assert placed[1] == 100 and placed[2] == 80  # still in their order


def test_a_cluster_pushing_into_another_joins_it():
    placed = spread([10, 12, 30, 31], gap=10, low=0, high=100)
    assert all(b - a >= 10 - 1e-9 for a, b in zip(sorted(placed), sorted(placed)[1:]))
    assert placed == sorted(placed)


def test_labels_share_the_room_when_it_is_too_small():
    placed = spread([50] * 8, gap=20, low=0, high=70)
    assert sorted(placed) == pytest.approx([k * 10 for k in range(8)])
    assert spread([], 10, 0, 10) == [] and spread([7], 10, 0, 10) == [7]


def test_lines_differ_by_shape_dash_and_colour():
    series = [(f"P{n}", [0, n * 10, n * 20]) for n in range(8)]
    lines = line_chart(series).lines
    for attr in ("colour", "shape", "dash"):
        assert len({getattr(line, attr) for line in lines}) == 8, attr
    assert [line.colour for line in lines] == list(COLOURS)
    assert [line.shape for line in lines] == list(SHAPES) and [line.dash for line in lines] == list(DASHES)
    assert lines[0].dash == ""  # the first line is solid


@pytest.mark.parametrize("shape", SHAPES)
def test_every_marker_is_a_closed_path_around_its_point(shape):
    d = marker(shape, 100, 50, 4)
    assert d.startswith("M") and d.endswith("Z")
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    if shape != "circle":
        xs, ys = numbers[0::2], numbers[1::2]
        assert 94 <= min(xs) < 100 < max(xs) <= 106 and 44 <= min(ys) < 50 < max(ys) <= 56


def test_each_line_is_named_at_its_end_with_its_total():
    c = line_chart([("Annemarie", [0, 103, 103]), ("Bob", [0, 40, 105]), ("Cyriel", [0, 20, 106]),
                    ("Maximiliaan", [0, 0, 50])])
    labels = [line.label for line in c.lines]
    assert labels == ["Annemarie 103", "Bob 105", "Cyriel 106", "Maximili… 50"]
    for line in c.lines:
        assert line.label_x > line.end_x and line.text_x > line.label_x
        # the text fits in the drawing
        assert line.text_x + chart._text_width(line.label) <= c.width
    ys = sorted(line.label_y for line in c.lines)
    assert all(b - a >= LABEL_GAP - 0.05 for a, b in zip(ys, ys[1:]))
    moved = [line.name for line in c.lines if line.leader]
    assert moved and "Maximiliaan" not in moved  # far from the others: not moved, no leader line


def test_markers_on_every_round_and_none_on_the_start():
    c = line_chart([("Ann", [0, 5, 9, 12]), ("Bob", [0, 1, 2, 3])])
    assert all(len(line.markers) == 3 for line in c.lines)
    many = line_chart([("Ann", list(range(41)))])
    assert 1 < len(many.lines[0].markers) < 40
    assert many.lines[0].markers[-1] == marker("circle", many.lines[0].end_x, many.lines[0].end_y)


def test_each_round_is_a_column_with_its_totals_and_changes():
    c = line_chart([("Ann", [0, 5, 9]), ("Bob", [0, 10, 10])], numbers=[1, 2])
    assert [col.number for col in c.columns] == [1, 2]
    assert c.columns[1].values == [("Ann", 9, 4), ("Bob", 10, 0)]
    # the columns cover the plot from the first round to the labels, without gaps
    assert c.columns[0].x0 + c.columns[0].width == pytest.approx(c.columns[1].x0, abs=0.11)
    assert c.columns[-1].x0 + c.columns[-1].width == pytest.approx(c.right, abs=0.11)
    points = line_chart([("Ann", [3, 7, 1])], label_offset=1)
    assert not points.running and [col.number for col in points.columns] == [1, 2, 3]
    assert points.lines[0].label == "Ann"  # points per round: no total to name
    assert points.columns[0].values == [("Ann", 3, None)] and points.columns[0].x0 == chart.LEFT


def test_the_game_page_draws_the_chart_with_names_columns_and_a_table(client):
    game = new_game(client)
    pips_round(client, game, {"Ann": 3, "Bob": 4, "Cy": 5}, went_out="Di")
    pips_round(client, game, {"Ann": 20, "Bob": 1, "Di": 2}, went_out="Cy")
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    svg = page.split('<svg class="chart-plot"')[1].split("</svg>")[0]
    assert svg.count('class="chart-col"') == 2
    assert 'data-title="Round 2"' in svg and "Round 2: Ann 23 (+20), Bob 5 (+1), Cy 5 (+0), Di 2 (+2)" in svg
    for label in ("Ann 23", "Bob 5", "Cy 5", "Di 2"):
        assert f">{label}</text>" in svg
    assert svg.count("stroke-dasharray") >= 3
    table = page.split('<details class="chart-data">')[1].split("</details>")[0]
    assert "Running totals, round by round" in table and "<td>23 <small>+20</small></td>" in table
    french = client.get(f"/games/{game['id']}", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert 'data-title="Manche 2"' in french and "Totaux cumulés, manche par manche" in french
