"""Facades in any letter case (PHP class names are case-insensitive: ``route::get`` routes and
``http::post`` calls) and a database connection chosen by an environment variable, resolved by the
deployment rather than by the config file's default."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.fakes.source_tree import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .helpers import link, routes, show

MIXED_CASE_ROUTES = """
<?php
use Illuminate\\Support\\Facades\\Route;

route::get('ping', [HealthController::class, 'ping']);
ROUTE::post('parcels', [ParcelController::class, 'store']);
\\Illuminate\\Support\\Facades\\Route::delete('parcels/{id}', [ParcelController::class, 'drop']);
route::controller(LabelController::class)->group(function () {
    route::get('labels/{code}', 'show');
});
route::middleware('jwt')->group(function () {
    route::put('parcels/{id}', [ParcelController::class, 'move']);
});
Routes::get('not-a-route', [X::class, 'y']);
Router::post('nor-this', [X::class, 'y']);
"""


def test_the_route_facade_is_read_in_any_letter_case_and_no_look_alike_is() -> None:
    facts = link({"routes/api.php": MIXED_CASE_ROUTES})
    assert routes(facts) == [
        ("DELETE", "/api/parcels/{id}", "ParcelController.drop"),
        ("GET", "/api/labels/{code}", "LabelController.show"),
        ("GET", "/api/ping", "HealthController.ping"),
        ("POST", "/api/parcels", "ParcelController.store"),
        ("PUT", "/api/parcels/{id}", "ParcelController.move"),
    ]


MIXED_CASE_CLIENTS = """
<?php
class Dispatch
{
    public function send(array $p)
    {
        http::post(config('app.courier_url') . '/api/pickups', $p);
        \\Illuminate\\Support\\Facades\\Http::withToken('t')->get('http://tracker:8004/api/tracks');
        return HTTP::baseUrl('http://labels:8005')->put('/api/labels/1', $p);
    }

    public function other()
    {
        return Https::get('http://nowhere/x');
    }
}
"""
APP_CONFIG = """
<?php
return ['courier_url' => env('COURIER_URL')];
"""


def test_the_http_facade_is_read_in_any_letter_case_and_fully_qualified() -> None:
    facts = link({"config/app.php": APP_CONFIG, "app/Dispatch.php": MIXED_CASE_CLIENTS})
    assert sorted((c.client, c.method, show(c.url)) for c in facts.calls) == [
        ("laravel-http", "GET", "http://tracker:8004/api/tracks"),
        ("laravel-http", "POST", "{env:COURIER_URL}/api/pickups"),
        ("laravel-http", "PUT", "http://labels:8005/api/labels/1"),
    ]


def _database(default: str) -> str:
    return f"""
<?php
return [
    'default' => {default},
    'connections' => [
        'sqlite' => ['driver' => 'sqlite'],
        'mysql' => ['driver' => 'mysql', 'host' => env('DB_HOST', '127.0.0.1')],
        'pgsql' => ['driver' => 'pgsql'],
    ],
];
"""


MODEL = """
<?php
namespace App\\Models;
use Illuminate\\Database\\Eloquent\\Model;
class Parcel extends Model {}
"""


def test_a_connection_chosen_by_the_environment_leaves_the_engine_to_the_deployment() -> None:
    hints = {
        default: [e.engine_hint for e in link({"config/database.php": _database(default), "app/Models/Parcel.php": MODEL}).entities]
        for default in ("env('DB_CONNECTION', 'sqlite')", "env('DB_CONNECTION')", "'pgsql'", "env('DB_CONNECTION', 'pgsql')")
    }  # fmt: skip
    assert hints == {
        "env('DB_CONNECTION', 'sqlite')": ["${DB_CONNECTION:sqlite}"],
        "env('DB_CONNECTION')": ["${DB_CONNECTION}"],
        "'pgsql'": ["postgres"],
        "env('DB_CONNECTION', 'pgsql')": ["${DB_CONNECTION:postgres}"],
    }


def _system(environment: str) -> dict[str, str]:
    return {
        "docker-compose.yml": f"services:\n  parcels:\n    build: ./parcels\n{environment}",
        "parcels/composer.json": '{"require": {"laravel/framework": "^11.0"}}',
        "parcels/public/index.php": "<?php\n",
        "parcels/config/database.php": _database("env('DB_CONNECTION', 'sqlite')"),
        "parcels/app/Models/Parcel.php": MODEL,
    }


def _engines(files: dict[str, str]) -> list[tuple[str, str]]:
    result = StaticCodeAnalyzer(workers=0).analyze(MemorySourceTree(files), AnalysisRequest("parcels"), DictAnalysisCache())
    return [(e.name, e.engine) for s in result.services for e in s.entities]


def test_the_deployment_environment_names_the_connection_else_the_default_stands() -> None:
    assert _engines(_system("    environment:\n      - DB_CONNECTION=mysql\n")) == [("parcels", "mysql")]
    assert _engines(_system("    environment:\n      DB_CONNECTION: pgsql\n")) == [("parcels", "postgres")]
    assert _engines(_system("")) == [("parcels", "sqlite")]
