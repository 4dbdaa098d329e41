"""Room for a photo in the request that carries it."""

from flask import current_app, request


def init_app(app):
    """Let a request to read a photo be twice the photo cap (MAX_PHOTO_BYTES), so that a
    photo somewhat over the cap is refused on the round page, which keeps what was typed
    there. Registered before CSRF, whose check is the first to read the form."""

    @app.before_request
    def room_for_a_photo():
        if request.endpoint in ("play.photo", "desk.foot_photo", "api.read_photo"):
            request.max_content_length = 2 * current_app.config["MAX_PHOTO_BYTES"]
