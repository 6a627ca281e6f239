package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
)

const sendgridEndpoint = "https://api.sendgrid.com/v3/mail/send"

// sendEmail sends one plain-text e-mail through SendGrid's v3 API.
func sendEmail(ctx context.Context, to, subject, text string) error {
	payload := map[string]any{
		"personalizations": []map[string]any{{"to": []map[string]string{{"email": to}}}},
		"from":             map[string]string{"email": "no-reply@shopfront.example"},
		"subject":          subject,
		"content":          []map[string]string{{"type": "text/plain", "value": text}},
	}
	body, _ := json.Marshal(payload)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, sendgridEndpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+os.Getenv("SENDGRID_API_KEY"))
	req.Header.Set("Content-Type", "application/json")
	resp, err := httpClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("sendgrid: %s", resp.Status)
	}
	return nil
}
