/** Mounts the resource routers under /api (see app.js). */
const { Router } = require('express');
const cartRouter = require('./cart');

const router = Router();
router.use('/cart', cartRouter);

module.exports = router;
