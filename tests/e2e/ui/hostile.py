"""A small repository whose names, descriptions, routes and addresses are markup and script URLs:
what an attacker would commit hoping a viewer renders it as HTML."""

from __future__ import annotations

from pathlib import Path

SCRIPT = "<script>window.__pwned='script'</script>"
IMG = "\"><img src=x onerror=window.__pwned='img'>"
JS_URL = "javascript:window.__pwned='url'"
MARKERS = (SCRIPT, IMG, JS_URL)

FILES = {
    "docker-compose.yml": f"""\
services:
  storefront:
    build: ./storefront
    environment:
      LEDGER_URL: http://ledger:8000
      PARTNER_URL: "https://partner.example/{IMG}"
  ledger:
    build: ./ledger
    depends_on: [postgres]
  postgres:
    image: postgres:16
""",
    "storefront/requirements.txt": "flask\nrequests\nkafka-python\n",
    "storefront/events.py": f'''\
from kafka import KafkaConsumer

consumer = KafkaConsumer("{SCRIPT}", bootstrap_servers="kafka:9092")
''',
    "storefront/README.md": f"# storefront\n\nSells things {SCRIPT} and links to {JS_URL} for help.\n",
    "storefront/app.py": f'''\
"""Storefront {SCRIPT} web front."""
import os

import requests
from flask import Flask

app = Flask(__name__)


@app.get("/{JS_URL}")
def help_page():
    """Help {IMG}"""
    return requests.get(os.environ["LEDGER_URL"] + "/entries").text


@app.get("/partner")
def partner():
    return requests.get(os.environ["PARTNER_URL"]).text
''',
    "ledger/requirements.txt": "flask\nsqlalchemy\nkafka-python\n",
    "ledger/events.py": f'''\
from kafka import KafkaProducer

producer = KafkaProducer(bootstrap_servers="kafka:9092")


def announce(entry):
    producer.send("{SCRIPT}", b"entry")
''',
    "ledger/README.md": f"# ledger\n\nKeeps the books {IMG}.\n",
    "ledger/app.py": f'''\
"""Ledger {IMG}."""
from flask import Flask
from sqlalchemy import Column, Integer, String
from sqlalchemy.orm import declarative_base

app = Flask(__name__)
Base = declarative_base()


class Entry(Base):
    __tablename__ = "{SCRIPT}"
    id = Column(Integer, primary_key=True)
    memo = Column(String)


@app.get("/entries")
def entries():
    """List entries {SCRIPT}"""
    return "[]"
''',
}


def write(root: Path) -> Path:
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
