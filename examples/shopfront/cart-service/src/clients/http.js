/** Preconfigured axios instances for the services the cart depends on. */
const axios = require('axios');

const catalogApi = axios.create({
  baseURL: process.env.CATALOG_URL,
  timeout: 2000,
});

const ordersApi = axios.create({
  baseURL: process.env.ORDERS_URL || 'http://localhost:8080',
  timeout: 5000,
  headers: { 'Content-Type': 'application/json' },
});

module.exports = { catalogApi, ordersApi };
