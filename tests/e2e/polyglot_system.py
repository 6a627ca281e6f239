"""A small harbour-logistics system in nine services and eight languages (TypeScript, Java, Kotlin,
Go, Python, C#, PHP, Ruby, Rust), written for the polyglot end-to-end test: HTTP calls resolved
through compose environment, application.yml and appsettings.json, one gRPC service implemented in
Go and called from Python and Rust, Kafka and RabbitMQ channels, and one entity per stack that
stores something. ``write(root)`` lays it out as files."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

COMPOSE = """\
name: harbour
services:
  gateway:
    build: ./gateway
    ports: ["3000:3000"]
    environment:
      VOYAGES_URL: http://voyages:8080
      BILLING_URL: http://billing:8000
  voyages:
    build: ./voyages
    environment:
      BERTHS_URL: http://berths:8081
      KAFKA_BOOTSTRAP: kafka:9092
    depends_on: [postgres, kafka]
  berths:
    build: ./berths
    environment:
      KAFKA_BOOTSTRAP: kafka:9092
  tides:
    build: ./tides
  cargo:
    build: ./cargo
    environment:
      TIDES_ADDR: tides:50051
      DATABASE_URL: postgresql://harbour:harbour@postgres:5432/cargo
  customs:
    build: ./customs
    environment:
      - Tariffs__BaseUrl=http://tariffs:3000
  billing:
    build: ./billing
    environment:
      CUSTOMS_URL: http://customs:8080
      DB_CONNECTION: pgsql
      RABBITMQ_HOST: rabbitmq
  notices:
    build: ./notices
    environment:
      CARGO_URL: http://cargo:8000
      RABBITMQ_URL: amqp://guest:guest@rabbitmq:5672
  tariffs:
    build: ./tariffs
    environment:
      TIDES_URL: http://tides:50051
  postgres:
    image: postgres:16
  kafka:
    image: bitnami/kafka:3.7
  rabbitmq:
    image: rabbitmq:3-management
"""

PROTO = """\
syntax = "proto3";

package tides.v1;

option go_package = "example.com/harbour/tides/gen/tides/v1;tidesv1";

// Tide tables for the harbour's berths.
service TideService {
  // The water level expected at a port over the next hours.
  rpc Forecast (ForecastRequest) returns (ForecastReply);
  // The next window in which a deep ship can leave.
  rpc Window (WindowRequest) returns (WindowReply);
}

message ForecastRequest { string port = 1; }
message ForecastReply { repeated double levels = 1; }
message WindowRequest { string port = 1; }
message WindowReply { string opens_at = 1; }
"""

GATEWAY = {
    "gateway/package.json": '{"name": "gateway", "dependencies": {"express": "^4.19.0", "axios": "^1.7.0"}}\n',
    "gateway/Dockerfile": "FROM node:20-alpine\nCMD [\"node\", \"dist/server.js\"]\n",
    "gateway/src/server.ts": """\
        import express from "express";
        import axios from "axios";

        const VOYAGES_URL = process.env.VOYAGES_URL ?? "http://localhost:8080";
        const BILLING_URL = process.env.BILLING_URL ?? "http://localhost:8000";

        const app = express();
        app.use(express.json());

        // One voyage, as the harbour office sees it.
        app.get("/api/voyages/:id", async (req, res) => {
          const { data } = await axios.get(`${VOYAGES_URL}/voyages/${req.params.id}`);
          res.json(data);
        });

        // Bill a shipper for a cleared declaration.
        app.post("/api/invoices", async (req, res) => {
          const { data } = await axios.post(`${BILLING_URL}/api/invoices`, req.body);
          res.status(201).json(data);
        });

        app.listen(3000);
        """,
}

VOYAGES = {
    "voyages/pom.xml": """\
        <project>
          <modelVersion>4.0.0</modelVersion>
          <groupId>harbour</groupId>
          <artifactId>voyages</artifactId>
          <dependencies>
            <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-web</artifactId></dependency>
            <dependency><groupId>org.springframework.boot</groupId><artifactId>spring-boot-starter-data-jpa</artifactId></dependency>
            <dependency><groupId>org.springframework.kafka</groupId><artifactId>spring-kafka</artifactId></dependency>
            <dependency><groupId>org.postgresql</groupId><artifactId>postgresql</artifactId></dependency>
          </dependencies>
        </project>
        """,
    "voyages/Dockerfile": "FROM eclipse-temurin:21-jre\nCOPY target/voyages.jar /app.jar\nENTRYPOINT [\"java\", \"-jar\", \"/app.jar\"]\n",
    "voyages/src/main/resources/application.yml": """\
        spring:
          application:
            name: voyages
          datasource:
            url: jdbc:postgresql://postgres:5432/voyages
          kafka:
            bootstrap-servers: ${KAFKA_BOOTSTRAP:localhost:9092}
        berths:
          url: ${BERTHS_URL:http://localhost:8081}
        """,
    "voyages/src/main/java/harbour/voyages/VoyagesApplication.java": """\
        package harbour.voyages;

        import org.springframework.boot.SpringApplication;
        import org.springframework.boot.autoconfigure.SpringBootApplication;

        @SpringBootApplication
        public class VoyagesApplication {
            public static void main(String[] args) {
                SpringApplication.run(VoyagesApplication.class, args);
            }
        }
        """,
    "voyages/src/main/java/harbour/voyages/Voyage.java": """\
        package harbour.voyages;

        import jakarta.persistence.Entity;
        import jakarta.persistence.Id;
        import jakarta.persistence.Table;

        @Entity
        @Table(name = "voyages")
        public class Voyage {
            @Id
            private Long id;
            private String berth;

            public String getBerth() { return berth; }
        }
        """,
    "voyages/src/main/java/harbour/voyages/VoyageRepository.java": """\
        package harbour.voyages;

        import org.springframework.data.jpa.repository.JpaRepository;

        public interface VoyageRepository extends JpaRepository<Voyage, Long> {}
        """,
    "voyages/src/main/java/harbour/voyages/BerthClient.java": """\
        package harbour.voyages;

        import org.springframework.beans.factory.annotation.Value;
        import org.springframework.stereotype.Component;
        import org.springframework.web.client.RestTemplate;

        @Component
        public class BerthClient {
            private final RestTemplate rest = new RestTemplate();

            @Value("${berths.url}")
            private String berthsUrl;

            public void release(String code) {
                rest.delete(berthsUrl + "/berths/" + code + "/hold");
            }
        }
        """,
    "voyages/src/main/java/harbour/voyages/VoyageController.java": """\
        package harbour.voyages;

        import org.springframework.kafka.core.KafkaTemplate;
        import org.springframework.web.bind.annotation.*;

        @RestController
        @RequestMapping("/voyages")
        public class VoyageController {
            private final VoyageRepository repository;
            private final BerthClient berths;
            private final KafkaTemplate<String, String> kafka;

            public VoyageController(VoyageRepository repository, BerthClient berths, KafkaTemplate<String, String> kafka) {
                this.repository = repository;
                this.berths = berths;
                this.kafka = kafka;
            }

            @GetMapping("/{id}")
            public Voyage get(@PathVariable Long id) {
                return repository.findById(id).orElseThrow();
            }

            @PostMapping("/{id}/departures")
            public Voyage depart(@PathVariable Long id) {
                Voyage voyage = repository.findById(id).orElseThrow();
                berths.release(voyage.getBerth());
                kafka.send("voyage.departed", String.valueOf(id));
                return voyage;
            }
        }
        """,
}

BERTHS = {
    "berths/build.gradle.kts": """\
        plugins { kotlin("jvm") version "2.0.0"; id("org.springframework.boot") version "3.3.0" }
        dependencies {
            implementation("org.springframework.boot:spring-boot-starter-web")
            implementation("org.springframework.kafka:spring-kafka")
        }
        """,
    "berths/Dockerfile": "FROM eclipse-temurin:21-jre\nCOPY build/libs/berths.jar /app.jar\nENTRYPOINT [\"java\", \"-jar\", \"/app.jar\"]\n",
    "berths/src/main/resources/application.yml": "server:\n  port: 8081\nspring:\n  kafka:\n    bootstrap-servers: ${KAFKA_BOOTSTRAP:localhost:9092}\n",
    "berths/src/main/kotlin/harbour/berths/BerthsApplication.kt": """\
        package harbour.berths

        import org.springframework.boot.autoconfigure.SpringBootApplication
        import org.springframework.boot.runApplication

        @SpringBootApplication
        class BerthsApplication

        fun main(args: Array<String>) {
            runApplication<BerthsApplication>(*args)
        }
        """,
    "berths/src/main/kotlin/harbour/berths/BerthController.kt": """\
        package harbour.berths

        import org.springframework.web.bind.annotation.*

        @RestController
        @RequestMapping("/berths")
        class BerthController {
            @GetMapping("/{code}")
            fun get(@PathVariable code: String) = mapOf("code" to code)

            @DeleteMapping("/{code}/hold")
            fun release(@PathVariable code: String) {}
        }
        """,
    "berths/src/main/kotlin/harbour/berths/DepartureListener.kt": """\
        package harbour.berths

        import org.springframework.kafka.annotation.KafkaListener
        import org.springframework.stereotype.Component

        @Component
        class DepartureListener {
            @KafkaListener(topics = ["voyage.departed"], groupId = "berths")
            fun onDeparture(voyageId: String) {}
        }
        """,
}

TIDES = {
    "tides/go.mod": "module example.com/harbour/tides\n\ngo 1.22\n\nrequire google.golang.org/grpc v1.64.0\n",
    "tides/Dockerfile": "FROM golang:1.22\nCMD [\"/tides\"]\n",
    "tides/main.go": """\
        package main

        import (
        \t"context"
        \t"log"
        \t"net"

        \t"google.golang.org/grpc"

        \ttidesv1 "example.com/harbour/tides/gen/tides/v1"
        )

        type tideTables struct {
        \ttidesv1.UnimplementedTideServiceServer
        }

        func (t *tideTables) Forecast(ctx context.Context, req *tidesv1.ForecastRequest) (*tidesv1.ForecastReply, error) {
        \treturn &tidesv1.ForecastReply{Levels: []float64{1.2, 2.4}}, nil
        }

        func (t *tideTables) Window(ctx context.Context, req *tidesv1.WindowRequest) (*tidesv1.WindowReply, error) {
        \treturn &tidesv1.WindowReply{OpensAt: "06:40"}, nil
        }

        func main() {
        \tlis, err := net.Listen("tcp", ":50051")
        \tif err != nil {
        \t\tlog.Fatal(err)
        \t}
        \ts := grpc.NewServer()
        \ttidesv1.RegisterTideServiceServer(s, &tideTables{})
        \tlog.Fatal(s.Serve(lis))
        }
        """,
}

CARGO = {
    "cargo/requirements.txt": "fastapi\nuvicorn\ngrpcio\nsqlalchemy\npsycopg\n",
    "cargo/Dockerfile": "FROM python:3.12-slim\nCMD [\"uvicorn\", \"app.main:app\", \"--port\", \"8000\"]\n",
    "cargo/app/__init__.py": "",
    "cargo/app/models.py": """\
        from sqlalchemy import Column, String
        from sqlalchemy.orm import declarative_base

        Base = declarative_base()


        class Manifest(Base):
            __tablename__ = "manifests"

            id = Column(String, primary_key=True)
            port = Column(String, nullable=False)
        """,
    "cargo/app/main.py": """\
        import os

        import grpc
        from fastapi import FastAPI

        from tides.v1 import tides_pb2, tides_pb2_grpc

        TIDES_ADDR = os.getenv("TIDES_ADDR", "localhost:50051")

        app = FastAPI()


        @app.get("/cargo/{cargo_id}")
        def get_cargo(cargo_id: str):
            \"\"\"One cargo lot and where it stands.\"\"\"
            return {"id": cargo_id}


        @app.post("/cargo/{cargo_id}/manifest")
        def file_manifest(cargo_id: str, port: str):
            \"\"\"File a lot's manifest once the tide lets it load.\"\"\"
            with grpc.insecure_channel(TIDES_ADDR) as channel:
                stub = tides_pb2_grpc.TideServiceStub(channel)
                stub.Forecast(tides_pb2.ForecastRequest(port=port))
            return {"id": cargo_id}
        """,
}

CUSTOMS = {
    "customs/Customs.csproj": """\
        <Project Sdk="Microsoft.NET.Sdk.Web">
          <ItemGroup>
            <PackageReference Include="Npgsql.EntityFrameworkCore.PostgreSQL" Version="8.0.4" />
          </ItemGroup>
        </Project>
        """,
    "customs/Dockerfile": "FROM mcr.microsoft.com/dotnet/aspnet:8.0\nENTRYPOINT [\"dotnet\", \"Customs.dll\"]\n",
    "customs/appsettings.json": """\
        {
          "Tariffs": { "BaseUrl": "http://localhost:3000" },
          "ConnectionStrings": { "customs": "Host=postgres;Database=customs" }
        }
        """,
    "customs/Program.cs": """\
        using Microsoft.EntityFrameworkCore;

        var builder = WebApplication.CreateBuilder(args);
        builder.Services.AddControllers();
        builder.Services.AddDbContext<CustomsContext>(o => o.UseNpgsql(builder.Configuration.GetConnectionString("customs")));
        builder.Services.AddHttpClient<TariffClient>(c => c.BaseAddress = new Uri(builder.Configuration["Tariffs:BaseUrl"]));

        var app = builder.Build();
        app.MapControllers();
        app.MapGet("/health", () => "ok");
        app.Run();
        """,
    "customs/CustomsContext.cs": """\
        using Microsoft.EntityFrameworkCore;

        public class CustomsContext : DbContext
        {
            public CustomsContext(DbContextOptions<CustomsContext> options) : base(options) { }

            public DbSet<Declaration> Declarations { get; set; }
        }

        public class Declaration
        {
            public int Id { get; set; }
            public string Goods { get; set; } = "";
        }
        """,
    "customs/TariffClient.cs": """\
        public class TariffClient
        {
            private readonly HttpClient _http;

            public TariffClient(HttpClient http) { _http = http; }

            public Task<string> RateAsync(string code) => _http.GetStringAsync($"/tariffs/{code}");
        }
        """,
    "customs/Controllers/DeclarationsController.cs": """\
        using Microsoft.AspNetCore.Mvc;

        [ApiController]
        [Route("api/[controller]")]
        public class DeclarationsController : ControllerBase
        {
            private readonly TariffClient _tariffs;

            public DeclarationsController(TariffClient tariffs) { _tariffs = tariffs; }

            [HttpGet("{id}")]
            public async Task<IActionResult> Get(int id) => Ok(await _tariffs.RateAsync("steel"));
        }
        """,
}

BILLING = {
    "billing/composer.json": '{"require": {"laravel/framework": "^11.0", "php-amqplib/php-amqplib": "^3.6"}}\n',
    "billing/Dockerfile": "FROM php:8.3-cli\nCMD [\"php\", \"artisan\", \"serve\", \"--host=0.0.0.0\", \"--port=8000\"]\n",
    "billing/public/index.php": "<?php\nrequire __DIR__.'/../vendor/autoload.php';\n",
    "billing/config/services.php": """\
        <?php
        return [
            'customs' => ['url' => env('CUSTOMS_URL', 'http://localhost:8080')],
        ];
        """,
    "billing/config/database.php": """\
        <?php
        return [
            'default' => env('DB_CONNECTION', 'sqlite'),
            'connections' => [
                'sqlite' => ['driver' => 'sqlite'],
                'pgsql' => ['driver' => 'pgsql', 'host' => env('DB_HOST', 'postgres')],
            ],
        ];
        """,
    "billing/routes/api.php": """\
        <?php

        use App\\Http\\Controllers\\InvoiceController;
        use Illuminate\\Support\\Facades\\Route;

        Route::post('invoices', [InvoiceController::class, 'store']);
        Route::get('invoices/{invoice}', [InvoiceController::class, 'show']);
        """,
    "billing/app/Models/Invoice.php": """\
        <?php

        namespace App\\Models;

        use Illuminate\\Database\\Eloquent\\Model;

        class Invoice extends Model
        {
            protected $fillable = ['declaration', 'amount'];
        }
        """,
    "billing/app/Http/Controllers/InvoiceController.php": """\
        <?php

        namespace App\\Http\\Controllers;

        use App\\Models\\Invoice;
        use Illuminate\\Http\\Request;
        use Illuminate\\Support\\Facades\\Http;
        use PhpAmqpLib\\Connection\\AMQPStreamConnection;
        use PhpAmqpLib\\Message\\AMQPMessage;

        class InvoiceController extends Controller
        {
            public function store(Request $request)
            {
                $declaration = Http::get(config('services.customs.url') . '/api/declarations/' . $request->input('declaration'));
                $invoice = Invoice::create(['declaration' => $declaration->json('id'), 'amount' => 120]);
                $this->announce($invoice);
                return response()->json($invoice, 201);
            }

            public function show(Invoice $invoice)
            {
                return $invoice;
            }

            private function announce(Invoice $invoice): void
            {
                $connection = new AMQPStreamConnection(env('RABBITMQ_HOST', 'localhost'), 5672, 'guest', 'guest');
                $channel = $connection->channel();
                $channel->queue_declare('invoices', false, true, false, false);
                $channel->basic_publish(new AMQPMessage(json_encode($invoice)), '', 'invoices');
            }
        }
        """,
}

NOTICES = {
    "notices/Gemfile": 'source "https://rubygems.org"\ngem "sinatra"\ngem "bunny"\ngem "faraday"\ngem "activerecord"\ngem "pg"\n',
    "notices/Dockerfile": "FROM ruby:3.3\nCMD [\"bundle\", \"exec\", \"rackup\", \"-p\", \"4567\"]\n",
    "notices/config.ru": 'require_relative "app"\nrun NoticesApp\n',
    "notices/config/database.yml": "production:\n  adapter: postgresql\n  host: postgres\n  database: notices\n",
    "notices/models/notice.rb": "class Notice < ActiveRecord::Base\nend\n",
    "notices/app.rb": """\
        require "sinatra/base"
        require "faraday"
        require_relative "models/notice"

        class NoticesApp < Sinatra::Base
          CARGO = Faraday.new(url: ENV.fetch("CARGO_URL", "http://localhost:8000"))

          get "/notices" do
            Notice.all.to_json
          end

          get "/notices/:id/cargo" do
            CARGO.get("/cargo/#{params[:id]}").body
          end
        end
        """,
    "notices/worker.rb": """\
        require "bunny"
        require_relative "models/notice"

        connection = Bunny.new(ENV.fetch("RABBITMQ_URL", "amqp://localhost"))
        connection.start
        channel = connection.create_channel
        queue = channel.queue("invoices", durable: true)
        queue.subscribe(block: true) do |_info, _properties, body|
          Notice.create!(body: body)
        end
        """,
}

TARIFFS = {
    "tariffs/Cargo.toml": """\
        [package]
        name = "tariffs"
        version = "0.1.0"
        edition = "2021"

        [dependencies]
        axum = "0.7"
        tokio = { version = "1", features = ["full"] }
        tonic = "0.12"
        prost = "0.13"
        """,
    "tariffs/Dockerfile": "FROM rust:1.79\nCMD [\"tariffs\"]\n",
    "tariffs/src/main.rs": """\
        use axum::{extract::Path, routing::get, Router};

        pub mod tides {
            tonic::include_proto!("tides.v1");
        }

        use tides::tide_service_client::TideServiceClient;
        use tides::WindowRequest;

        async fn rate(Path(code): Path<String>) -> String {
            let addr = std::env::var("TIDES_URL").unwrap_or_else(|_| "http://localhost:50051".to_string());
            let mut client = TideServiceClient::connect(addr).await.unwrap();
            let _ = client.window(WindowRequest { port: code.clone() }).await;
            format!("{code}: 3%")
        }

        #[tokio::main]
        async fn main() {
            let app = Router::new().nest("/tariffs", Router::new().route("/:code", get(rate)));
            let listener = tokio::net::TcpListener::bind("0.0.0.0:3000").await.unwrap();
            axum::serve(listener, app).await.unwrap();
        }
        """,
}

FILES: dict[str, str] = {
    "docker-compose.yml": COMPOSE,
    "proto/tides/v1/tides.proto": PROTO,
    **GATEWAY, **VOYAGES, **BERTHS, **TIDES, **CARGO, **CUSTOMS, **BILLING, **NOTICES, **TARIFFS,
}  # fmt: skip


def write(root: Path) -> Path:
    """The system as files under ``root``; returns ``root``."""
    for rel, text in FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(text))
    return root
