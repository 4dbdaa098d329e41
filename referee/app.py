"""The application factory, in the shape of Flask's tutorial: `create_app(test_config=None)`.

It is the one place where the layers are wired together: the storage's engine is made and
migrated here and handed to the web layer, which reaches it only through `web.db.session()`.
"""

import os

from flask import Flask

from referee import config, web
from referee.rules.house_rules import describe
from referee.rules.tiles import parse_tile
from referee.services import games
from referee.storage import database
from referee.web import api, db, desk, errors, game, i18n, pages, players, security, uploads
from referee.web.labels import place_label, preset_label, rule_title, rule_value
from referee.web.tile_pictures import domino as draw_domino


def create_app(test_config=None):
    app = Flask(__name__, instance_relative_config=True, template_folder="web/templates",
                static_folder="web/static")
    app.config.from_object(config.Config)
    app.config["SQLALCHEMY_DATABASE_URI"] = os.environ.get("DATABASE_URL")
    if test_config:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SQLALCHEMY_DATABASE_URI"):
        app.config["SQLALCHEMY_DATABASE_URI"] = config.sqlite_url(app.instance_path)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = config.load_secret_key(app.instance_path)

    engine = database.make_engine(app.config["SQLALCHEMY_DATABASE_URI"])
    database.migrate(engine)
    db.init_app(app, engine)
    i18n.init_app(app)
    uploads.init_app(app)  # before security: CSRF's check reads the form first
    security.init_app(app)
    errors.init_app(app)
    app.jinja_env.globals.update(draw_domino=draw_domino, preset_label=preset_label, rule_title=rule_title,
                                 place_label=place_label,
                                 rule_value=rule_value, tile_of=parse_tile, describe_rules=describe,
                                 MAX_NAME=games.MAX_NAME)

    app.url_map.converters["int"] = web.AddressNumber  # before the routes are added
    for blueprint in (pages.bp, game.bp, players.bp, desk.bp, api.bp):
        app.register_blueprint(blueprint)
    security.csrf.exempt(api.bp)
    return app
