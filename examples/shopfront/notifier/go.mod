module github.com/shopfront/notifier

go 1.22

require (
	github.com/go-chi/chi/v5 v5.0.12
	github.com/rabbitmq/amqp091-go v1.10.0
	github.com/redis/go-redis/v9 v9.5.1
)
