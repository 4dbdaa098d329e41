"""Reading the values people type or send: whole numbers, counts and yes/no switches.

A form sends text and the API sends JSON, so each value may arrive as a string or as
itself; either way a bad one is refused with a sentence naming what was wrong.
"""

import re

from referee.rules.text import N_, RulesError, shown

_INTEGER = re.compile(r"^[+-]?[0-9]{1,9}$")
_YES = ("true", "yes", "on", "1")
_NO = ("false", "no", "off", "0")


def as_int(value, what: str) -> int:
    """A whole number from an int or from text such as "9" typed in a form."""
    if type(value) is int:
        return value
    if isinstance(value, str) and _INTEGER.match(value.strip()):
        return int(value.strip())
    raise RulesError(N_("'%(value)s' is not a whole number (%(what)s)."), value=shown(value), what=what)


def as_count(value, what: str) -> int:
    """A whole number of 0 or more."""
    number = as_int(value, what)
    if number < 0:
        raise RulesError(N_("%(what)s cannot be negative (%(value)d)."), what=what, value=number)
    return number


def as_flag(value, what: str) -> bool:
    """Yes or no, from a bool or from what a form or JSON sends ("true", "on", "0")."""
    if type(value) is bool:
        return value
    if type(value) is int and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _YES + _NO:
        return value.strip().lower() in _YES
    raise RulesError(N_("'%(value)s' is not yes or no (%(what)s)."), value=shown(value), what=what)


def listed(choices) -> str:
    return ", ".join(str(choice) for choice in choices)
