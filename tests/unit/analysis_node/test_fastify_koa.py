"""Fastify plugins registered with prefixes, and Koa routers with constructor and method prefixes."""

from __future__ import annotations

from .support import analyze

FASTIFY = {
    "server.js": """\
        const fastify = require('fastify')({ logger: true });
        const status = async () => ({ ok: true });

        fastify.register(require('./routes/items'), { prefix: '/items' });
        fastify.register(async (instance) => {
          instance.get('/me', async () => ({}));
        }, { prefix: '/v1/users' });
        fastify.route({ method: ['GET', 'HEAD'], url: '/status', handler: status });

        fastify.listen({ port: 3000 });
        """,
    "routes/items.js": """\
        module.exports = async function itemRoutes(app, opts) {
          app.get('/', async (request, reply) => []);
          app.post('/:id', { schema: {} }, async function saveItem(request, reply) {});
        };
        """,
}

KOA = {
    "src/app.ts": """\
        import Koa from 'koa';
        import Router from '@koa/router';
        import { adminRouter } from './admin';

        const app = new Koa();
        const router = new Router({ prefix: '/v2' });

        router
          .get('/things', listThings)
          .post('/things', createThing);
        router.use(adminRouter.routes(), adminRouter.allowedMethods());
        app.use(router.routes());
        app.listen(3000);

        async function listThings(ctx: Koa.Context) {}
        async function createThing(ctx: Koa.Context) {}
        """,
    "src/admin.ts": """\
        import KoaRouter from 'koa-router';

        export const adminRouter = new KoaRouter();
        adminRouter.prefix('/admin');
        adminRouter.get('/stats', async (ctx) => { ctx.body = {}; });
        """,
}


def test_fastify_plugins_and_route_options() -> None:
    facts = analyze(FASTIFY)
    got = sorted((a.method, a.path, a.handler, a.file, a.start_line, a.framework) for a in facts.apis)
    assert got == [
        ("GET", "/items", "<anonymous>@2", "routes/items.js", 2, "fastify"),
        ("GET", "/status", "status", "server.js", 8, "fastify"),
        ("GET", "/v1/users/me", "<anonymous>@6", "server.js", 6, "fastify"),
        ("HEAD", "/status", "status", "server.js", 8, "fastify"),
        ("POST", "/items/:id", "saveItem", "routes/items.js", 3, "fastify"),
    ]
    assert facts.framework == "fastify"


def test_koa_router_prefixes_and_nesting() -> None:
    facts = analyze(KOA)
    got = sorted((a.method, a.path, a.handler, a.file, a.start_line) for a in facts.apis)
    assert got == [
        ("GET", "/v2/admin/stats", "<anonymous>@5", "src/admin.ts", 5),
        ("GET", "/v2/things", "listThings", "src/app.ts", 8),
        ("POST", "/v2/things", "createThing", "src/app.ts", 8),
    ]
