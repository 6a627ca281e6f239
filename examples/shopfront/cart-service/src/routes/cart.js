/** Cart endpoints, mounted at /api/cart by routes/index.js. */
const express = require('express');
const { catalogApi, ordersApi } = require('../clients/http');
const store = require('../store/redis');

const router = express.Router();

/**
 * Returns the lines of a cart and its total in cents.
 */
async function getCart(req, res) {
  const lines = await store.readCart(req.params.cartId);
  const totalCents = lines.reduce((sum, l) => sum + l.priceCents * l.quantity, 0);
  res.json({ cartId: req.params.cartId, lines, totalCents });
}

/**
 * Adds a product to the cart at the catalog's current price.
 */
async function addItem(req, res, next) {
  try {
    const { productId, quantity = 1 } = req.body;
    const { data: product } = await catalogApi.get(`/api/v1/catalog/products/${productId}`);
    if (product.in_stock !== null && product.in_stock < quantity) {
      return res.status(409).json({ error: 'not enough stock' });
    }
    await store.putLine(req.params.cartId, { productId, sku: product.sku, quantity, priceCents: product.price_cents });
    res.status(201).json(await store.readCart(req.params.cartId));
  } catch (err) {
    next(err);
  }
}

/**
 * Removes one product from the cart.
 */
async function removeItem(req, res) {
  await store.removeLine(req.params.cartId, req.params.productId);
  res.status(204).end();
}

/**
 * Turns the cart into an order (orders reserves stock and takes the payment), then empties it.
 */
async function checkout(req, res, next) {
  try {
    const lines = await store.readCart(req.params.cartId);
    if (lines.length === 0) return res.status(400).json({ error: 'cart is empty' });
    const { customerId, paymentMethodId } = req.body;
    const { data: order } = await ordersApi.post('/api/orders', { customerId, paymentMethodId, lines });
    await store.clearCart(req.params.cartId);
    res.status(201).json(order);
  } catch (err) {
    next(err);
  }
}

router.get('/:cartId', getCart);
router.post('/:cartId/items', addItem);
router.delete('/:cartId/items/:productId', removeItem);
router.route('/:cartId/checkout').post(checkout);

module.exports = router;
