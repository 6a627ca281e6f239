"""Addresses kept in an application's config mapping (``app.config``): written from the
environment in one place, read where the request is made."""

from __future__ import annotations

import textwrap

from tests.unit.analysis_python.pyana_support import link_sources, show


def _urls(sources: dict[str, str]) -> list[tuple[str, str | None]]:
    facts = link_sources({path: textwrap.dedent(text) for path, text in sources.items()})
    return sorted((c.method, show(c.url)) for c in facts.calls)


def test_an_item_written_at_module_level_is_read_through_current_app() -> None:
    app = """
    import os
    import requests
    from flask import Flask, current_app

    app = Flask(__name__)
    app.config["PANTRY_ADDR"] = os.environ["PANTRY_ADDR"]

    @app.route("/shelf")
    def shelf():
        return requests.get("http://" + current_app.config["PANTRY_ADDR"] + "/shelf").text
    """
    assert _urls({"svc/app.py": app}) == [("GET", "http://${PANTRY_ADDR}/shelf")]


def test_a_factory_writes_a_formatted_uri_and_a_blueprint_reads_it_with_get() -> None:
    factory = """
    import os
    from flask import Flask
    from svc.views import bp

    def create_app():
        app = Flask(__name__)
        app.config["RECEIPTS_URI"] = "http://{}/receipts".format(os.environ.get("RECEIPTS_API_ADDR"))
        app.register_blueprint(bp)
        return app
    """
    views = """
    import requests
    from flask import Blueprint, current_app

    bp = Blueprint("pay", __name__)

    @bp.route("/pay", methods=["POST"])
    def pay():
        return requests.post(current_app.config.get("RECEIPTS_URI"), json={}).status_code
    """
    assert _urls({"svc/__init__.py": factory, "svc/views.py": views}) == [
        ("POST", "http://${RECEIPTS_API_ADDR}/receipts")
    ]


def test_update_and_from_mapping_keywords_and_dicts() -> None:
    app = """
    import os
    import httpx
    from flask import Flask

    app = Flask(__name__)
    app.config.update({"LOANS_URL": os.getenv("LOANS_URL", "http://loans:8000")})
    app.config.from_mapping(RATES_ADDR=os.environ["RATES_ADDR"])

    def loans():
        return httpx.get(app.config["LOANS_URL"] + "/loans")

    def rates():
        return httpx.get(f"http://{app.config['RATES_ADDR']}/rates")
    """
    assert _urls({"svc/app.py": app}) == [
        ("GET", "${LOANS_URL:http://loans:8000}/loans"),
        ("GET", "http://${RATES_ADDR}/rates"),
    ]


def test_from_object_with_a_class_or_a_dotted_name() -> None:
    settings = """
    import os

    class Settings:
        WALLET_URL = os.environ.get("WALLET_URL", "http://wallet:9000")
    """
    by_class = """
    import requests
    from flask import Flask, current_app
    from svc.settings import Settings

    app = Flask(__name__)
    app.config.from_object(Settings)

    def wallet():
        return requests.get(current_app.config["WALLET_URL"] + "/wallet")
    """
    by_name = by_class.replace(
        "app.config.from_object(Settings)", 'app.config.from_object("svc.settings.Settings")'
    )
    expected = [("GET", "${WALLET_URL:http://wallet:9000}/wallet")]
    assert _urls({"svc/settings.py": settings, "svc/app.py": by_class}) == expected
    assert _urls({"svc/settings.py": settings, "svc/app.py": by_name}) == expected


def test_a_key_nobody_writes_keeps_its_default_or_stays_unknown() -> None:
    app = """
    import requests
    from flask import Flask, current_app

    app = Flask(__name__)
    app.config["TIMEOUT"] = 3

    def audit():
        return requests.get(current_app.config.get("AUDIT_URL", "http://audit:8080") + "/events")

    def archive():
        return requests.get(current_app.config["ARCHIVE_URL"] + "/old")
    """
    urls = _urls({"svc/app.py": app})
    assert ("GET", "http://audit:8080/events") in urls
    assert all("ARCHIVE" not in (u or "") or u.startswith("<") for _m, u in urls)


def test_a_plain_dict_named_config_is_not_an_app_config() -> None:
    app = """
    import requests

    config = {"HOST": "http://inventory:7000"}
    app_settings = {"config": {}}

    def stock():
        return requests.get(config["HOST"] + "/stock")
    """
    assert _urls({"svc/app.py": app}) == [("GET", "http://inventory:7000/stock")]


def test_from_object_with_a_module_name_reads_its_names() -> None:
    settings = """
    import os

    GRADES_URL = os.getenv("GRADES_URL")
    """
    app = """
    import requests
    from flask import Flask, current_app

    app = Flask(__name__)
    app.config.from_object("svc.config")

    def grades():
        grades_url = current_app.config.get("GRADES_URL")
        return requests.get(grades_url + "/grades")
    """
    assert _urls({"svc/config.py": settings, "svc/app.py": app}) == [("GET", "${GRADES_URL}/grades")]
