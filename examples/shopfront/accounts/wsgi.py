"""WSGI entry point (gunicorn wsgi:app); `python wsgi.py` runs the development server."""

from accounts import create_app

app = create_app()

if __name__ == "__main__":
    app.run(host="0.0.0.0", port=5000, debug=True)
