"""The generic reachability pass: every handler reaching a function through the service's own
calls, however deep; and the Python and Node analyzers attributing a call to each of them."""

from __future__ import annotations

import sys
from pathlib import Path

from orbitkb.analysis.reach import reached_by

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from analysis_node.support import analyze  # noqa: E402
from analysis_python.pyana_support import link_sources  # noqa: E402


def test_deep_chains_shared_helpers_and_cycles():
    # client calls back into h1: B reaches h1 through it
    edges = {"h1": ["svc"], "h2": ["other"], "other": ["svc"], "svc": ["client", "svc"], "client": ["h1"]}
    got = reached_by({"A": ["h1"], "B": ["h2"]}, lambda n: edges.get(n, ()))
    assert got == {
        "h1": {"A", "B"}, "svc": {"A", "B"}, "client": {"A", "B"}, "h2": {"B"}, "other": {"B"},
    }  # fmt: skip
    assert reached_by({}, lambda n: ()) == {}


def test_python_a_client_call_belongs_to_every_route_reaching_it_through_a_service_class():
    facts = link_sources(
        {
            "svc/app.py": (
                "from flask import Flask\n"
                "from svc.service import OrderService\n"
                "app = Flask(__name__)\n"
                "service = OrderService()\n"
                "@app.post('/orders')\n"
                "def create():\n"
                "    return service.place()\n"
                "@app.post('/orders/retry')\n"
                "def retry():\n"
                "    return service.place()\n"
                "@app.get('/health')\n"
                "def health():\n"
                "    return 'ok'\n"
            ),
            "svc/service.py": (
                "from svc.clients import PaymentsClient\n"
                "class OrderService:\n"
                "    def __init__(self):\n"
                "        self.payments = PaymentsClient()\n"
                "    def place(self):\n"
                "        return self._charge()\n"
                "    def _charge(self):\n"
                "        return self.payments.charge(10)\n"
            ),
            "svc/clients.py": (
                "import requests\n"
                "class PaymentsClient:\n"
                "    def charge(self, amount):\n"
                "        return requests.post('http://payments/charge', json={'amount': amount})\n"
            ),
        }
    )
    assert sorted((c.file, c.line, c.api_handler) for c in facts.calls) == [
        ("svc/clients.py", 4, "create"),
        ("svc/clients.py", 4, "retry"),
    ]


def test_node_a_call_three_calls_deep_belongs_to_each_route_reaching_it():
    facts = analyze(
        {
            "src/app.js": """
                const express = require('express');
                const { placeOrder } = require('./service');
                const app = express();
                app.post('/orders', async (req, res) => res.json(await placeOrder(req.body)));
                app.post('/orders/retry', async (req, res) => res.json(await placeOrder(req.body)));
                app.get('/health', (req, res) => res.send('ok'));
            """,
            "src/service.js": """
                const { charge } = require('./payments');
                async function placeOrder(order) { return validateThenCharge(order); }
                async function validateThenCharge(order) { return charge(order.amount); }
                module.exports = { placeOrder };
            """,
            "src/payments.js": """
                const axios = require('axios');
                async function charge(amount) { return axios.post('http://payments/charge', { amount }); }
                module.exports = { charge };
            """,
        }
    )
    handlers = {a.handler: a.path for a in facts.apis}
    got = sorted(handlers.get(c.api_handler or "", c.api_handler) for c in facts.calls)
    assert got == ["/orders", "/orders/retry"]
