/** Builds the Express application; server.js starts it. */
const express = require('express');
const apiRoutes = require('./routes');

const app = express();
app.use(express.json());

/**
 * Liveness probe.
 */
function health(req, res) {
  res.json({ status: 'ok' });
}

app.get('/health', health);
app.use('/api', apiRoutes);

app.use((err, req, res, next) => {
  const status = err.response ? 502 : err.status || 500;
  res.status(status).json({ error: err.message });
});

module.exports = app;
