"""Turning posted HTML forms into the plain values the service layer takes.

Form fields are named by seat (`tiles-0`, `pips-0`, `went_out=0`) so that a name with
odd characters never becomes part of a field name.
"""

from referee.rules.draw_game import DRAW_OPTIONS
from referee.rules.house_rules import OPTIONS, PRESETS
from referee.rules.scoring import PipTotal
from referee.rules.team_game import TEAM_OPTIONS
from referee.services import kinds
from referee.services.games import RoundEntry

KIND_OPTIONS = {kinds.TEAM: TEAM_OPTIONS, kinds.DRAW: DRAW_OPTIONS}
from referee.rules.text import N_, RulesError

MAX_SEATS = 8


def players_from_form(form) -> list:
    return [form.get(f"player-{i}", "") for i in range(MAX_SEATS)]


def kind_from_form(form) -> str:
    return form.get("game") or kinds.CHICKEN_FOOT


def rules_from_form(form, kind_name: str = kinds.CHICKEN_FOOT) -> dict:
    """The chosen preset plus every rule the table changed from it.

    Only fields that differ from the preset are kept, so the stored overrides say exactly
    what this table decided for itself. Team and draw games name their options
    `team-<option>` and `draw-<option>`; an empty choice keeps the game's default.
    """
    if kind_name in KIND_OPTIONS:
        chosen = {name: form.get(f"{kind_name}-{name}") for name in KIND_OPTIONS[kind_name]}
        return {name: value for name, value in chosen.items() if value not in (None, "", "default")}
    spec = {}
    for name in (*OPTIONS, "target"):
        value = form.get(f"rule-{name}")
        if value not in (None, "", "preset"):
            spec[name] = value
    # Where the preset's set follows the player count, the names typed decide it (seed 004: 7 or 8
    # players play double-twelve); the table changing the set by hand is not needed.
    name = form.get("preset", "pagat")
    seated = sum(1 for player in players_from_form(form) if player.strip())
    if isinstance(name, str) and name.strip().lower() in PRESETS and seated >= 2:
        spec = kinds.kind(kind_name).table_overrides(name, spec, seated)
    return {"preset": name, **spec}


def round_from_form(form, players: list) -> RoundEntry:
    went_out_seat = form.get("went_out", "")
    went_out = None
    if went_out_seat not in ("", "blocked"):
        went_out = _seat_name(went_out_seat, players)
    hands = {}
    for seat, name in enumerate(players):
        tiles = form.getlist(f"tiles-{seat}")
        typed = form.get(f"pips-{seat}", "").strip()
        blank = bool(form.get(f"double_blank-{seat}"))
        if tiles and typed:
            raise RulesError(N_("%(player)s has both tapped tiles and a typed total: keep one of them."), player=name)
        if tiles and blank:
            raise RulesError(N_("%(player)s has tapped tiles and also ticked \u201cHolds [0-0]\u201d: tap the [0-0] "
                                "among the tiles instead."), player=name)
        if tiles:
            hands[name] = tiles
        elif blank:
            # The [0-0] has no pips: a typed total says it holds it, and its points add the house value.
            hands[name] = PipTotal(_pips(typed, name) if typed else 0, True)
        elif typed:
            hands[name] = _pips(typed, name)
        elif name == went_out:
            hands[name] = []
    blocker_seat = form.get("blocker", "")
    blocker = _seat_name(blocker_seat, players) if blocker_seat and went_out_seat == "blocked" else None
    capicu_tile = form.get("capicu_tile", "").strip() if went_out is not None else ""
    ends = [end.strip() for end in form.getlist("capicu_ends") if end.strip()]
    if capicu_tile and len(ends) != 2:
        raise RulesError(N_("A capicu needs the last tile laid and the two ends it could go on."))
    started_on = form.get("started_on", "").strip()
    return RoundEntry(hands=hands, went_out=went_out, blocked=went_out_seat == "blocked",
                      out_on_double=bool(form.get("out_on_double")), blocker=blocker,
                      capicu_tile=capicu_tile or None, capicu_ends=ends if capicu_tile else None,
                      started_on=started_on or None)


def _pips(typed: str, name: str) -> int:
    try:
        value = int(typed)
    except ValueError:
        raise RulesError(N_("The total for %(player)s must be a whole number of pips, not '%(value)s'."),
                         player=name, value=typed[:20]) from None
    return value


def _seat_name(seat: str, players: list) -> str:
    """The player in a seat number as a form sends it: 0 up to the last seat, nothing else
    (Python would read -1 as the last player)."""
    if not seat.isdigit() or int(seat) >= len(players):
        raise RulesError(N_("That player is not at this table."))
    return players[int(seat)]
