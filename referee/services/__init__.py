"""The service layer: what the pages, the JSON API and the command line ask of the app.

Each function takes a database session and plain values, asks the rules for every
decision, and writes in one transaction. No Flask import: the same calls serve the HTML
pages, the JSON API and the tests. Errors are `RulesError` (bad input), `NotFound`,
`Forbidden` and `Conflict`, which the web layer maps to 422, 404, 403 and 409.
"""
