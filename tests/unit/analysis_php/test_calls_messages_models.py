"""PHP HTTP clients with base URLs from config/env/container parameters, queues and brokers,
Eloquent, Doctrine and PDO persistence with the engine from config/database.php or a DSN."""

from __future__ import annotations

from .helpers import link, show

SERVICES_CONFIG = """
<?php
return [
    'ledger' => ['url' => env('LEDGER_URL', 'http://ledger:8080')],
];
"""

CLIENTS = """
<?php
namespace App\\Services;

use GuzzleHttp\\Client;
use Illuminate\\Support\\Facades\\Http;

class Ledger
{
    private Client $http;

    public function __construct()
    {
        $this->http = new Client(['base_uri' => config('services.ledger.url')]);
    }

    public function balance(string $id)
    {
        return $this->http->get("balances/{$id}");
    }

    public function post(array $entry)
    {
        return $this->http->request('POST', '/entries', ['json' => $entry]);
    }
}

class Couriers
{
    public function book(array $parcel)
    {
        return Http::withToken('t')->baseUrl(getenv('COURIER_URL') ?: 'http://courier')->post('/bookings', $parcel);
    }

    public function track(string $id)
    {
        $ch = curl_init();
        curl_setopt($ch, CURLOPT_URL, sprintf('%s/tracks/%s', $_ENV['COURIER_URL'], $id));
        return curl_exec($ch);
    }
}
"""


def test_http_clients_with_base_urls_from_config_and_env() -> None:
    facts = link({"config/services.php": SERVICES_CONFIG, "app/Services/Clients.php": CLIENTS})
    assert sorted((c.client, c.method, show(c.url), c.line) for c in facts.calls) == [
        ("curl", None, "{env:COURIER_URL}/tracks/{?}", 37),
        ("guzzle", "GET", "{env:LEDGER_URL|http://ledger:8080}/balances/{?}", 18),
        ("guzzle", "POST", "{env:LEDGER_URL|http://ledger:8080}/entries", 23),
        ("laravel-http", "POST", "{env:COURIER_URL|http://courier}/bookings", 31),
    ]


SYMFONY_KERNEL = """
<?php
class Kernel
{
    protected function configureContainer(ContainerBuilder $c): void
    {
        $c->setParameter('pricingUrl', getenv('PRICING_URL') ?: 'http://pricing:9000');
        $c->register(PriceClient::class)->addArgument($c->getParameter('pricingUrl'))->setAutowired(true);
    }
}
"""

PRICE_CLIENT = """
<?php
class PriceClient
{
    private $base;

    public function __construct(string $base)
    {
        $this->base = $base;
    }

    public function quote(string $sku)
    {
        $curl = curl_init($this->base . '/quotes/' . $sku);
        return curl_exec($curl);
    }
}
"""


def test_container_parameters_reach_constructor_properties() -> None:
    facts = link({"src/Kernel.php": SYMFONY_KERNEL, "src/PriceClient.php": PRICE_CLIENT})
    assert [(c.client, show(c.url)) for c in facts.calls] == [
        ("curl", "{env:PRICING_URL|http://pricing:9000}/quotes/{?}")
    ]


QUEUE_CONFIG = """
<?php
return [
    'default' => env('QUEUE_CONNECTION', 'rabbitmq'),
    'connections' => [
        'rabbitmq' => ['driver' => 'rabbitmq', 'queue' => env('RABBITMQ_QUEUE', 'default')],
    ],
];
"""

JOBS = """
<?php
class InvoicePaid implements ShouldQueue
{
    public function handle()
    {
        Invoice::markPaid($this->id);
    }
}

class AuditLogged implements ShouldQueue
{
    public function handle()
    {
        //
    }
}

class InvoiceController
{
    public function pay()
    {
        AuditLogged::dispatch($x)->onQueue('audit_queue');
        dispatch(new InvoicePaid(1));
    }
}

class Notifier
{
    public function run($channel, $msg)
    {
        $channel->basic_publish($msg, '', 'mails');
        $channel->basic_publish($msg, 'billing.events');
        $channel->basic_consume('refunds', '', false, true, false, false, $cb);
        Redis::publish('invoices', json_encode($msg));
    }
}
"""


def test_queue_jobs_amqp_and_redis_channels() -> None:
    facts = link({"config/queue.php": QUEUE_CONFIG, "app/Jobs.php": JOBS})
    assert sorted((m.direction, show(m.channel), m.provider, m.line) for m in facts.messages) == [
        ("consumes", "refunds", "rabbitmq", 33),
        ("consumes", "{env:RABBITMQ_QUEUE|default}", "rabbitmq", 2),
        ("publishes", "audit_queue", "rabbitmq", 22),
        ("publishes", "billing.events", "rabbitmq", 32),
        ("publishes", "invoices", "redis", 34),
        ("publishes", "mails", "rabbitmq", 31),
        ("publishes", "{env:RABBITMQ_QUEUE|default}", "rabbitmq", 23),
    ]


DATABASE_CONFIG = """
<?php
return ['default' => env('DB_CONNECTION', 'pgsql')];
"""

MODELS = """
<?php
namespace App\\Models;

use Doctrine\\ORM\\Mapping as ORM;

class OrderLine extends Model {}

class Customer extends Authenticatable
{
    protected $table = 'clients';
}

class Review extends Model
{
    protected $connection = 'mongodb';
}

#[ORM\\Entity(repositoryClass: ShipmentRepository::class)]
#[ORM\\Table(name: 'shipments')]
class Shipment
{
    #[ORM\\Id]
    #[ORM\\Column(type: 'integer')]
    private ?int $id = null;

    #[ORM\\Column(length: 64, nullable: true)]
    private ?string $carrier = null;
}

/**
 * @ORM\\Entity
 */
class ParcelLabel {}

class Helper {}
"""


def test_eloquent_and_doctrine_models_with_engines() -> None:
    facts = link({"config/database.php": DATABASE_CONFIG, "app/Models/All.php": MODELS})
    assert [(e.name, e.kind, e.class_name, e.engine_hint, e.framework) for e in facts.entities] == [
        ("clients", "sql_table", "Customer", "${DB_CONNECTION:postgres}", "eloquent"),  # the build resolves it
        ("order_lines", "sql_table", "OrderLine", "${DB_CONNECTION:postgres}", "eloquent"),
        ("parcel_label", "sql_table", "ParcelLabel", "${DB_CONNECTION:postgres}", "doctrine"),
        ("reviews", "document_collection", "Review", "mongodb", "eloquent"),
        ("shipments", "sql_table", "Shipment", "${DB_CONNECTION:postgres}", "doctrine"),
    ]
    (shipment,) = [e for e in facts.entities if e.name == "shipments"]
    assert shipment.fields == (("id", "integer", True, True), ("carrier", "string", True, False))


def test_pdo_sql_text_names_tables_and_the_dsn_names_the_engine() -> None:
    facts = link({
        "src/Db.php": """
        <?php
        class Db
        {
            private const BY_SKU = 'select stars from reviews where sku = ?';

            public function connect() { return new PDO('mysql:host=db;dbname=shop', 'u', 'p'); }

            public function find($pdo, $sku) { return $pdo->prepare(self::BY_SKU)->execute([$sku]); }
        }
        """
    })  # fmt: skip
    assert [(e.name, e.engine_hint, e.framework) for e in facts.entities] == [("reviews", "mysql", "pdo")]


def test_broken_php_is_no_facts_not_a_crash() -> None:
    facts = link({"bad.php": "<?php class { function ( Route::get("})
    assert facts.apis == () and facts.entities == ()


def test_laravel_query_builder_names_tables_a_model_does_not_already_map_and_migrations_none() -> None:
    facts = link({
        "app/Models/Berth.php": """
        <?php
        namespace App\\Models;
        use Illuminate\\Database\\Eloquent\\Model;
        class Berth extends Model {}
        """,
        "app/Services/Harbor.php": """
        <?php
        use Illuminate\\Support\\Facades\\DB;
        class Harbor
        {
            public function fees() { return DB::table('harbor_fees')->where('paid', false)->get(); }
            public function berths() { return DB::table('berths')->count(); }
            public function other($name) { return DB::table($name)->get(); }
        }
        """,
        "database/migrations/2024_01_01_create_tolls.php": """
        <?php
        use Illuminate\\Support\\Facades\\Schema;
        return new class {
            public function up() { Schema::create('tolls', function ($table) { $table->id(); }); }
        };
        """,
        "app/View/Grid.php": """
        <?php
        class Grid { public function draw($ui) { return $ui->table('not_a_table'); } }
        """,
    })  # fmt: skip
    assert sorted((e.name, e.class_name, e.framework) for e in facts.entities) == [
        ("berths", "Berth", "eloquent"),
        ("harbor_fees", None, "pdo"),
    ]  # ``tolls`` only has a migration: a skeleton creates many such tables no code names


BUS_WRAPPER = """
<?php
namespace App\\Support;

use PhpAmqpLib\\Message\\AMQPMessage;

class Bus
{
    public function send(string $topic, string $key, array $body): void
    {
        $this->channel->exchange_declare($topic, 'topic', false, true, false);
        $this->channel->basic_publish(new AMQPMessage(json_encode($body)), $topic, $key);
    }

    public function listen($queue, $handler)
    {
        $this->channel->basic_consume($queue, '', false, false, false, false, $handler);
    }

    public function audit(array $body): void
    {
        $this->channel->basic_publish(new AMQPMessage(json_encode($body)), 'audit.trail');
    }
}
"""

BUS_CALLERS = """
<?php
namespace App\\Http;

class ShipmentController
{
    public function store()
    {
        $bus = new Bus();
        $bus->send('shipments', 'shipment.created', []);
        (new Bus())->send(key: 'x', topic: 'returns', body: []);
        $this->bus?->send("parcels", 'k', []);
        $bus->send($unknownTopic, 'k', []);
        $bus->deliver('not-a-wrapper', 'k');
        $mailer = new \\App\\Mail\\Mailer();
        $mailer->send('welcome-letter', 'k', []);
    }
}

class Worker
{
    public function handle()
    {
        $queue = 'billing.shipments';
        $this->bus->listen($queue, fn ($m) => null);
    }
}
"""


def test_a_hand_written_amqp_wrapper_names_its_channels_at_each_call() -> None:
    facts = link({"app/Support/Bus.php": BUS_WRAPPER, "app/Http/Controllers.php": BUS_CALLERS})
    assert sorted((m.direction, show(m.channel), m.file, m.line) for m in facts.messages) == [
        ("consumes", "billing.shipments", "app/Http/Controllers.php", 24),
        ("publishes", "audit.trail", "app/Support/Bus.php", 21),  # a literal inside a method: as before
        ("publishes", "parcels", "app/Http/Controllers.php", 11),
        ("publishes", "returns", "app/Http/Controllers.php", 10),
        ("publishes", "shipments", "app/Http/Controllers.php", 9),
    ]


def test_negative_a_wrapper_nobody_calls_and_a_method_of_the_same_name_elsewhere_say_nothing() -> None:
    facts = link({"app/Support/Bus.php": BUS_WRAPPER})
    assert [show(m.channel) for m in facts.messages] == ["audit.trail"]  # no channel named after a parameter
    other = BUS_WRAPPER.replace("function send(", "function sendLater(")
    facts = link({"app/Support/Bus.php": other, "app/Http/Controllers.php": BUS_CALLERS})
    assert "shipments" not in {show(m.channel) for m in facts.messages}
