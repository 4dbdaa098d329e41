"""referee: scorekeeper and referee for Chicken Foot dominoes at a real table.

The rules live in the pure core (tiles, rules, scoring, foot); everything else in this
package is the web layer around it: the app factory below, the blueprints, the models.
"""

from referee.app import create_app

__all__ = ["create_app"]
