"""The web: one blueprint package per part of the site, the templates, static files and
translations, and what every request shares (errors, security headers, languages).

Views parse what was sent, call the service layer, and render; no rule is decided here.
"""

from werkzeug.routing import IntegerConverter

#: The largest number an address may carry. PostgreSQL's integer columns stop at 2**31 - 1, so
#: a round or player number of ten digits or more can name nothing; typed numbers stop at nine
#: digits too (`rules.values.as_int`).
LARGEST_ADDRESS_NUMBER = 999_999_999


class AddressNumber(IntegerConverter):
    """`<int:...>` in every route, at most nine digits, so a huge number is "not found" (404),
    never a 500 from the database. The bound is in the pattern rather than Werkzeug's `max`:
    a value refused after matching would stop the search for other routes and answer 405."""

    regex = r"\d{1,9}"
