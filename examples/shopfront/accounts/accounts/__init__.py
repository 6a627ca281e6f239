"""Flask application factory of the accounts service."""

from flask import Flask, jsonify
from shopfront_common.logging import configure_logging

from accounts.blueprints.auth import auth_bp
from accounts.blueprints.users import users_bp
from accounts.models import db


def create_app(config_object: str = "accounts.config.Config") -> Flask:
    configure_logging("accounts")
    app = Flask(__name__)
    app.config.from_object(config_object)
    db.init_app(app)

    # Imported for its side effect: it registers PaymentMethodsView on users_bp.
    from accounts.blueprints import payment_methods  # noqa: F401

    app.register_blueprint(users_bp, url_prefix="/api/users")
    app.register_blueprint(auth_bp)

    @app.route("/healthz")
    def healthz():
        """Liveness probe."""
        return jsonify(status="ok")

    return app
