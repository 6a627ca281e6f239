"""Express apps and routers configured in one chain of calls: `app.use(json()).use("/v1/x", r)` and
`api.use("/a", a).use("/b", b)` mount on the app or router the chain starts from."""

from __future__ import annotations

from .support import analyze

ROUTERS = {
    "src/routes/hives.ts": """\
        import { Router } from 'express';
        const router = Router();
        router.get('/', (req, res) => res.json([])).get('/:hiveId', (req, res) => res.json({}));
        export default router;
        """,
    "src/routes/honey.ts": """\
        import { Router } from 'express';
        const router = Router();
        router.route('/:jarId').put((req, res) => res.end()).delete((req, res) => res.end());
        export default router;
        """,
}


def _routes(files: dict[str, str]) -> list[tuple[str, str]]:
    return sorted((a.method, a.path) for a in analyze(files).apis)


def test_a_chain_of_use_calls_on_the_app_mounts_each_router_under_its_prefix() -> None:
    app = """\
        import express from 'express';
        import hives from './routes/hives';
        import honey from './routes/honey';

        const app = express();
        app
          .use(express.json())
          .use('/apiary/v1/hives', hives)
          .use('/apiary/v1/honey', honey);
        app.listen(8080);
        """
    assert _routes({**ROUTERS, "src/index.ts": app}) == [
        ("DELETE", "/apiary/v1/honey/:jarId"),
        ("GET", "/apiary/v1/hives"),
        ("GET", "/apiary/v1/hives/:hiveId"),
        ("PUT", "/apiary/v1/honey/:jarId"),
    ]


def test_a_router_built_by_a_chain_and_mounted_by_another_chain() -> None:
    app = """\
        const express = require('express');
        const hives = require('./routes/hives').default;
        const honey = require('./routes/honey').default;

        const app = express();
        const api = express.Router();
        api.use('/hives', hives).use('/honey', honey);
        app.set('trust proxy', 1).use('/apiary', api);
        app.listen(8080);
        """
    assert _routes({**ROUTERS, "src/index.js": app}) == [
        ("DELETE", "/apiary/honey/:jarId"),
        ("GET", "/apiary/hives"),
        ("GET", "/apiary/hives/:hiveId"),
        ("PUT", "/apiary/honey/:jarId"),
    ]


def test_a_use_on_what_another_call_returns_is_not_a_mount_on_the_app() -> None:
    app = """\
        import express from 'express';
        import hives from './routes/hives';

        const app = express();
        makeSubApp().use('/elsewhere', hives);
        app.listen(8080);
        """
    assert ("GET", "/elsewhere") not in _routes({**ROUTERS, "src/index.ts": app})
