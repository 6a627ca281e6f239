"""Value folding: constants across modules, f-strings, + % .format, env reads, settings objects."""

from pyana_support import calls, link_sources, messages, show


def _urls(src: dict[str, str]) -> list[tuple[int, str | None, str | None]]:
    return sorted((c.line, c.method, show(c.url)) for c in link_sources(src).calls)


def test_pydantic_settings_prefix_alias_and_cached_getter():
    src = {
        "svc/app/config.py": (
            "from functools import lru_cache\n"
            "from pydantic import BaseSettings, Field\n"
            "class Settings(BaseSettings):\n"
            "    users_url: str = 'http://users:80'\n"
            "    billing: str = Field('http://billing', env='BILLING_ENDPOINT')\n"
            "    class Config:\n"
            "        env_prefix = 'APP_'\n"
            "@lru_cache\n"
            "def get_settings():\n"
            "    return Settings()\n"
        ),
        "svc/app/client.py": (
            "import requests\n"
            "from app.config import get_settings\n"
            "def users():\n"
            "    return requests.get(get_settings().users_url + '/users')\n"
            "def bill():\n"
            "    s = get_settings()\n"
            "    return requests.post(f'{s.billing}/invoices')\n"
        ),
    }
    assert _urls(src) == [
        (4, "GET", "${APP_USERS_URL:http://users:80}/users"),
        (7, "POST", "${BILLING_ENDPOINT:http://billing}/invoices"),
    ]


def test_dataclass_config_env_defaults_format_percent_and_or_fallback():
    src = {
        "svc/conf.py": (
            "import os\n"
            "from dataclasses import dataclass\n"
            "@dataclass\n"
            "class Config:\n"
            "    stock_url: str = os.getenv('STOCK_URL', 'http://stock')\n"
            "    mail_host: str = 'mail'\n"
            "CONFIG = Config()\n"
            "PORT = 8025\n"
        ),
        "svc/jobs.py": (
            "import os\n"
            "import httpx\n"
            "from conf import CONFIG, PORT\n"
            "API = os.environ['API_BASE']\n"
            "TOKEN_HOST = os.getenv('TOKEN_HOST') or 'auth:9000'\n"
            "def run(sku):\n"
            "    httpx.get('{}/stock/{}'.format(CONFIG.stock_url, sku))\n"
            "    httpx.post('http://%s:%d/send' % (CONFIG.mail_host, PORT))\n"
            "    httpx.delete(API + '/cache')\n"
            "    httpx.get(f'http://{TOKEN_HOST}/token')\n"
        ),
    }
    assert _urls(src) == [
        (7, "GET", "${STOCK_URL:http://stock}/stock/<sku>"),
        (8, "POST", "http://${MAIL_HOST:mail}:8025/send"),
        (9, "DELETE", "${API_BASE}/cache"),
        (10, "GET", "http://${TOKEN_HOST:auth:9000}/token"),
    ]


def test_star_imports_client_objects_and_urllib():
    src = {
        "svc/pkg/__init__.py": "",
        "svc/pkg/consts.py": "BASE = 'http://ledger:8080'\nPATH = BASE + '/entries'\n",
        "svc/pkg/io.py": (
            "import aiohttp\n"
            "import httpx\n"
            "import urllib.request\n"
            "from .consts import *\n"
            "async def fetch():\n"
            "    async with aiohttp.ClientSession() as session:\n"
            "        async with session.get(PATH) as resp:\n"
            "            return await resp.text()\n"
            "def sync():\n"
            "    with httpx.Client(base_url=BASE) as client:\n"
            "        client.put('/entries/1', json={})\n"
            "        client.request('PATCH', '/entries/2')\n"
            "def legacy(data):\n"
            "    req = urllib.request.Request(BASE + '/import', data=data)\n"
            "    return urllib.request.urlopen(req)\n"
        ),
    }
    assert sorted((c.line, c.client, c.method, show(c.url)) for c in link_sources(src).calls) == [
        (7, "aiohttp", "GET", "http://ledger:8080/entries"),
        (11, "httpx", "PUT", "http://ledger:8080/entries/1"),
        (12, "httpx", "PATCH", "http://ledger:8080/entries/2"),
        (15, "urllib", "POST", "http://ledger:8080/import"),
    ]


def test_wrapper_with_method_parameter_is_reported_at_each_call_site():
    src = {
        "svc/api.py": (
            "import os\n"
            "import requests\n"
            "from fastapi import FastAPI\n"
            "BASE = os.getenv('CART_URL', 'http://cart')\n"
            "app = FastAPI()\n"
            "def call(method, path, **kw):\n"
            "    return requests.request(method, BASE + path, **kw)\n"
            "@app.get('/carts/{cid}')\n"
            "def cart(cid: int):\n"
            "    return call('GET', f'/carts/{cid}')\n"
            "@app.delete('/carts/{cid}')\n"
            "def drop(cid: int):\n"
            "    call('DELETE', '/carts/' + str(cid))\n"
        )
    }
    assert calls(link_sources(src)) == [
        (
            "svc/api.py",
            10,
            "http",
            "wrapper:call",
            "GET",
            "${CART_URL:http://cart}/carts/<cid>",
            "cart",
            None,
        ),
        (
            "svc/api.py",
            13,
            "http",
            "wrapper:call",
            "DELETE",
            "${CART_URL:http://cart}/carts/<cid>",
            "drop",
            None,
        ),
    ]


def test_untyped_wrapper_without_call_sites_keeps_its_own_call():
    src = {"svc/c.py": "import requests\ndef get(url):\n    return requests.get(url)\n"}
    assert calls(link_sources(src)) == [("svc/c.py", 3, "http", "requests", "GET", "<url>", None, None)]


def test_channel_names_from_class_constants_and_aio_pika_exchange():
    src = {
        "svc/topics.py": "class Topics:\n    CREATED = 'orders.created'\n",
        "svc/pub.py": (
            "import aio_pika\n"
            "from topics import Topics\n"
            "async def main(producer):\n"
            "    conn = await aio_pika.connect_robust('amqp://rabbit')\n"
            "    ch = await conn.channel()\n"
            "    ex = await ch.declare_exchange('orders', aio_pika.ExchangeType.TOPIC)\n"
            "    await ex.publish(aio_pika.Message(b'x'), routing_key=Topics.CREATED)\n"
            "    await ch.default_exchange.publish(aio_pika.Message(b'y'), routing_key='emails')\n"
            "    q = await ch.declare_queue('billing')\n"
            "    await q.bind(ex, routing_key=Topics.CREATED)\n"
            "    await q.consume(print)\n"
        ),
    }
    assert messages(link_sources(src)) == [
        ("svc/pub.py", 7, "publishes", "rabbitmq", "orders", None),
        ("svc/pub.py", 8, "publishes", "rabbitmq", "emails", None),
        ("svc/pub.py", 10, "consumes", "rabbitmq", "orders", None),
        ("svc/pub.py", 11, "consumes", "rabbitmq", "billing", None),
    ]


def test_module_level_attribute_assignments_are_values():
    """``fetch.endpoint = "..."`` on a function, read through a module import; a negative: an
    attribute set inside a function is not a module value."""
    src = {
        "svc/app/routes.py": (
            "def fetch():\n"
            "    pass\n"
            "fetch.endpoint = 'http://pricing:8080/quotes'\n"
            "def later():\n"
            "    fetch.other = 'http://never:1'\n"
        ),
        "svc/app/client.py": (
            "import requests\n"
            "from app import routes\n"
            "def go():\n"
            "    requests.get(routes.fetch.endpoint)\n"
            "    requests.get(routes.fetch.other)\n"
        ),
    }
    got = _urls(src)
    assert got[0] == (4, "GET", "http://pricing:8080/quotes")
    assert got[1][2] != "http://never:1"
