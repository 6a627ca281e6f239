"""A Router in a file no other file of the service loads, in a service that starts its own server,
is a routes file left behind: its routes are not served. Routers loaded anywhere (an inline
`require` in a mount, a function's body) are, and so are routers of files without any server."""

from __future__ import annotations

from .support import analyze


def _routes(files: dict[str, str]) -> list[tuple[str, str, str]]:
    return sorted((a.method, a.path, a.file) for a in analyze(files).apis)


LEFT_BEHIND = {
    "src/app.js": """\
        const express = require('express');
        const app = express();
        app.use('/lanes', require('./routes/lanes'));
        function late() {
          const docks = require('./routes/docks');
          app.use('/docks', docks);
        }
        late();
        app.listen(5000);
        """,
    "src/routes/lanes.js": """\
        const router = require('express').Router();
        router.get('/', (req, res) => res.json([]));
        module.exports = router;
        """,
    "src/routes/docks.js": """\
        const express = require('express');
        const router = express.Router();
        router.post('/:id/open', (req, res) => res.end());
        module.exports = router;
        """,
    "src/routes/old-gates.js": """\
        const express = require('express');
        const router = express.Router();
        router.get('/api/v1/gates', (req, res) => res.json([]));
        router.put('/api/v1/gates/:id', (req, res) => res.end());
        module.exports = router;
        """,
}


def test_a_router_nobody_loads_in_a_service_with_a_server_is_not_served() -> None:
    assert _routes(LEFT_BEHIND) == [
        ("GET", "/lanes", "src/routes/lanes.js"),
        ("POST", "/docks/:id/open", "src/routes/docks.js"),
    ]


def test_routers_without_any_server_in_the_service_keep_their_routes() -> None:
    files = {k: v for k, v in LEFT_BEHIND.items() if k != "src/app.js"}
    assert [r[:2] for r in _routes(files)] == [
        ("GET", "/"),
        ("GET", "/api/v1/gates"),
        ("POST", "/:id/open"),
        ("PUT", "/api/v1/gates/:id"),
    ]
