/** Carts live in Redis hashes: cart:<id> -> { <productId>: JSON line }. */
const Redis = require('ioredis');

const redis = new Redis(process.env.REDIS_URL || 'redis://localhost:6379/1');
const CART_TTL_SECONDS = 7 * 24 * 3600;

const key = (cartId) => `cart:${cartId}`;

async function readCart(cartId) {
  const raw = await redis.hgetall(key(cartId));
  return Object.values(raw).map((line) => JSON.parse(line));
}

async function putLine(cartId, line) {
  await redis.hset(key(cartId), String(line.productId), JSON.stringify(line));
  await redis.expire(key(cartId), CART_TTL_SECONDS);
}

async function removeLine(cartId, productId) {
  await redis.hdel(key(cartId), String(productId));
}

async function clearCart(cartId) {
  await redis.del(key(cartId));
}

module.exports = { readCart, putLine, removeLine, clearCart };
