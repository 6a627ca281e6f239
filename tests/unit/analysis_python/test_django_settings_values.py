"""``django.conf.settings.NAME`` reads NAME from the project's settings module: the one declaring
INSTALLED_APPS / ROOT_URLCONF, else a ``settings.py`` or a module of a ``settings/`` package."""

from pyana_support import calls, link_sources

PROJECT = {
    "shop/shop/settings.py": '''
import os
INSTALLED_APPS = ["orders"]
ROOT_URLCONF = "shop.urls"
STOCK_API = os.environ.get("STOCK_API", "http://stock:8080/api")
''',
    "shop/orders/views.py": '''
import requests
from django.conf import settings
from django.conf import settings as conf


def reserve(sku):
    requests.post(f"{settings.STOCK_API}/reservations", json={"sku": sku})
    requests.get(conf.STOCK_API + "/items/" + sku)
    requests.get(settings.NOT_SET_ANYWHERE + "/x")
''',
}

SPLIT = {
    "site/config/settings/base.py": '''
LEDGER_URL = "http://ledger:9000"
''',
    "site/config/settings/__init__.py": "",
    "site/billing/client.py": '''
import httpx
from django.conf import settings


def post_entry(entry):
    return httpx.post(settings.LEDGER_URL + "/entries", json=entry)
''',
}


def _urls(facts):
    return [(line, url) for _f, line, _k, _c, _m, url, _a, _g in calls(facts)]


def test_settings_values_fill_the_url_under_any_import_name():
    got = _urls(link_sources(PROJECT, root="shop"))
    assert (8, "${STOCK_API:http://stock:8080/api}/reservations") in got
    assert (9, "${STOCK_API:http://stock:8080/api}/items/<sku>") in got
    # a setting no module defines stays unresolved, never a made-up value
    assert [u for line, u in got if line == 10] == ["<django.conf.settings.NOT_SET_ANYWHERE>/x"]


def test_a_settings_package_module():
    assert _urls(link_sources(SPLIT, root="site")) == [(7, "http://ledger:9000/entries")]
