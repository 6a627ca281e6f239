package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"time"
)

// accountsURL is injected by the deployment (compose or Kubernetes).
var accountsURL = os.Getenv("ACCOUNTS_URL")

var httpClient = &http.Client{Timeout: 5 * time.Second}

// lookupEmail asks accounts for the e-mail address of a customer.
func lookupEmail(customerID int64) (string, error) {
	resp, err := httpClient.Get(accountsURL + "/api/users/" + strconv.FormatInt(customerID, 10))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("accounts: %s", resp.Status)
	}
	var user struct {
		Email string `json:"email"`
	}
	err = json.NewDecoder(resp.Body).Decode(&user)
	return user.Email, err
}
