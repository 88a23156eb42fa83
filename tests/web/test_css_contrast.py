"""WCAG AA contrast of the site's colours, read from the stylesheets themselves.

Each pair names where its text colour and its background are declared (file, selector,
property); the test reads them from templates/static/css/*.css (resolving ``var(--x)``
from ``:root``) and computes the WCAG 2 contrast ratio: at least 4.5 for text, 3.0
for large text and for what is not text but must be seen (focus rings, the marker of
the seat to move). Every text colour declared in any stylesheet must be in a pair, and
every background colour in a pair or in ``NOT_UNDER_TEXT`` with the reason, so a new
colour cannot join unchecked."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

CSS = Path(__file__).resolve().parents[2] / "templates" / "static" / "css"
TEXT, LARGE, NON_TEXT = 4.5, 3.0, 3.0

Ref = tuple[str, str, str]  # (file, one selector of the rule, property)
Rules = dict[tuple[str, str], dict[str, str]]  # (file, selector) -> declarations


def parse(folder: Path = CSS) -> Rules:
    rules: Rules = {}
    for path in sorted(folder.glob("*.css")):
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
        for match in re.finditer(r"([^{}]+)\{([^{}]*)\}", text):
            declarations = {}
            for item in match.group(2).split(";"):
                if ":" in item:
                    name, value = item.split(":", 1)
                    declarations[name.strip()] = value.strip()
            for selector in match.group(1).split(","):
                key = (path.name, " ".join(selector.split()))
                rules[key] = {**rules.get(key, {}), **declarations}
    return rules


RULES = parse()
NAMED = {"white": "#ffffff", "black": "#000000"}


def value(ref: Ref, rules: Rules = RULES) -> str:
    file, selector, prop = ref
    declared = rules.get((file, selector), {})
    assert prop in declared, f"{file} declares no {prop} for {selector}"
    return declared[prop]


def colour(text: str, rules: Rules = RULES) -> tuple[float, float, float]:
    text = text.strip().lower()
    variable = re.fullmatch(r"var\((--[\w-]+)\)", text)
    if variable:
        return colour(rules[("site.css", ":root")][variable.group(1)], rules)
    text = NAMED.get(text, text)
    match = re.fullmatch(r"#([0-9a-f]{3}|[0-9a-f]{6})", text)
    assert match, f"not a plain colour: {text!r}"
    digits = match.group(1)
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    red, green, blue = (int(digits[i : i + 2], 16) for i in (0, 2, 4))
    return red / 255, green / 255, blue / 255


def luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(fg: tuple[float, float, float], bg: tuple[float, float, float]) -> float:
    light, dark = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def over(
    rgb: tuple[float, float, float], under: tuple[float, float, float], alpha: float
) -> tuple[float, float, float]:
    r1, g1, b1 = rgb
    r2, g2, b2 = under
    return (r1 * alpha + r2 * (1 - alpha), g1 * alpha + g2 * (1 - alpha), b1 * alpha + b2 * (1 - alpha))


@dataclass(frozen=True)
class Pair:
    name: str
    fg: Ref
    bg: Ref
    minimum: float = TEXT


S, D, G, P, R = "site.css", "desk.css", "games.css", "public.css", "record.css"
PR, PJ, PE = "print.css", "projector.css", "people.css"
PRINTED: Ref = (S, "html body", "background")  # any page printed (site.css's @media print)
PAPER: Ref = (S, "body", "background")
WHITE_BOX: Ref = (P, ".table-card", "background")
INK: Ref = (S, "body", "color")
MUTED: Ref = (S, ".muted", "color")
FELT: Ref = (G, ".felt", "background")
FELT_DARK: Ref = (G, ".play-hand", "background")
CARD: Ref = (S, ".card", "background")

PAIRS = [
    # site.css: every page
    Pair("body ink on paper", INK, PAPER),
    Pair("links on paper", (S, "a", "color"), PAPER),
    Pair("links on a white box", (S, "a", "color"), WHITE_BOX),
    Pair("header text on felt", (S, ".site-header", "color"), (S, ".site-header", "background")),
    Pair("header links on felt", (S, ".site-header a", "color"), (S, ".site-header", "background")),
    Pair("footer", (S, ".site-footer", "color"), PAPER),
    Pair("muted text on paper", MUTED, PAPER),
    Pair("muted text on a white box", MUTED, WHITE_BOX),
    Pair("input text", INK, (S, "input", "background")),
    Pair("skip link", INK, (S, ".skip:focus", "background")),
    Pair("button text", (S, "button", "color"), (S, "button", "background")),
    Pair("primary button text on felt", (S, "button.primary", "color"), (S, "button.primary", "background")),
    Pair("danger button", (S, "button.danger", "color"), (S, "button", "background")),
    Pair("error on paper", (S, ".error", "color"), PAPER),
    Pair("error on a white box", (S, ".error", "color"), WHITE_BOX),
    Pair("error on an error message", (S, ".error", "color"), (S, ".messages li.error", "background")),
    Pair("message", INK, (S, ".messages li", "background")),
    Pair("error message", INK, (S, ".messages li.error", "background")),
    Pair("code", INK, (S, "code", "background")),
    Pair("changed row", INK, (S, "tr.changed", "background")),
    Pair("badge", INK, (S, ".badge", "background")),
    Pair("badge ok", (S, ".badge.ok", "color"), (S, ".badge.ok", "background")),
    Pair("badge warn", (S, ".badge.warn", "color"), (S, ".badge.warn", "background")),
    Pair("red card", (S, ".card.red", "color"), CARD),
    Pair("black card", (S, ".card.black", "color"), CARD),
    Pair("joker", (S, ".card.joker", "color"), CARD),
    Pair("focus ring on paper", (S, ":focus-visible", "outline"), PAPER, NON_TEXT),
    Pair("focus ring on a white box", (S, ":focus-visible", "outline"), WHITE_BOX, NON_TEXT),
    Pair(
        "focus ring in the header",
        (S, ".site-header :focus-visible", "outline-color"),
        (S, ".site-header", "background"),
        NON_TEXT,
    ),
    # desk.css
    Pair("desk crumbs", (D, ".crumbs", "color"), PAPER),
    Pair("desk note", INK, (D, ".note", "background")),
    Pair("desk why", INK, (D, ".why", "background")),
    Pair("desk seat", (D, ".seat", "color"), (D, ".seat", "background")),
    Pair("desk picked seat", (D, ".seat", "color"), (D, ".seat.picked", "background")),
    Pair("desk bot seat", (D, ".seat.bot", "color"), (D, ".seat", "background")),
    Pair("desk notes", (D, "ul.notes", "color"), (D, ".table-card", "background")),
    Pair("desk pick help", INK, (D, ".pick-help", "background")),
    Pair("desk card list", INK, (D, "ul.cards-list li", "background")),
    Pair("desk correction", INK, (D, ".correction", "background")),
    Pair("desk link on a table card", (S, "a", "color"), (D, ".table-card", "background")),
    # games.css
    Pair("text on the felt", (G, ".felt", "color"), FELT),
    Pair("text at a seat", (G, ".felt", "color"), (G, ".seat", "background")),
    Pair("badge on the felt", (G, ".felt .badge", "color"), (S, ".badge", "background")),
    Pair("badge ok on the felt", (G, ".felt .badge.ok", "color"), (S, ".badge.ok", "background")),
    Pair("badge warn on the felt", (G, ".felt .badge.warn", "color"), (S, ".badge.warn", "background")),
    Pair("muted note on the felt", (G, ".muted-on-felt", "color"), FELT),
    Pair("muted note at a seat", (G, ".muted-on-felt", "color"), (G, ".seat", "background")),
    Pair("muted text on the felt", (G, ".felt .muted", "color"), FELT),
    Pair("muted text at a seat", (G, ".felt .muted", "color"), (G, ".seat", "background")),
    Pair("muted text in the hand", (G, ".play-hand .muted", "color"), FELT_DARK),
    Pair("text in the hand", (G, ".play-hand", "color"), FELT_DARK),
    Pair("the seat to move", (G, ".seat.to-move", "outline"), FELT, NON_TEXT),
    Pair("focus ring on the felt", (G, ".felt :focus-visible", "outline-color"), FELT, NON_TEXT),
    Pair(
        "focus ring at a seat",
        (G, ".felt :focus-visible", "outline-color"),
        (G, ".seat", "background"),
        NON_TEXT,
    ),
    Pair("focus ring in the hand", (G, ".play-hand :focus-visible", "outline-color"), FELT_DARK, NON_TEXT),
    Pair("current move", INK, (G, ".moves li.current", "background")),
    Pair("play notice", (G, ".notice", "color"), (G, ".notice", "background")),
    Pair("now box", INK, (G, ".now", "background")),
    Pair("showdown box", INK, (G, ".showdown", "background")),
    Pair("practice box", INK, (G, ".practice", "background")),
    # public.css
    Pair("as-of box", INK, (P, ".as-of", "background")),
    Pair("chart", INK, (P, "figure.chart", "background")),
    Pair("running table", INK, (P, "ul.running > li", "background")),
    Pair("live dot", (P, ".live-dot", "background"), PAPER, NON_TEXT),
    # record.css
    Pair("recorded", INK, (R, ".recorded", "background")),
    Pair("record notice", INK, (R, ".notice", "background")),
    Pair("label on an entry", (R, ".label", "color"), (R, ".entry", "background")),
    Pair("label on paper", (R, ".label", "color"), PAPER),
    Pair("player to move", INK, (R, ".scores tr.to-move", "background")),
    Pair("player out", (R, ".scores tr.out", "color"), (R, ".entry", "background")),
    Pair("player out on paper", (R, ".scores tr.out", "color"), PAPER),
    Pair("refusal", (R, ".refusal", "color"), (R, ".refusal", "background")),
    Pair("refusal heading", (R, ".refusal strong", "color"), (R, ".refusal", "background")),
    Pair("picker summary", (R, ".picker summary", "color"), (R, ".entry", "background")),
    Pair("red card picked", (S, ".card.red", "color"), (R, ".pick input:checked + span .card", "background")),
    Pair(
        "black card picked",
        (S, ".card.black", "color"),
        (R, ".pick input:checked + span .card", "background"),
    ),
    Pair("fits", (R, ".fits", "color"), (R, ".entry", "background")),
    Pair("undone entry", (R, ".entries-list li.undone", "color"), PAPER),
    Pair("undo link", (R, "a.button.danger", "color"), (S, "button", "background")),
    Pair("confirm box", INK, (R, ".confirm", "background")),
    # public.css: the round clock
    Pair("clock box", INK, (P, ".round-clock", "background")),
    # public.css: a round by player
    Pair("by-player box", INK, (P, ".by-player", "background")),
    Pair("link in the by-player box", (S, "a", "color"), (P, ".by-player", "background")),
    # people.css: the people page, invitations, self check-in, My tables and My games
    Pair("people box", INK, (PE, ".people-box", "background")),
    Pair("a person's row", INK, (PE, "ul.people-list > li", "background")),
    Pair("link in a person's row", (S, "a", "color"), (PE, "ul.people-list > li", "background")),
    Pair("muted in a person's row", MUTED, (PE, "ul.people-list > li", "background")),
    Pair(
        "link a login", (PE, "details.link-login summary", "color"), (PE, "ul.people-list > li", "background")
    ),
    Pair("a role held", (S, "button", "color"), (PE, "button.role-on", "background")),
    Pair("invitation slip", INK, (PE, ".invitation-slip", "background")),
    Pair("self check-in box", INK, (PE, ".self-check-in", "background")),
    Pair("seats now", INK, (PE, ".my-seats", "background")),
    Pair("link in seats now", (S, "a", "color"), (PE, ".my-seats", "background")),
    Pair("a table to record", INK, (PE, "li.my-table", "background")),
    Pair("muted on a table to record", MUTED, (PE, "li.my-table", "background")),
    # site.css @media print: any page printed
    Pair("printed ink", (S, "html body", "color"), PRINTED),
    Pair("printed links", (S, "html body a", "color"), PRINTED),
    Pair("printed muted text", (S, "html body .muted", "color"), PRINTED),
    Pair("printed header", (S, "html .site-header", "color"), (S, "html .site-header", "background")),
    Pair("printed badge", (S, "html body .badge", "color"), (S, "html body .badge", "background")),
    Pair("printed changed row", (S, "html body", "color"), (S, "html body tr.changed", "background")),
    Pair("printed table card", (S, "html body", "color"), (S, "html body .table-card", "background")),
    # print.css: the print pages
    Pair("print sheet", (PR, "body", "color"), (PR, "main", "background")),
    Pair("print bar link", (PR, ".print-bar a", "color"), (PR, "body", "background")),
    Pair("print bar button", (PR, "body", "color"), (PR, ".print-bar button", "background")),
    # projector.css
    Pair("projector text", (PJ, "body.projector", "color"), (PJ, "body.projector", "background")),
    Pair(
        "projector striped row",
        (PJ, "body.projector", "color"),
        (PJ, ".projector table.names tbody tr:nth-child(odd)", "background"),
    ),
]

# Backgrounds under no text of their own colour pair (each with why).
NOT_UNDER_TEXT = {
    (S, ".card.back"): "a face-down card: a pattern, no text",
    (S, ".meld"): "holds cards, each on its own white face",
    (G, ".play-hand .meld"): "holds cards, each on its own white face",
    (G, "button.card-button"): "none: the card inside draws its face",
    (S, "button.link"): "none: the text is the surrounding text",
    (D, ".table-card"): "white: in the pairs through the desk's notes and links",
    (D, ".seat"): "in the pairs",
    (P, ".table-card"): "in the pairs",
    (PR, "svg.qr"): "a QR code's white ground: no text",
    (PE, ".slip-link svg.qr"): "a QR code's white ground: no text",
    (PE, ".big-code svg.qr"): "a QR code's white ground: no text",
}


def resolve(ref: Ref) -> tuple[float, float, float]:
    text = value(ref)
    if ref[2].startswith("outline"):  # "3px solid #0b57d0": its colour
        text = text.split()[-1]
    return colour(text)


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
def test_contrast_meets_wcag_aa(pair: Pair) -> None:
    measured = ratio(resolve(pair.fg), resolve(pair.bg))
    assert measured >= pair.minimum, f"{pair.name}: {measured:.2f}:1 < {pair.minimum}:1"


def test_a_dimmed_deadwood_card_still_reads() -> None:
    """``.deadwood .card`` is drawn at an opacity: its red face over paper is blended."""
    opacity = float(value((S, ".deadwood .card", "opacity")))
    paper = resolve(PAPER)
    text = over(resolve((S, ".card.red", "color")), paper, opacity)
    face = over(resolve(CARD), paper, opacity)
    assert ratio(text, face) >= TEXT


def test_every_colour_of_every_stylesheet_is_checked() -> None:
    foregrounds = {(f, s) for p in PAIRS for (f, s, prop) in (p.fg,) if prop == "color"}
    backgrounds = {(f, s) for p in PAIRS for (f, s, prop) in (p.bg, p.fg) if prop.startswith("background")}
    backgrounds |= set(NOT_UNDER_TEXT)
    groups = _groups()
    unchecked = []
    for group, declarations in groups:
        if "color" in declarations and declarations["color"] != "inherit" and not group & foregrounds:
            unchecked.append(f"text colour of {sorted(group)}")
        for prop in ("background", "background-color"):
            if prop in declarations and not group & backgrounds:
                unchecked.append(f"{prop} of {sorted(group)}")
    assert not unchecked, "colours in no pair:\n" + "\n".join(unchecked)


def _groups() -> list[tuple[set[tuple[str, str]], dict[str, str]]]:
    """Each rule of each stylesheet: its selectors (as (file, selector)) and declarations."""
    found = []
    for path in sorted(CSS.glob("*.css")):
        text = re.sub(r"/\*.*?\*/", "", path.read_text(), flags=re.S)
        for match in re.finditer(r"([^{}]+)\{([^{}]*)\}", text):
            declarations = {}
            for item in match.group(2).split(";"):
                if ":" in item:
                    name, val = item.split(":", 1)
                    declarations[name.strip()] = val.strip()
            selectors = {(path.name, " ".join(s.split())) for s in match.group(1).split(",")}
            found.append((selectors, declarations))
    return found


def test_the_ratio_is_wcags() -> None:
    """Known values: black on white is 21:1; #767676 on white just passes 4.5:1; a
    failing pair is caught."""
    assert round(ratio(colour("black"), colour("white")), 1) == 21.0
    assert 4.5 <= ratio(colour("#767676"), colour("#ffffff")) < 4.6
    assert ratio(colour("#777777"), colour("#ffffff")) < 4.5
    assert ratio(colour("var(--muted)"), colour("var(--felt)")) < TEXT  # why the felt needs its own muted
