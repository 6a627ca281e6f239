"""Customer profile endpoints. The blueprint gets its /api/users prefix when it is registered."""

from flask import Blueprint, jsonify, request
from werkzeug.security import generate_password_hash

from accounts.clients import orders_api, stripe
from accounts.decorators import login_required, require_json
from accounts.mailer import queue_welcome_email
from accounts.models import Address, User, db

users_bp = Blueprint("users", __name__)


@users_bp.route("", methods=["POST"])
@require_json
def register_user():
    """Create a customer account, its Stripe customer, and queue the welcome e-mail."""
    body = request.get_json()
    user = User(email=body["email"], first_name=body["first_name"], password_hash=generate_password_hash(body["password"]))
    customer = stripe.post("/v1/customers", data={"email": user.email, "name": user.first_name})
    user.stripe_customer_id = customer["id"]
    db.session.add(user)
    db.session.commit()
    queue_welcome_email(user.email, user.first_name)
    return jsonify(user.to_dict()), 201


@users_bp.get("/<int:user_id>")
@login_required
def get_user(user_id: int):
    """Return the profile of the logged-in customer."""
    return jsonify(db.get_or_404(User, user_id).to_dict())


@users_bp.get("/<int:user_id>/orders")
@login_required
def list_user_orders(user_id: int):
    """The customer's order history, as kept by the orders service."""
    return jsonify(orders_api.get("/api/orders", customerId=user_id))


@users_bp.get("/<int:user_id>/addresses")
def list_addresses(user_id: int):
    """Postal addresses of a customer. Also called by shipping to print labels."""
    user = db.get_or_404(User, user_id)
    return jsonify([a.to_dict() for a in user.addresses])


@users_bp.post("/<int:user_id>/addresses")
@login_required
@require_json
def add_address(user_id: int):
    """Add a postal address to the customer's address book."""
    body = request.get_json()
    address = Address(user_id=user_id, **{k: body[k] for k in ("line1", "city", "postcode", "country")})
    db.session.add(address)
    db.session.commit()
    return jsonify(address.to_dict()), 201
