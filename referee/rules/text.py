"""Sentences the rules core hands to people, kept translatable.

The core never builds finished text: it returns an English msgid with named parameters,
so the web layer can look the msgid up in French or Dutch and fill in the same values.
"""

from dataclasses import dataclass, field

SHOWN_LENGTH = 30


def N_(msgid: str) -> str:
    """Mark a msgid for pybabel extraction; translating it is the web layer's job."""
    return msgid


class Plural(str):
    """A msgid whose words follow a number (the parameter `counted`): the singular is the
    string itself, `plural` the words for any other number ("1 tile", "0 tiles"). Each
    language has its own rule for which numbers take which form: the web layer asks
    gettext's ngettext."""

    plural: str
    counted: str

    def __new__(cls, singular: str, plural: str, counted: str) -> "Plural":
        msgid = super().__new__(cls, singular)
        msgid.plural, msgid.counted = plural, counted
        return msgid

    def __mod__(self, params):
        return str.__mod__(str(self) if params.get(self.counted) == 1 else self.plural, params)


def NP_(singular: str, plural: str, counted: str) -> Plural:
    """Mark a msgid with a plural for pybabel extraction (see Plural)."""
    return Plural(singular, plural, counted)


@dataclass(frozen=True)
class Message:
    """One sentence for a person: a msgid with %(name)s placeholders and their values."""

    msgid: str
    params: dict = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        return self.msgid % self.params


class RulesError(ValueError):
    """Input the rules cannot accept, with a message that tells the table why."""

    def __init__(self, msgid: str, **params):
        self.msgid = msgid
        self.params = params
        super().__init__(msgid % params)

    @property
    def message(self) -> Message:
        return Message(self.msgid, self.params)


def shown(value) -> str:
    """What someone typed, short enough to quote back in an error message."""
    try:
        text = value if isinstance(value, str) else repr(value)
    except ValueError:  # an integer too long for Python to print
        return "..."
    if len(text) > SHOWN_LENGTH:
        return text[:SHOWN_LENGTH] + "..."
    return text
