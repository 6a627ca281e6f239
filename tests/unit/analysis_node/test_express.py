"""Express: CommonJS and ESM/TypeScript styles, routers mounted across files, composed prefixes."""

from __future__ import annotations

from .support import analyze, parse_all, url

CJS = {
    "app.js": """\
        const express = require('express');
        const ordersRouter = require('./routes/orders');
        const { API_PREFIX } = require('./config/constants');

        const app = express();
        app.use(express.json());
        app.use(`${API_PREFIX}/orders`, ordersRouter);
        app.use('/health', require('./routes/health'));
        require('./routes/admin')(app);

        module.exports = app;
        """,
    "server.js": """\
        const app = require('./app');
        app.listen(process.env.PORT || 3000);
        """,
    "config/constants.js": """\
        module.exports = {
          API_PREFIX: '/api/v1',
          PAYMENTS_URL: process.env.PAYMENTS_URL || 'http://payments:4000',
        };
        """,
    "routes/orders.js": """\
        const { Router } = require('express');
        const ctrl = require('../controllers/orders');
        const { auth } = require('../middleware/auth');

        const router = Router();

        router.get('/', ctrl.list);
        router.post('/', auth, asyncHandler(ctrl.create));
        router.route('/:id')
          .get(ctrl.get)
          .delete(auth, ctrl.remove);

        module.exports = router;
        """,
    "routes/health.js": """\
        const express = require('express');
        const r = express.Router();
        /** Liveness probe. */
        r.all('/', (req, res) => res.send('ok'));
        module.exports = r;
        """,
    "routes/admin.js": """\
        module.exports = function (app) {
          app.post('/admin/reindex', async function reindex(req, res) {
            res.sendStatus(202);
          });
        };
        """,
    "controllers/orders.js": """\
        const axios = require('axios');
        const { PAYMENTS_URL } = require('../config/constants');

        /**
         * List every order.
         */
        exports.list = async (req, res) => res.json([]);

        exports.create = async (req, res) => {
          const charge = await axios.post(`${PAYMENTS_URL}/charges`, req.body);
          res.status(201).json(charge.data);
        };

        module.exports.get = async (req, res) => {
          const { data } = await axios({ url: PAYMENTS_URL + '/charges/' + req.params.id });
          res.json(data);
        };

        exports.remove = async (req, res) => res.sendStatus(204);
        """,
    "middleware/auth.js": """\
        exports.auth = (req, res, next) => next();
        """,
}


def test_commonjs_routes_mounted_across_files() -> None:
    facts = analyze(CJS)
    got = sorted((a.method, a.path, a.handler, a.file, a.start_line, a.component) for a in facts.apis)
    assert got == [
        ("ALL", "/health", "<anonymous>@4", "routes/health.js", 4, "health"),
        ("DELETE", "/api/v1/orders/:id", "remove", "routes/orders.js", 9, "orders"),
        ("GET", "/api/v1/orders", "list", "routes/orders.js", 7, "orders"),
        ("GET", "/api/v1/orders/:id", "get", "routes/orders.js", 9, "orders"),
        ("POST", "/admin/reindex", "reindex", "routes/admin.js", 2, "admin"),
        ("POST", "/api/v1/orders", "create", "routes/orders.js", 8, "orders"),
    ]
    docs = {(a.method, a.path): a.doc for a in facts.apis if a.doc}
    assert docs == {("ALL", "/health"): "Liveness probe.", ("GET", "/api/v1/orders"): "List every order."}
    assert {a.framework for a in facts.apis} == {"express"}
    assert facts.framework == "express"


def test_commonjs_calls_fold_imported_constants_and_attribute_handlers() -> None:
    facts = analyze(CJS)
    got = sorted(
        (c.file, c.line, c.client, c.method, url(c.url), c.api_handler, c.component) for c in facts.calls
    )
    assert got == [
        (
            "controllers/orders.js",
            10,
            "axios",
            "POST",
            "${PAYMENTS_URL:http://payments:4000}/charges",
            "create",
            "orders",
        ),
        (
            "controllers/orders.js",
            15,
            "axios",
            "GET",
            "${PAYMENTS_URL:http://payments:4000}/charges/{?req.params.id}",
            "get",
            "orders",
        ),
    ]


def test_entrypoint_flags() -> None:
    parsed = parse_all(CJS)
    assert sorted(p for p, d in parsed.items() if d.get("entrypoint")) == ["server.js"]


ESM = {
    "src/index.ts": """\
        import express from 'express';
        import { apiRouter } from './routes';
        import { createOrdersRouter } from './routes/orders.routes';
        import config from './config';

        const app = express();
        app.use(config.basePath, apiRouter);
        app.use(`${config.basePath}/orders`, createOrdersRouter());

        app.listen(config.port, () => console.log('up'));
        """,
    "src/config.ts": """\
        export default {
          basePath: '/api',
          port: Number(process.env.PORT ?? 8080),
          services: { profile: process.env.PROFILE_URL ?? 'http://profile:8080' },
        };
        """,
    "src/routes/index.ts": """\
        import { Router } from 'express';
        import users from './users.routes';

        export const apiRouter = Router();
        apiRouter.use('/users', users);
        apiRouter.get('/ping', ping);

        function ping(_req: Request, res: Response) {
          res.send('pong');
        }
        """,
    "src/routes/users.routes.ts": """\
        import { Router } from 'express';
        import * as users from '../controllers/users.controller';

        const router = Router();
        /** Fetch one user with its profile. */
        router.get('/:id', users.getUser);
        router.put('/:id/avatar', users.uploadAvatar);
        export default router;
        """,
    "src/routes/orders.routes.ts": """\
        import express from 'express';
        import { OrdersController } from '../controllers/orders.controller';

        export function createOrdersRouter(): express.Router {
          const router = express.Router();
          const controller = new OrdersController();
          router.get('/', controller.list.bind(controller));
          router.patch('/:orderId', (req, res) => controller.update(req, res));
          return router;
        }
        """,
    "src/controllers/users.controller.ts": """\
        import { profiles } from '../clients/profile.client';

        export async function getUser(req: Request, res: Response) {
          const profile = await profiles.fetchProfile(req.params.id);
          res.json(profile);
        }

        export const uploadAvatar = async (req: Request, res: Response) => {
          await profiles.send('/avatars', req.body);
          res.sendStatus(204);
        };
        """,
    "src/controllers/orders.controller.ts": """\
        import got from 'got';

        const ORDERS_API = process.env.ORDERS_API!;

        export class OrdersController {
          async list(req: Request, res: Response) {
            res.json(await got(`${ORDERS_API}/orders`).json());
          }

          async update(req: Request, res: Response) {
            await got.patch(ORDERS_API + '/orders/' + req.params.orderId, { json: req.body });
          }
        }
        """,
    "src/clients/profile.client.ts": """\
        import axios, { AxiosInstance } from 'axios';
        import config from '../config';

        class ProfileClient {
          private readonly http: AxiosInstance;

          constructor() {
            this.http = axios.create({ baseURL: config.services.profile, timeout: 2000 });
          }

          fetchProfile(id: string) {
            return this.http.get(`/profiles/${id}`);
          }

          send(path: string, body: unknown) {
            return this.http.post(path, body);
          }
        }

        export const profiles = new ProfileClient();
        """,
}


def test_esm_typescript_routes_factories_and_namespace_imports() -> None:
    facts = analyze(ESM)
    got = sorted((a.method, a.path, a.handler, a.file, a.start_line) for a in facts.apis)
    assert got == [
        ("GET", "/api/orders", "OrdersController.list", "src/routes/orders.routes.ts", 7),
        ("GET", "/api/ping", "ping", "src/routes/index.ts", 6),
        ("GET", "/api/users/:id", "getUser", "src/routes/users.routes.ts", 6),
        ("PATCH", "/api/orders/:orderId", "<anonymous>@8", "src/routes/orders.routes.ts", 8),
        ("PUT", "/api/users/:id/avatar", "uploadAvatar", "src/routes/users.routes.ts", 7),
    ]
    doc = next(a.doc for a in facts.apis if a.handler == "getUser")
    assert doc == "Fetch one user with its profile."


def test_esm_calls_through_instances_and_wrappers() -> None:
    facts = analyze(ESM)
    got = sorted((c.file, c.line, c.client, c.method, url(c.url), c.api_handler) for c in facts.calls)
    profile = "${PROFILE_URL:http://profile:8080}"
    assert got == [
        (
            "src/clients/profile.client.ts",
            12,
            "axios",
            "GET",
            profile + "/profiles/{?id}",
            "getUser",
        ),
        (
            "src/controllers/orders.controller.ts",
            7,
            "got",
            "GET",
            "${ORDERS_API}/orders",
            "OrdersController.list",
        ),
        (
            "src/controllers/orders.controller.ts",
            11,
            "got",
            "PATCH",
            "${ORDERS_API}/orders/{?req.params.orderId}",
            "<anonymous>@8",
        ),
        (
            "src/controllers/users.controller.ts",
            9,
            "wrapper:ProfileClient.send",
            "POST",
            profile + "/avatars",
            "uploadAvatar",
        ),
    ]


def test_an_any_method_catch_all_is_the_unknown_route_fallback_not_an_api() -> None:
    facts = analyze(
        {
            "src/app.ts": """\
                import express from 'express';
                const app = express();
                const router = express.Router();
                router.get('/shelves', (req, res) => res.send([]));
                router.all('/shelves/*', (req, res) => res.sendStatus(405));
                app.use('/api', router);
                app.all('*', async () => { throw new Error('not found'); });
                app.all('/(.*)', (req, res) => res.sendStatus(404));
                app.get('*', (req, res) => res.sendFile('index.html'));
                app.listen(3000);
                """,
        }
    )
    assert sorted((a.method, a.path) for a in facts.apis) == [
        ("ALL", "/api/shelves/*"),
        ("GET", "/*"),
        ("GET", "/api/shelves"),
    ]
