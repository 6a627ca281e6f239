"""Laravel, Symfony (attributes and annotations) and Slim routes, prefixes composed, exact handlers."""

from __future__ import annotations

from .helpers import link, routes

LARAVEL_API = """
<?php

use App\\Http\\Controllers\\InvoiceController;
use Illuminate\\Support\\Facades\\Route;

Route::get('status', fn () => ['ok' => true]);
Route::prefix('billing')->middleware('auth:api')->group(function () {
    Route::get('invoices/{invoice}', [InvoiceController::class, 'show']);
    Route::post('/invoices', 'InvoiceController@store');
    Route::apiResource('refunds', RefundController::class)->only(['index', 'store']);
});
Route::group(['prefix' => 'ops', 'middleware' => 'admin'], function () {
    Route::match(['get', 'post'], 'rebuild', [OpsController::class, 'rebuild']);
    Route::resource('tenants.notes', NoteController::class)->except(['create', 'edit', 'update']);
});
"""

LARAVEL_WEB = """
<?php
Route::controller(PageController::class)->group(function () {
    Route::get('/about', 'about');
});
Route::middleware('auth')->prefix('me')->get('/settings', [SettingsController::class, 'edit']);
"""


def test_laravel_routes_groups_prefixes_resources_and_the_api_file_prefix() -> None:
    facts = link({"routes/api.php": LARAVEL_API, "routes/web.php": LARAVEL_WEB})
    assert routes(facts) == [
        ("DELETE", "/api/ops/tenants/{tenant}/notes/{note}", "NoteController.destroy"),
        ("GET", "/about", "PageController.about"),
        ("GET", "/api/billing/invoices/{invoice}", "InvoiceController.show"),
        ("GET", "/api/billing/refunds", "RefundController.index"),
        ("GET", "/api/ops/rebuild", "OpsController.rebuild"),
        ("GET", "/api/ops/tenants/{tenant}/notes", "NoteController.index"),
        ("GET", "/api/ops/tenants/{tenant}/notes/{note}", "NoteController.show"),
        ("GET", "/api/status", "GET /status"),
        ("GET", "/me/settings", "SettingsController.edit"),
        ("POST", "/api/billing/invoices", "InvoiceController.store"),
        ("POST", "/api/billing/refunds", "RefundController.store"),
        ("POST", "/api/ops/rebuild", "OpsController.rebuild"),
        ("POST", "/api/ops/tenants/{tenant}/notes", "NoteController.store"),
    ]
    assert facts.framework == "laravel"


SYMFONY_ATTRIBUTES = """
<?php
namespace App\\Controller;

use Symfony\\Component\\Routing\\Attribute\\Route;

#[Route('/warehouse', name: 'warehouse_')]
final class StockController extends AbstractController
{
    #[Route('/bins/{code}', name: 'bin', methods: ['GET', 'HEAD'])]
    public function bin(string $code): Response {}

    #[Route(path: '/bins', methods: ['POST'])]
    public function add(): Response {}

    #[Route('/ping')]
    public function ping(): Response {}

    public function helper(): void {}
}
"""

SYMFONY_ANNOTATIONS = """
<?php
namespace App\\Controller;

/**
 * @Route("/legacy")
 */
class ArchiveController
{
    /**
     * @Route("/records/{id}", methods={"DELETE"})
     */
    public function drop($id) {}
}
"""


def test_symfony_attribute_and_annotation_routes_with_class_prefixes() -> None:
    facts = link({"src/Controller/StockController.php": SYMFONY_ATTRIBUTES,
                  "src/Controller/ArchiveController.php": SYMFONY_ANNOTATIONS})  # fmt: skip
    assert routes(facts) == [
        ("ANY", "/warehouse/ping", "StockController.ping"),
        ("DELETE", "/legacy/records/{id}", "ArchiveController.drop"),
        ("GET", "/warehouse/bins/{code}", "StockController.bin"),
        ("HEAD", "/warehouse/bins/{code}", "StockController.bin"),
        ("POST", "/warehouse/bins", "StockController.add"),
    ]
    assert {a.component for a in facts.apis} == {"StockController", "ArchiveController"}


SLIM = """
<?php
use Slim\\Routing\\RouteCollectorProxy;

$app = AppFactory::create();
$app->get('/health', function ($request, $response) { return $response; });
$app->group('/fleet', function (RouteCollectorProxy $group) {
    $group->get('/trucks/{plate}', TruckAction::class);
    $group->map(['PUT', 'PATCH'], '/trucks/{plate:[A-Z0-9]+}', [TruckController::class, 'save']);
});
$client->get('/not/a/route', ['query' => ['a' => 1]]);
"""


def test_slim_routes_groups_and_maps_but_not_client_calls() -> None:
    facts = link({"public/index.php": SLIM})
    assert routes(facts) == [
        ("GET", "/fleet/trucks/{plate}", "TruckAction.__invoke"),
        ("GET", "/health", "GET /health"),
        ("PATCH", "/fleet/trucks/{plate}", "TruckController.save"),
        ("PUT", "/fleet/trucks/{plate}", "TruckController.save"),
    ]
    assert facts.framework == "slim"
