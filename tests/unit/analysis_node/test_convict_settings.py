"""Settings declared in a convict schema and read with `config.get("a.b")`: the schema's default
and environment variable stand behind the read, in any file of the service."""

from __future__ import annotations

from .support import analyze, url

SCHEMA_CJS = """\
    const convict = require('convict')
    module.exports = convict({
      port: { doc: 'where we listen', format: 'port', default: '7301', env: 'PORT' },
      ledger: {
        url: { doc: 'the ledger service', format: String, default: 'localhost:7302' },
      },
      vault: { host: { format: String, default: 'vault:7303', env: 'VAULT_HOST' } },
    })
    """

CLIENT_CJS = """\
    const config = require('./config')
    const got = require('got')
    exports.balance = (id) => got('http://' + config.get('ledger.url') + '/balances/' + id)
    exports.seal = (doc) => got.post(`http://${config.get('vault.host')}/seals`, { json: doc })
    exports.other = () => got('http://' + config.get('nowhere.url') + '/x')
    """


def test_convict_defaults_and_variables_stand_behind_config_get() -> None:
    facts = analyze({"src/config.js": SCHEMA_CJS, "src/clients.js": CLIENT_CJS})
    assert sorted(url(c.url) or "" for c in facts.calls) == [
        "http://${VAULT_HOST:vault:7303}/seals",
        "http://${ledger.url:localhost:7302}/balances/{?id}",
        "http://${nowhere.url}/x",
    ]


def test_the_listen_port_of_a_convict_setting() -> None:
    main = "const config = require('./config')\nconst app = require('express')()\napp.listen(config.get('port'))\n"
    facts = analyze({"src/config.js": SCHEMA_CJS, "src/main.js": main})
    assert facts.properties == {"server.port": "7301"}


def test_schema_typescript_with_a_numeric_default() -> None:
    schema = """\
        import convict from 'convict';
        export const settings = convict({ stock: { baseUrl: { format: 'url', default: 'http://stock:8100' } } });
        """
    client = """\
        import axios from 'axios';
        import { settings } from './settings';
        export const level = (sku: string) => axios.get(`${settings.get('stock.baseUrl')}/levels/${sku}`);
        """
    facts = analyze({"src/settings.ts": schema, "src/stock.ts": client})
    assert [url(c.url) for c in facts.calls] == ["${stock.baseUrl:http://stock:8100}/levels/{?sku}"]


def test_negative_an_object_that_is_not_a_convict_schema_declares_nothing() -> None:
    fake = """\
        const make = require('./make')
        module.exports = make({ ledger: { url: { default: 'localhost:7302' } } })
        """
    facts = analyze({"src/config.js": fake, "src/clients.js": CLIENT_CJS})
    assert "http://${ledger.url}/balances/{?id}" in [url(c.url) for c in facts.calls]
