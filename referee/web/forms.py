"""Turning posted HTML forms into the plain values the service layer takes.

Form fields are named by seat (`tiles-0`, `pips-0`, `went_out=0`) so that a name with
odd characters never becomes part of a field name.
"""

from referee.rules.draw_game import DRAW_OPTIONS
from referee.rules.house_rules import OPTIONS
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
    spec = {"preset": form.get("preset", "pagat")}
    for name in (*OPTIONS, "target"):
        value = form.get(f"rule-{name}")
        if value not in (None, "", "preset"):
            spec[name] = value
    return spec


def round_from_form(form, players: list) -> RoundEntry:
    went_out_seat = form.get("went_out", "")
    went_out = None
    if went_out_seat not in ("", "blocked"):
        went_out = _seat_name(went_out_seat, players)
    hands = {}
    for seat, name in enumerate(players):
        tiles = form.getlist(f"tiles-{seat}")
        typed = form.get(f"pips-{seat}", "").strip()
        if tiles and typed:
            raise RulesError(N_("%(player)s has both tapped tiles and a typed total: keep one of them."), player=name)
        if tiles:
            hands[name] = tiles
        elif typed:
            hands[name] = _pips(typed, name)
        elif name == went_out:
            hands[name] = []
    blocker_seat = form.get("blocker", "")
    blocker = _seat_name(blocker_seat, players) if blocker_seat and went_out_seat == "blocked" else None
    capicu_tile = form.get("capicu_tile", "").strip() if went_out is not None else ""
    return RoundEntry(hands=hands, went_out=went_out, blocked=went_out_seat == "blocked",
                      out_on_double=bool(form.get("out_on_double")), blocker=blocker,
                      capicu_tile=capicu_tile or None)


def _pips(typed: str, name: str) -> int:
    try:
        value = int(typed)
    except ValueError:
        raise RulesError(N_("The total for %(player)s must be a whole number of pips, not '%(value)s'."),
                         player=name, value=typed[:20]) from None
    return value


def _seat_name(seat: str, players: list) -> str:
    try:
        return players[int(seat)]
    except (ValueError, IndexError):
        raise RulesError(N_("That player is not at this table.")) from None
