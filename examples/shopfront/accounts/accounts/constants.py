"""Fixed names: vendor endpoints and the queue of outgoing e-mails."""

STRIPE_API = "https://api.stripe.com"
EMAIL_QUEUE = "notifications.email"
SESSION_COOKIE = "sf_session"
