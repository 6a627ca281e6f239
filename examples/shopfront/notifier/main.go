// Command notifier sends customer e-mails queued on RabbitMQ and serves a small status API.
package main

import (
	"context"
	"log"
	"net/http"
	"os"
	"os/signal"

	"github.com/redis/go-redis/v9"
)

func getenv(key, fallback string) string {
	if v, ok := os.LookupEnv(key); ok {
		return v
	}
	return fallback
}

type server struct {
	rdb *redis.Client
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	s := &server{rdb: redis.NewClient(&redis.Options{Addr: getenv("REDIS_ADDR", "localhost:6379")})}

	go func() {
		if err := consumeEmails(ctx, getenv("RABBITMQ_URL", "amqp://guest:guest@localhost:5672/"), s); err != nil {
			log.Fatalf("consumer: %v", err)
		}
	}()

	log.Fatal(http.ListenAndServe(getenv("HTTP_ADDR", ":8080"), s.routes()))
}
