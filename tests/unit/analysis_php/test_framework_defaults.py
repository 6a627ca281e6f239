"""What a Laravel or Lumen service leaves to its framework: without config/database.php the
connection is the one ``DB_CONNECTION`` names (compose, k8s or a .env file); a client whose base
address is a variable set nowhere reaches the service the variable's name names."""

from __future__ import annotations

from orbitkb.analysis import StaticCodeAnalyzer
from orbitkb.domain.fakes.analysis import DictAnalysisCache
from orbitkb.domain.fakes.source_tree import MemorySourceTree
from orbitkb.domain.ports import AnalysisRequest

from .helpers import link

BOOKING = """
<?php
namespace App\\Models;
use Illuminate\\Database\\Eloquent\\Model;
class Booking extends Model {}
"""
GUEST = """
<?php
namespace App\\Models;
use Illuminate\\Foundation\\Auth\\User as Authenticatable;
class Guest extends Authenticatable { protected $table = 'hotel_guests'; }
"""
DOCTRINE_ONLY = """
<?php
namespace App\\Entity;
use Doctrine\\ORM\\Mapping as ORM;
#[ORM\\Entity]
#[ORM\\Table(name: 'rooms')]
class Room { #[ORM\\Id] #[ORM\\Column] private int $id; }
"""
OWN_CONFIG = """<?php
return ['default' => 'pgsql', 'connections' => ['pgsql' => ['driver' => 'pgsql']]];
"""


def test_without_its_own_database_config_an_eloquent_model_takes_the_connection_the_environment_names() -> None:
    assert [e.engine_hint for e in link({"app/Models/Booking.php": BOOKING}).entities] == ["${DB_CONNECTION}"]
    assert [e.engine_hint for e in link({"app/Models/Guest.php": GUEST}).entities] == ["${DB_CONNECTION}"]
    # the service's own config/database.php decides, as before
    own = link({"config/database.php": OWN_CONFIG, "app/Models/Booking.php": BOOKING}).entities
    assert [e.engine_hint for e in own] == ["postgres"]
    # a PDO DSN written in the code decides
    dsn = "<?php\n$pdo = new PDO('mysql:host=db;dbname=stays');\n"
    assert [e.engine_hint for e in link({"app/Models/Booking.php": BOOKING, "src/db.php": dsn}).entities] == ["mysql"]
    # no Eloquent model: nothing to choose for (Doctrine reads DATABASE_URL)
    assert [e.engine_hint for e in link({"src/Entity/Room.php": DOCTRINE_ONLY}).entities] == [None]


def _lumen(name: str, extra: dict[str, str]) -> dict[str, str]:
    files = {
        f"{name}/composer.json": '{"require": {"laravel/lumen-framework": "^10.0"}}',
        f"{name}/public/index.php": "<?php\n",
        f"{name}/artisan": "#!/usr/bin/env php\n<?php\n",
        f"{name}/app/Models/Booking.php": BOOKING,
    }
    files.update({f"{name}/{path}": text for path, text in extra.items()})
    return files


def _run(files: dict[str, str]):  # type: ignore[no-untyped-def]
    return StaticCodeAnalyzer(workers=0).analyze(MemorySourceTree(files), AnalysisRequest("stays"), DictAnalysisCache())


def _engines(files: dict[str, str]) -> list[tuple[str, str | None]]:
    return sorted((s.service.name, e.engine) for s in _run(files).services for e in s.entities)


def test_the_connection_comes_from_a_dotenv_file_or_the_deployment() -> None:
    assert _engines(_lumen("stays", {".env.example": "APP_NAME=Stays\nDB_CONNECTION=mysql\n"})) == [("stays", "mysql")]
    assert _engines(_lumen("stays", {".env": "DB_CONNECTION=pgsql\n"})) == [("stays", "postgres")]
    compose = "services:\n  stays:\n    build: ./stays\n    environment:\n      DB_CONNECTION: sqlite\n"
    assert _engines({**_lumen("stays", {}), "docker-compose.yml": compose}) == [("stays", "sqlite")]


CALLERS = {
    "guzzle base_uri": """<?php
use GuzzleHttp\\Client;
class Sync {
    public function push() {
        $client = new Client(['base_uri' => env('ROOMS_SERVICE_URL')]);
        $client->post('/rooms', ['json' => []]);
    }
}
""",
    "http facade": """<?php
use Illuminate\\Support\\Facades\\Http;
class Sync {
    public function push() { return Http::post(env('ROOMS_URL') . '/rooms', []); }
}
""",
    "curl": """<?php
class Sync {
    public function push() {
        $ch = curl_init(getenv('ROOMS_SERVICE_HOST') . '/rooms');
        curl_exec($ch);
    }
}
""",
}
ROOMS_ROUTES = "<?php\n$router->post('/rooms', 'RoomController@store');\n"


def test_a_client_on_an_unset_variable_reaches_the_service_its_name_names_in_every_style() -> None:
    for style, code in CALLERS.items():
        files = {**_lumen("hotel-stays", {"app/Sync.php": code}), **_lumen("hotel-rooms", {"routes/web.php": ROOMS_ROUTES})}
        stays = next(s for s in _run(files).services if s.service.name == "hotel-stays")
        assert [(c.target, c.path, c.confidence) for c in stays.calls] == [("hotel-rooms", "/rooms", 0.7)], style


def test_a_variable_naming_no_service_or_several_is_kept_readable() -> None:
    code = CALLERS["http facade"]
    files = {**_lumen("hotel-stays", {"app/Sync.php": code}), **_lumen("hotel-billing", {})}
    stays = next(s for s in _run(files).services if s.service.name == "hotel-stays")
    assert [c.target for c in stays.calls] == ["${ROOMS_URL}"]
    both = {**files, **_lumen("east-rooms", {}), **_lumen("west-rooms", {})}
    stays = next(s for s in _run(both).services if s.service.name == "hotel-stays")
    assert [c.target for c in stays.calls] == ["${ROOMS_URL}"]
