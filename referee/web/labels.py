"""Short names for the rules and their choices, for form fields and card headings.

Presentation only: what each choice does is decided (and described at length) by the rules
core; these are the few words a select box has room for.
"""

from referee.rules.text import Message, N_

TITLES = {
    "set": N_("Domino set"),
    "deal_table": N_("Deal"),
    "players": N_("Players"),
    "opening": N_("Who lays the round's double"),
    "missing_double": N_("Nobody holds the double"),
    "arms": N_("Arms on the starting double"),
    "toes": N_("Toes on a later double"),
    "must_play_drawn": N_("A drawn tile that fits"),
    "keep_back": N_("Keep-back tiles in the boneyard"),
    "impossible_foot": N_("A foot that can never be completed"),
    "double_blank": N_("[0-0] left in hand"),
    "out_on_double_penalty": N_("Going out on a double"),
    "chicken_little": N_("Chicken little"),
    "match_length": N_("Match length"),
    "target": N_("Agreed total"),
    "round_start": N_("Each round starts on"),
    "target_ends": N_("The agreed total ends the match"),
    "tie": N_("Equal lowest totals"),
    "score_losers_only": N_("Points for the winning team"),
    "blocked_to_blocker": N_("A blocked hand goes to"),
    "capicu_bonus": N_("Capicu bonus"),
    "one_v_one": N_("Players"),
}

CHOICES = {
    ("opening", "holder"): N_("Its holder lays it and opens"),
    ("opening", "highest-draw"): N_("In the centre; highest draw opens"),
    ("opening", "turn-up"): N_("Turned up round the table"),
    ("opening", "centre-rotate"): N_("In the centre; first turn rotates"),
    ("missing_double", "draw-until-found"): N_("Draw one each until found"),
    ("missing_double", "next-lower"): N_("Start on the next lower double"),
    ("missing_double", "set-aside-before-deal"): N_("Set aside before the deal"),
    ("missing_double", "cannot-happen"): N_("Cannot happen"),
    ("arms", "per-player"): N_("One per player (up to 8)"),
    ("must_play_drawn", False): N_("May be played"),
    ("must_play_drawn", True): N_("Must be played"),
    ("keep_back", "none"): N_("None"),
    ("keep_back", "gamerules"): N_("Last 2 (2 players) or last 1"),
    ("impossible_foot", "play-on"): N_("Play on until nobody can move"),
    ("impossible_foot", "round-ends"): N_("The round ends at once"),
    ("impossible_foot", "released"): N_("The foot is released"),
    ("impossible_foot", "table-decides"): N_("Open: the table decides"),
    ("double_blank", 0): N_("Face value (0)"),
    ("out_on_double_penalty", 0): N_("Allowed"),
    ("chicken_little", 0): N_("Not played"),
    ("chicken_little", 1): N_("Caught: draw one tile"),
    ("match_length", "full"): N_("Every double down to [0-0]"),
    ("match_length", "half"): N_("Half match"),
    ("match_length", "one-round"): N_("One round"),
    ("match_length", "target"): N_("To an agreed total"),
    ("round_start", "descending"): N_("One double lower each round"),
    ("round_start", "highest"): N_("The highest double, every round"),
    ("target_ends", "reaching"): N_("Reaching it loses"),
    ("target_ends", "exceeding"): N_("Going over it loses"),
    ("tie", "draw"): N_("A draw"),
    ("tie", "first-out-wins"): N_("First out in the last round wins"),
    ("score_losers_only", False): N_("Every pip left in all hands"),
    ("score_losers_only", True): N_("Only the losing team's pips"),
    ("blocked_to_blocker", False): N_("The team with fewer pips"),
    ("blocked_to_blocker", True): N_("The blocker's team"),
    ("capicu_bonus", 0): N_("None (tournament rules)"),
    ("one_v_one", False): N_("2 v 2, partners opposite"),
    ("one_v_one", True): N_("1 v 1, draw until a tile fits"),
    ("target", None): N_("One hand decides"),
}

PRESETS = {
    "pagat": N_("Pagat (Puremco deal)"),
    "pagat-reduced": N_("Pagat, smaller deal"),
    "kelley": N_("Kelley"),
    "gamerules": N_("Gamerules (one arm per player)"),
    "hub8": N_("8-arm hub set"),
    "double-foot": N_("Double chicken foot (6 arms)"),
    "team": N_("Team dominoes (2 v 2)"),
    "draw": N_("Draw game"),
}

_NUMBERED = {
    "set": N_("Double-%(value)s"),
    "arms": N_("%(value)s arms"),
    "toes": N_("%(value)s toes"),
    "double_blank": N_("Counts %(value)s"),
    "out_on_double_penalty": N_("Costs %(value)s"),
    "capicu_bonus": N_("%(value)s points"),
    "target": N_("First to %(value)s points"),
}


def rule_title(name: str) -> Message:
    return Message(TITLES.get(name, name))


def rule_value(name: str, value) -> Message:
    if (name, value) in CHOICES:
        return Message(CHOICES[name, value])
    if name in _NUMBERED:
        return Message(_NUMBERED[name], {"value": value})
    return Message("%(value)s", {"value": value})


def preset_label(name: str) -> Message:
    return Message(PRESETS.get(name, name))


#: A place in a finished match's order, up to the eight players a game can have.
PLACES = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"), N_("5th"), N_("6th"), N_("7th"), N_("8th"))


def place_label(place: int) -> Message:
    if 1 <= place <= len(PLACES):
        return Message(PLACES[place - 1])
    return Message("%(value)s", {"value": place})
