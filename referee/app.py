"""The application factory, in the shape of Flask's tutorial: `create_app(test_config=None)`."""

import os
from pathlib import Path

from flask import Flask

from referee import config, db, errors, i18n, photos, security
from referee.drawing import domino as draw_domino
from referee.labels import preset_label, rule_title, rule_value
from referee.rules import describe
from referee.tiles import parse_tile

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config=None):
    app = Flask(__name__, instance_relative_config=True,
                template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.config.from_object(config.Config)
    app.config["SQLALCHEMY_DATABASE_URI"] = os.environ.get("DATABASE_URL")
    if test_config:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    if not app.config.get("SQLALCHEMY_DATABASE_URI"):
        app.config["SQLALCHEMY_DATABASE_URI"] = config.sqlite_url(app.instance_path)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = config.load_secret_key(app.instance_path)

    db.init_app(app)
    i18n.init_app(app)
    photos.init_app(app)  # before security: CSRF's check reads the form first
    security.init_app(app)
    errors.init_app(app)
    app.jinja_env.globals.update(draw_domino=draw_domino, preset_label=preset_label, rule_title=rule_title,
                                 rule_value=rule_value, tile_of=parse_tile, describe_rules=describe)

    from referee import api, pages, play, players
    app.register_blueprint(pages.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(api.bp)
    security.csrf.exempt(api.bp)
    from referee import desk  # referee desk: its pages, and POST /api/rulings/foot (JSON, no CSRF)
    app.register_blueprint(desk.bp); security.csrf.exempt(desk.ruling_api)
    return app
