package store

import (
	"context"
	"errors"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Store is the data access layer of the inventory service.
type Store struct {
	db *gorm.DB
}

// Open connects to PostgreSQL.
func Open(dsn string) (*Store, error) {
	db, err := gorm.Open(postgres.Open(dsn), &gorm.Config{})
	if err != nil {
		return nil, err
	}
	if err := db.AutoMigrate(&StockItem{}, &Reservation{}); err != nil {
		return nil, err
	}
	return &Store{db: db}, nil
}

// Get returns the stock of one SKU.
func (s *Store) Get(ctx context.Context, sku string) (*StockItem, error) {
	var item StockItem
	err := s.db.WithContext(ctx).First(&item, "sku = ?", sku).Error
	return &item, err
}

// LowStock lists SKUs whose available quantity is at or below threshold.
func (s *Store) LowStock(ctx context.Context, threshold int) ([]StockItem, error) {
	var items []StockItem
	err := s.db.WithContext(ctx).Where("on_hand - reserved <= ?", threshold).Order("sku").Find(&items).Error
	return items, err
}

// SetOnHand overwrites the counted quantity of a SKU.
func (s *Store) SetOnHand(ctx context.Context, sku string, onHand int) (*StockItem, error) {
	item := StockItem{SKU: sku, OnHand: onHand}
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "sku"}},
		DoUpdates: clause.AssignmentColumns([]string{"on_hand", "updated_at"}),
	}).Create(&item).Error
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, sku)
}

var errShort = errors.New("short")

// Reserve holds stock for all lines of an order in one transaction; false if any SKU is short.
func (s *Store) Reserve(ctx context.Context, orderID string, lines map[string]int) (bool, error) {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for sku, qty := range lines {
			res := tx.Model(&StockItem{}).Where("sku = ? AND on_hand - reserved >= ?", sku, qty).
				Update("reserved", gorm.Expr("reserved + ?", qty))
			if res.Error != nil {
				return res.Error
			}
			if res.RowsAffected == 0 {
				return errShort
			}
			if err := tx.Create(&Reservation{OrderID: orderID, SKU: sku, Quantity: qty, Status: "HELD"}).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, errShort) {
		return false, nil
	}
	return err == nil, err
}

// Release gives back the stock held for an order.
func (s *Store) Release(ctx context.Context, orderID string) error {
	return s.setReservations(ctx, orderID, "RELEASED", -1)
}

// Commit turns held stock into shipped stock once the order exists.
func (s *Store) Commit(ctx context.Context, orderID string) error {
	return s.setReservations(ctx, orderID, "COMMITTED", 0)
}

func (s *Store) setReservations(ctx context.Context, orderID, status string, sign int) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var held []Reservation
		if err := tx.Where("order_id = ? AND status = ?", orderID, "HELD").Find(&held).Error; err != nil {
			return err
		}
		for _, r := range held {
			upd := map[string]any{"reserved": gorm.Expr("reserved - ?", r.Quantity)}
			if sign == 0 {
				upd["on_hand"] = gorm.Expr("on_hand - ?", r.Quantity)
			}
			if err := tx.Model(&StockItem{}).Where("sku = ?", r.SKU).Updates(upd).Error; err != nil {
				return err
			}
		}
		return tx.Model(&Reservation{}).Where("order_id = ? AND status = ?", orderID, "HELD").Update("status", status).Error
	})
}
