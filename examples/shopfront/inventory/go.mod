module github.com/shopfront/inventory

go 1.22

require (
	github.com/gin-gonic/gin v1.10.0
	github.com/segmentio/kafka-go v0.4.47
	github.com/shopfront/proto v1.2.0
	google.golang.org/grpc v1.64.0
	gorm.io/driver/postgres v1.5.7
	gorm.io/gorm v1.25.10
)
