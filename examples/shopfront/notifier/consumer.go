package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

const emailQueue = "notifications.email"

type emailRequest struct {
	Template   string         `json:"template"`
	To         string         `json:"to"`
	CustomerID int64          `json:"customerId"`
	Vars       map[string]any `json:"vars"`
}

// consumeEmails sends every e-mail request queued by accounts and shipping.
func consumeEmails(ctx context.Context, url string, s *server) error {
	conn, err := amqp.Dial(url)
	if err != nil {
		return err
	}
	defer conn.Close()
	ch, err := conn.Channel()
	if err != nil {
		return err
	}
	if _, err := ch.QueueDeclare(emailQueue, true, false, false, false, nil); err != nil {
		return err
	}
	msgs, err := ch.Consume(emailQueue, "notifier", false, false, false, false, nil)
	if err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case d := <-msgs:
			var req emailRequest
			if err := json.Unmarshal(d.Body, &req); err != nil {
				d.Nack(false, false)
				continue
			}
			if req.To == "" {
				if req.To, err = lookupEmail(req.CustomerID); err != nil {
					log.Printf("no address for customer %d: %v", req.CustomerID, err)
					d.Nack(false, true)
					continue
				}
			}
			if err := sendEmail(ctx, req.To, subjectFor(req.Template), fmt.Sprint(req.Vars)); err != nil {
				d.Nack(false, true)
				continue
			}
			id := fmt.Sprintf("%d", time.Now().UnixNano())
			record, _ := json.Marshal(map[string]any{"id": id, "template": req.Template, "to": req.To, "sentAt": time.Now()})
			s.rdb.Set(ctx, "notifications:item:"+id, record, 7*24*time.Hour)
			s.rdb.LPush(ctx, recentKey, record)
			s.rdb.LTrim(ctx, recentKey, 0, 999)
			d.Ack(false)
		}
	}
}

func subjectFor(template string) string {
	switch template {
	case "welcome":
		return "Welcome to shopfront"
	case "order_shipped":
		return "Your order is on its way"
	default:
		return "shopfront"
	}
}
