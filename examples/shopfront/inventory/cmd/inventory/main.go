// Command inventory serves the inventory REST and gRPC APIs and runs the Kafka consumer.
package main

import (
	"context"
	"log"
	"net"
	"os"
	"os/signal"
	"strings"

	"google.golang.org/grpc"

	"github.com/shopfront/inventory/internal/events"
	"github.com/shopfront/inventory/internal/grpcserver"
	"github.com/shopfront/inventory/internal/httpapi"
	"github.com/shopfront/inventory/internal/store"
)

func getenv(key, fallback string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return fallback
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	st, err := store.Open(getenv("DATABASE_DSN", "host=localhost user=shop password=shop dbname=inventory sslmode=disable"))
	if err != nil {
		log.Fatalf("open store: %v", err)
	}
	brokers := strings.Split(getenv("KAFKA_BROKERS", "localhost:9092"), ",")
	publisher := events.NewPublisher(brokers)
	defer publisher.Close()

	go events.ConsumeOrderCreated(ctx, brokers, st)

	lis, err := net.Listen("tcp", getenv("GRPC_ADDR", ":9090"))
	if err != nil {
		log.Fatalf("listen: %v", err)
	}
	srv := grpc.NewServer()
	grpcserver.Register(srv, st)
	go func() {
		if err := srv.Serve(lis); err != nil {
			log.Printf("grpc stopped: %v", err)
		}
	}()

	router := httpapi.NewRouter(&httpapi.Handlers{Store: st, Publisher: publisher})
	if err := router.Run(getenv("HTTP_ADDR", ":8080")); err != nil {
		log.Fatalf("http: %v", err)
	}
}
