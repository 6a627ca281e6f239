"""A whole small system end to end: layout, config resolution, facts."""

COMPOSE = """
services:
  orders:
    build: ./orders
    environment:
      - PAYMENTS_URL=http://payments:8080
    depends_on: [db]
  payments:
    build:
      context: ./payments
    environment:
      DATABASE_URL: postgres://u:p@db/pay
  db:
    image: postgres:15
"""


def test_smoke(analyze):
    run = analyze(
        {
            "docker-compose.yml": COMPOSE,
            "orders/requirements.txt": "fastapi\n",
            "orders/main.py": "# @entry\n# @api POST /orders create_order\n# @call http requests env:PAYMENTS_URL+lit:/pay method=POST handler=create_order\n",
            "payments/package.json": '{"name": "payments", "scripts": {"start": "node index.js"}}',
            "payments/index.js": "// @entry\n// @api POST /pay pay\n",
        }
    )
    assert run.names() == ["orders", "payments"]
    calls = run.service("orders").calls
    assert len(calls) == 1
    call = calls[0]
    print(call)
    assert call.target == "payments"
    assert call.to_api_id == run.service("payments").apis[0].id
    assert [r.name for r in run.result.resources] == ["db"]
