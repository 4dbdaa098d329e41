"""What the junk-input property tests share: settings, a junk strategy, and the one check."""

import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from referee.rules.text import RulesError
from referee.rules.tiles import Tile

# REFEREE_EXAMPLES=3000 runs the long hunt; the default keeps the suite fast.
FAST = settings(max_examples=int(os.environ.get("REFEREE_EXAMPLES", 60)), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


def junk(words, tile_top, text_size=8, key_size=4, leaves=10):
    """Anything a form or a JSON body could send: scalars, the given near-miss words, tiles
    with halves up to `tile_top`, and lists and dicts of them."""
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                        st.text(max_size=text_size), st.sampled_from(words),
                        st.builds(Tile, st.integers(0, tile_top), st.integers(0, tile_top)))
    return st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                         st.dictionaries(st.text(max_size=key_size), inner,
                                                                         max_size=4)),
                        max_leaves=leaves)


def only_rules_errors(call, *args, **kwargs):
    """Bad input may only ever raise RulesError, with a message."""
    try:
        call(*args, **kwargs)
    except RulesError as err:
        assert str(err)
