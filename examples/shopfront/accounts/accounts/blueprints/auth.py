"""Session login and logout."""

from flask import Blueprint, abort, jsonify, request, session
from werkzeug.security import check_password_hash

from accounts.models import User, db

auth_bp = Blueprint("auth", __name__, url_prefix="/api/auth")


@auth_bp.route("/login", methods=["POST"])
def login():
    """Check e-mail and password and open a session."""
    body = request.get_json(force=True)
    user = db.session.execute(db.select(User).filter_by(email=body.get("email"))).scalar_one_or_none()
    if user is None or not check_password_hash(user.password_hash, body.get("password", "")):
        abort(401)
    session["user_id"] = user.id
    return jsonify(user.to_dict())


@auth_bp.post("/logout")
def logout():
    """Close the current session."""
    session.clear()
    return "", 204
