"""View decorators shared by the blueprints."""

from functools import wraps

from flask import abort, request, session


def require_json(view):
    """Reject requests whose body is not a JSON object."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        if not request.is_json or not isinstance(request.get_json(silent=True), dict):
            abort(415)
        return view(*args, **kwargs)

    return wrapper


def login_required(view):
    """Only the logged-in customer may see their own resources."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        if "user_id" not in session:
            abort(401)
        if "user_id" in kwargs and kwargs["user_id"] != session["user_id"]:
            abort(403)
        return view(*args, **kwargs)

    return wrapper
