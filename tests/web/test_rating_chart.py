"""The rating chart: an SVG drawn by a pure function, checked without a database."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from web.rating_chart import HEIGHT, LEFT, RIGHT, TOP, WIDTH, Point, Series, nice_ticks, rating_chart

SVG = "{http://www.w3.org/2000/svg}"


def knock(*ordinals: float) -> Series:
    return Series("Knock rummy", tuple(Point(f"game {i}", o + 6, o) for i, o in enumerate(ordinals, 1)))


def test_no_points_draw_no_chart() -> None:
    assert rating_chart([]) == ""
    assert rating_chart([Series("Gin rummy", ())]) == ""


def test_the_chart_is_well_formed_svg_that_scales_to_its_box() -> None:
    svg = rating_chart([knock(0.0, 1.5, 3.0)], title="Rating history of Ann")
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert root.get("viewBox") == f"0 0 {WIDTH} {HEIGHT}"
    assert root.get("width") == "100%"
    assert root.get("role") == "img"
    assert root.find(SVG + "title").text == "Rating history of Ann"  # type: ignore[union-attr]
    desc = root.find(SVG + "desc").text  # type: ignore[union-attr]
    assert desc == (
        "Knock rummy: 3 games, ordinal from 0.0 to 3.0. "
        "Solid line: ordinal (mu minus 3 sigma); dashed line: mu."
    )
    assert "<script" not in svg


def points_of(svg: str, dashed: bool) -> list[tuple[float, float]]:
    root = ET.fromstring(svg)
    for line in root.iter(SVG + "polyline"):
        if (line.get("stroke-dasharray") is not None) == dashed:
            return [(float(x), float(y)) for x, y in (p.split(",") for p in line.get("points", "").split())]
    raise AssertionError("no such line")


def test_points_run_left_to_right_and_higher_ratings_are_drawn_higher() -> None:
    svg = rating_chart([knock(0.0, 4.0, 2.0)])
    ordinal = points_of(svg, dashed=False)
    assert [x for x, _ in ordinal] == [LEFT, LEFT + (WIDTH - LEFT - RIGHT) / 2, WIDTH - RIGHT]
    ys = [y for _, y in ordinal]
    assert ys[1] < ys[2] < ys[0]  # SVG's y grows downwards
    assert all(TOP <= y <= HEIGHT for y in ys)
    mu = points_of(svg, dashed=True)
    assert all(m_y < o_y for (_, m_y), (_, o_y) in zip(mu, ordinal, strict=True))  # mu is above the ordinal
    assert svg.count("<circle") == 3


def test_one_game_is_drawn_in_the_middle() -> None:
    svg = rating_chart([knock(1.0)])
    assert [x for x, _ in points_of(svg, dashed=False)] == [LEFT + (WIDTH - LEFT - RIGHT) / 2]


def test_each_family_is_a_series_with_its_own_colour_and_legend() -> None:
    gin = Series("Gin rummy", (Point("game 9", 30.0, 5.0),))
    svg = rating_chart([knock(0.0, 1.0), gin])
    assert re.findall(r'data-series="([^"]+)"', svg) == ["Knock rummy", "Gin rummy"]
    strokes = set(re.findall(r'<polyline[^>]*stroke="(#[0-9a-f]{6})"', svg))
    assert len(strokes) == 2
    assert ">Gin rummy</text>" in svg and ">Knock rummy</text>" in svg


def test_names_are_escaped() -> None:
    svg = rating_chart([Series("<b>&", (Point("game <1>", 1.0, 0.0),))], title="Bo & <Cy>")
    assert "<b>" not in svg and "game <1>" not in svg
    assert "Bo &amp; &lt;Cy&gt;" in svg
    ET.fromstring(svg)


def test_ticks_are_round_and_cover_the_range() -> None:
    assert nice_ticks(0, 10) == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    assert nice_ticks(-3.3, 7.9) == [-5.0, -2.5, 0.0, 2.5, 5.0, 7.5, 10.0]
    ticks = nice_ticks(0.12, 0.57)
    assert ticks[0] <= 0.12 and ticks[-1] >= 0.57 and len(ticks) <= 7
    assert nice_ticks(3.2, 3.2) == [2.0, 2.5, 3.0, 3.5, 4.0, 4.5]  # a flat history gets room


def test_legend_entries_do_not_overlap_with_a_long_family_name() -> None:
    long = Series("Knock rummy and knock-rami", (Point("game 1", 25.0, 1.0),))
    gin = Series("Gin rummy", (Point("game 9", 30.0, 5.0),))
    svg = rating_chart([long, gin])
    starts = [
        float(x) for x in re.findall(r'<text x="([\d.]+)" y="\d+" font-size="\d+" fill="#1d2a24">', svg)
    ]
    assert len(starts) == 2
    # 0.6 em a character is wider than the average sans-serif letter: the first name ends before the second
    assert starts[0] + len(long.name) * 14 * 0.6 < starts[1] - 16
