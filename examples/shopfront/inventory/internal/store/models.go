// Package store keeps stock and reservations in PostgreSQL.
package store

import "time"

// StockItem is the stock of one SKU.
type StockItem struct {
	SKU       string    `gorm:"primaryKey;size:32" json:"sku"`
	OnHand    int       `gorm:"not null" json:"on_hand"`
	Reserved  int       `gorm:"not null;default:0" json:"reserved"`
	UpdatedAt time.Time `json:"updated_at"`
}

// TableName keeps the table name stable whatever GORM's naming strategy.
func (StockItem) TableName() string { return "stock_items" }

// Reservation is stock held for one line of an order (GORM's default table: reservations).
type Reservation struct {
	ID        uint   `gorm:"primaryKey"`
	OrderID   string `gorm:"index;size:64;not null"`
	SKU       string `gorm:"size:32;not null"`
	Quantity  int    `gorm:"not null"`
	Status    string `gorm:"size:16;not null"`
	CreatedAt time.Time
}
