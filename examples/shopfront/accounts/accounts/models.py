"""Account tables (PostgreSQL), via Flask-SQLAlchemy."""

from datetime import datetime

from flask_sqlalchemy import SQLAlchemy

db = SQLAlchemy()


class User(db.Model):
    __tablename__ = "users"

    id = db.Column(db.Integer, primary_key=True)
    email = db.Column(db.String(254), unique=True, nullable=False)
    first_name = db.Column(db.String(80), nullable=False)
    password_hash = db.Column(db.String(255), nullable=False)
    stripe_customer_id = db.Column(db.String(64), nullable=True)
    created_at = db.Column(db.DateTime, default=datetime.utcnow)
    addresses = db.relationship("Address", backref="user", lazy="select")

    def to_dict(self) -> dict:
        return {"id": self.id, "email": self.email, "first_name": self.first_name}


class Address(db.Model):
    __tablename__ = "addresses"

    id = db.Column(db.Integer, primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("users.id"), nullable=False)
    line1 = db.Column(db.String(200), nullable=False)
    city = db.Column(db.String(100), nullable=False)
    postcode = db.Column(db.String(20), nullable=False)
    country = db.Column(db.String(2), nullable=False, default="DE")

    def to_dict(self) -> dict:
        return {"id": self.id, "line1": self.line1, "city": self.city, "postcode": self.postcode, "country": self.country}
