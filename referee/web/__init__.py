"""The web: one blueprint package per part of the site, the templates, static files and
translations, and what every request shares (errors, security headers, languages).

Views parse what was sent, call the service layer, and render; no rule is decided here.
"""
