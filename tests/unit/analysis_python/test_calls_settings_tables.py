"""A settings field holding a table of service URLs (``upstreams: dict[str, str] = {...}``) looked
up by a literal key names that entry; a runtime key is any of them; a key the table lacks, none."""

from pyana_support import calls, link_sources

SETTINGS = '''
from pydantic_settings import BaseSettings


class Settings(BaseSettings):
    upstreams: dict[str, str] = {"ledger": "http://ledger:9000", "quotes": "http://quotes:8080"}


settings = Settings()
'''

BY_KEY = '''
import httpx

from svc.settings import settings


async def entries(acct):
    async with httpx.AsyncClient() as client:
        return await client.get(f"{settings.upstreams['ledger']}/accounts/{acct}")
'''

BY_GET_STYLE_CLIENT = '''
import requests

from svc.settings import settings


def quote(sym):
    base = settings.upstreams["quotes"]
    return requests.get(base + "/quotes/" + sym)
'''

RUNTIME_KEY = '''
import requests

from svc.settings import settings


def forward(name, path):
    return requests.get(settings.upstreams[name] + path)
'''

MISSING_KEY = '''
import requests

from svc.settings import settings


def lost():
    return requests.get(settings.upstreams["archive"] + "/docs")
'''


def _urls(sources):
    facts = link_sources({"svc/settings.py": SETTINGS, **sources})
    return sorted(url for _f, _l, _k, _c, _m, url, _h, _g in calls(facts))


def test_a_literal_key_names_the_table_entry():
    assert _urls({"svc/ledger.py": BY_KEY}) == ["http://ledger:9000/accounts/<acct>"]


def test_a_key_read_into_a_local_first_names_the_entry_too():
    assert _urls({"svc/quotes.py": BY_GET_STYLE_CLIENT}) == ["http://quotes:8080/quotes/<sym>"]


def test_a_runtime_key_is_any_entry_of_the_table():
    urls = _urls({"svc/fwd.py": RUNTIME_KEY})
    assert any("ledger:9000" in (u or "") for u in urls) and any("quotes:8080" in (u or "") for u in urls)


def test_a_key_the_table_lacks_names_no_entry():
    assert not any("ledger" in (u or "") or "quotes" in (u or "") for u in _urls({"svc/lost.py": MISSING_KEY}))
