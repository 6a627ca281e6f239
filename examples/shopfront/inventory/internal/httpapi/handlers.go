// Package httpapi is the REST API used by warehouse staff.
package httpapi

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/shopfront/inventory/internal/events"
	"github.com/shopfront/inventory/internal/store"
)

// Handlers holds the dependencies of the REST handlers.
type Handlers struct {
	Store     *store.Store
	Publisher *events.Publisher
}

// Health is the liveness probe.
func (h *Handlers) Health(c *gin.Context) {
	c.JSON(http.StatusOK, gin.H{"status": "ok"})
}

// ListLowStock lists the SKUs whose available quantity is at or below ?threshold (default 5).
func (h *Handlers) ListLowStock(c *gin.Context) {
	threshold, _ := strconv.Atoi(c.DefaultQuery("threshold", "5"))
	items, err := h.Store.LowStock(c.Request.Context(), threshold)
	if err != nil {
		c.AbortWithStatusJSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	c.JSON(http.StatusOK, items)
}

// GetStock returns the on-hand and reserved quantity of one SKU.
func (h *Handlers) GetStock(c *gin.Context) {
	item, err := h.Store.Get(c.Request.Context(), c.Param("sku"))
	if err != nil {
		c.AbortWithStatusJSON(http.StatusNotFound, gin.H{"error": "unknown sku"})
		return
	}
	c.JSON(http.StatusOK, item)
}

type setStockBody struct {
	OnHand int `json:"on_hand" binding:"min=0"`
}

// SetStock records a stock count from the warehouse and announces the change on Kafka.
func (h *Handlers) SetStock(c *gin.Context) {
	var body setStockBody
	if err := c.ShouldBindJSON(&body); err != nil {
		c.AbortWithStatusJSON(http.StatusBadRequest, gin.H{"error": err.Error()})
		return
	}
	item, err := h.Store.SetOnHand(c.Request.Context(), c.Param("sku"), body.OnHand)
	if err != nil {
		c.AbortWithStatusJSON(http.StatusInternalServerError, gin.H{"error": err.Error()})
		return
	}
	if err := h.Publisher.StockChanged(c.Request.Context(), item.SKU, item.OnHand-item.Reserved); err != nil {
		c.Error(err)
	}
	c.JSON(http.StatusOK, item)
}
