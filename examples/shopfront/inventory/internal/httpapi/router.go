package httpapi

import "github.com/gin-gonic/gin"

// NewRouter wires the REST API: /healthz and the warehouse endpoints under /api/v1/inventory.
func NewRouter(h *Handlers) *gin.Engine {
	r := gin.New()
	r.Use(gin.Recovery(), gin.Logger())

	r.GET("/healthz", h.Health)

	v1 := r.Group("/api/v1")
	{
		inv := v1.Group("/inventory")
		inv.GET("", h.ListLowStock)
		inv.GET("/:sku", h.GetStock)
		inv.PUT("/:sku", h.SetStock)
	}
	return r
}
